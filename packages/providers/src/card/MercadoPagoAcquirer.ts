/**
 * The `Acquirer` port on Mercado Pago's payments API: authorize and capture
 * in one `POST /v1/payments` (`capture: true`), refunds by
 * `POST /v1/payments/{id}/refunds`, card tokens by `POST /v1/card_tokens`.
 * Our references are Mercado Pago's idempotency keys (`X-Idempotency-Key`,
 * mandatory there) and the payment's `external_reference`, so asking again
 * answers the first payment and a refund finds its payment by our charge id.
 *
 * Sources: https://www.mercadopago.com.br/developers/en/reference/online-payments/checkout-api-payments/create-payment/post ,
 * …/create-refund/post, and https://www.mercadopago.com.br/developers/es/docs/checkout-bricks/payment-brick/payment-submission/cards
 * (the idempotency key).
 */
import { Acquirer, AcquirerUnavailable, type Authorization, Money, type RefundAnswer } from "@billing/core"
import { Effect, Layer } from "effect"
import type { CardAcquirerConfig } from "../config/ProvidersConfig.ts"
import { createCardToken, tokenParts } from "./CardTokens.ts"
import { declineCodeOf } from "./DeclineCodes.ts"
import { isRefusal, type MercadoPagoCallError } from "./MercadoPagoErrors.ts"
import { decodeAnswer, makeMercadoPagoSend, type MercadoPagoHttpOptions, type MercadoPagoSend } from "./MercadoPagoHttp.ts"
import { type Payment, Payment as PaymentSchema, PaymentSearch, Refund } from "./MercadoPagoSchemas.ts"


/** Keys per operation, so a payment and a refund that share an id never share a key. */
export const idempotencyKey = (operation: "payment" | "refund" | "cancel", reference: string) => `billing-${operation}-${reference}`

const decodePayment = decodeAnswer("the payment", PaymentSchema)
const decodeSearch = decodeAnswer("the payment search", PaymentSearch)
const decodeRefund = decodeAnswer("the refund", Refund)

/** Credentials refused (401, 403) or no answer: the acquirer is unavailable to us, whatever the card. */
const unavailable = (error: MercadoPagoCallError) => new AcquirerUnavailable({ message: error.message })

/**
 * A payment neither approved nor rejected (pending, in review, waiting for
 * 3-D Secure): the port has no such answer yet, so it is cancelled and
 * refused, never left to be captured behind a charge recorded as failed.
 */
const cancelUndecided = Effect.fnUntraced(function*(send: MercadoPagoSend, payment: Payment, reference: string) {
  yield* Effect.logWarning(`Mercado Pago payment ${payment.id} of ${reference} is ${payment.status} (${payment.status_detail ?? "no detail"}): cancelled and refused`)
  yield* send({ method: "PUT", path: ["v1", "payments", String(payment.id)], body: { status: "cancelled" }, idempotencyKey: idempotencyKey("cancel", reference) })
  return { _tag: "Declined", code: "card_declined" } satisfies Authorization
})

const answerOf = (send: MercadoPagoSend, payment: Payment, reference: string): Effect.Effect<Authorization, MercadoPagoCallError> => {
  if (payment.status === "approved") return Effect.succeed({ _tag: "Approved", acquirerId: String(payment.id) })
  if (payment.status === "rejected" || payment.status === "cancelled") return Effect.succeed({ _tag: "Declined", code: declineCodeOf(payment.status_detail) })
  return cancelUndecided(send, payment, reference)
}

/** Mercado Pago refusing the payment request (a used token, a card number it rejects) refuses the card. */
const refusedRequest = (reference: string) => (error: MercadoPagoCallError) =>
  isRefusal(error)
    ? Effect.as(Effect.logWarning(`Mercado Pago refused the payment of ${reference}: ${error.message}`), { _tag: "Declined", code: "card_declined" } satisfies Authorization)
    : Effect.fail(unavailable(error))

const authorize = (send: MercadoPagoSend): Acquirer["Service"]["authorize"] =>
  Effect.fn("MercadoPago.authorize")(function*(request) {
    const token = request.payment._tag === "Card" ? (yield* createCardToken(send, request.payment.card)).token : request.payment.token
    const { id, paymentMethodId } = tokenParts(token)
    const body = {
      // Decimal reais written from the centavos (`10.00`), never a float computed here.
      transaction_amount: Money.toJsonNumber(request.amount),
      token: id,
      installments: request.installments,
      payment_method_id: paymentMethodId,
      capture: true,
      external_reference: request.reference
    }
    const payment = yield* send({ method: "POST", path: ["v1", "payments"], body, idempotencyKey: idempotencyKey("payment", request.reference) }).pipe(
      Effect.flatMap(decodePayment)
    )
    return yield* answerOf(send, payment, request.reference)
  }, (effect, request) => Effect.catch(effect, refusedRequest(request.reference)))

/** The captured payment of our charge `reference`, if Mercado Pago has one. */
const capturedPayment = Effect.fnUntraced(function*(send: MercadoPagoSend, reference: string) {
  const found = yield* send({ method: "GET", path: ["v1", "payments", "search"], query: { external_reference: reference } }).pipe(Effect.flatMap(decodeSearch))
  return found.results.find((payment) => payment.status === "approved" || payment.status === "refunded")
})

const refund = (send: MercadoPagoSend): Acquirer["Service"]["refund"] =>
  Effect.fn("MercadoPago.refund")(function*(request) {
    const payment = yield* capturedPayment(send, request.paymentReference)
    if (payment === undefined) return { _tag: "Refused", reason: `no captured Mercado Pago payment for ${request.paymentReference}` } satisfies RefundAnswer
    const call = { method: "POST" as const, path: ["v1", "payments", String(payment.id), "refunds"], body: { amount: Money.toJsonNumber(request.amount) }, idempotencyKey: idempotencyKey("refund", request.reference) }
    return yield* send(call).pipe(
      Effect.flatMap(decodeRefund),
      Effect.map((): RefundAnswer => ({ _tag: "Refunded", providerChargeId: String(payment.id) })),
      // A 4xx is Mercado Pago saying no (more than is left, a payment too old): the refund's answer, not an outage.
      Effect.catchIf(isRefusal, (problem) => Effect.succeed<RefundAnswer>({ _tag: "Refused", reason: problem.message }))
    )
  }, Effect.mapError(unavailable))

/** The port on the configured Mercado Pago account. */
export const makeMercadoPagoAcquirer = (config: CardAcquirerConfig, options: MercadoPagoHttpOptions = {}): Acquirer["Service"] => {
  const send = makeMercadoPagoSend(config, options)
  return Acquirer.of({
    tokenize: (card) => createCardToken(send, card).pipe(Effect.mapError(unavailable)),
    authorize: authorize(send),
    refund: refund(send)
  })
}

export const mercadoPagoAcquirerLayer = (config: CardAcquirerConfig, options: MercadoPagoHttpOptions = {}) =>
  Layer.succeed(Acquirer, makeMercadoPagoAcquirer(config, options))

/**
 * The `Acquirer` port on Mercado Pago's payments API: authorize and capture
 * in one `POST /v1/payments` (`capture: true`), refunds by
 * `POST /v1/payments/{id}/refunds`, card tokens by `POST /v1/card_tokens`,
 * cards kept on file by its Customers and Cards API (`CardsOnFile.ts`), and
 * a payment looked up by our reference with `GET /v1/payments/search`.
 * Our references are Mercado Pago's idempotency keys (`X-Idempotency-Key`,
 * mandatory there) and the payment's `external_reference`, so asking again
 * answers the first payment and a refund finds its payment by our charge id.
 * It serves production accounts only (`Acquirer.byEnvironment`): the
 * account a call names picks no Mercado Pago account, there is one.
 *
 * Sources: https://www.mercadopago.com.br/developers/en/reference/online-payments/checkout-api-payments/create-payment/post ,
 * …/create-refund/post, and https://www.mercadopago.com.br/developers/es/docs/checkout-bricks/payment-brick/payment-submission/cards
 * (the idempotency key).
 */
import { Acquirer, AcquirerUnavailable, type Authorization, type Lookup, Money, type Payer, type RefundAnswer } from "@billing/core"
import { Effect, Layer } from "effect"
import type { CardAcquirerConfig } from "../config/ProvidersConfig.ts"
import { cardOnFileParts, createCardToken, savedCardToken, type TokenParts, tokenParts } from "./CardTokens.ts"
import { saveCard } from "./CardsOnFile.ts"
import { declineCodeOf } from "./DeclineCodes.ts"
import { isRefusal, type MercadoPagoCallError, type MercadoPagoProblem } from "./MercadoPagoErrors.ts"
import { decodeAnswer, makeMercadoPagoSend, type MercadoPagoHttpOptions, type MercadoPagoSend } from "./MercadoPagoHttp.ts"
import { type Payment, Payment as PaymentSchema, PaymentSearch, Refund } from "./MercadoPagoSchemas.ts"


/** Keys per operation, so a payment and a refund that share an id never share a key. */
export const idempotencyKey = (operation: "payment" | "refund", reference: string) => `billing-${operation}-${reference}`

const decodePayment = decodeAnswer("the payment", PaymentSchema)
const decodeSearch = decodeAnswer("the payment search", PaymentSearch)
const decodeRefund = decodeAnswer("the refund", Refund)

/** Credentials refused (401, 403), our rate (429), or no connection at all: unavailable to us, whatever the card, and nothing charged. */
const unavailable = (error: MercadoPagoCallError) => new AcquirerUnavailable({ message: error.message })

/**
 * Whether the request may have been done by Mercado Pago although we have
 * no answer: a timeout or a connection cut after it left, or a 5xx (its
 * servers may have created the payment before failing), once the retries
 * with the same key are spent.
 */
const mayHaveCharged = (error: MercadoPagoCallError) =>
  (error._tag === "MercadoPagoUnreachable" && error.outcomeUnknown) || (error._tag === "MercadoPagoProblem" && error.status >= 500)

/** `pending_challenge`: the issuer asks for 3-D Secure, the challenge at `three_ds_info.external_resource_url`. */
const challengeOf = (payment: Payment) =>
  payment.status === "pending" && payment.status_detail === "pending_challenge" ? payment.three_ds_info?.external_resource_url ?? undefined : undefined

/** A payment's outcome as the port says it, if Mercado Pago decided it. */
const decided = (payment: Payment): Authorization | undefined => {
  if (payment.status === "approved") return { _tag: "Approved", acquirerId: String(payment.id) }
  if (payment.status === "rejected" || payment.status === "cancelled") return { _tag: "Declined", code: declineCodeOf(payment.status_detail) }
  const url = challengeOf(payment)
  return url === undefined ? undefined : { _tag: "ActionRequired", acquirerId: String(payment.id), url }
}

/**
 * The payment's outcome. One still undecided (`in_process`, `pending`: in
 * review, contingency) is read again, since a key asked again answers the
 * payment as it was first answered; still undecided, the outcome is unknown
 * and the charge is asked about again later, never cancelled behind it.
 */
const answerOf = Effect.fnUntraced(function*(send: MercadoPagoSend, payment: Payment, reference: string) {
  const first = decided(payment)
  if (first !== undefined) return first
  const now = yield* send({ method: "GET", path: ["v1", "payments", String(payment.id)] }).pipe(Effect.flatMap(decodePayment))
  const later = decided(now)
  if (later !== undefined) return later
  yield* Effect.logWarning(`Mercado Pago payment ${now.id} of ${reference} is ${now.status} (${now.status_detail ?? "no detail"}): outcome not known yet`)
  return { _tag: "Unknown", reason: `Mercado Pago payment ${now.id} is ${now.status} (${now.status_detail ?? "no detail"})` } satisfies Authorization
})

/**
 * A failed call as the port's answer: Mercado Pago refusing the request (a
 * used token, a card number it rejects) refuses the card; a request that
 * may have been done is an unknown outcome; anything else is unavailable.
 */
const answerOfFailure = (reference: string) => (error: MercadoPagoCallError | AcquirerUnavailable): Effect.Effect<Authorization, AcquirerUnavailable> => {
  if (error._tag === "AcquirerUnavailable") return Effect.fail(error)
  if (isRefusal(error)) {
    return Effect.as(Effect.logWarning(`Mercado Pago refused the payment of ${reference}: ${error.message}`), { _tag: "Declined", code: "card_declined" })
  }
  if (mayHaveCharged(error)) {
    return Effect.as(Effect.logWarning(`Mercado Pago gave no outcome for the payment of ${reference}: ${error.message}`), { _tag: "Unknown", reason: error.message })
  }
  return Effect.fail(unavailable(error))
}

/**
 * The payer as Mercado Pago takes it: `email` (required by its payments API)
 * and the identification, CPF by 11 digits and CNPJ by 14.
 */
export const payerOf = (payer: Payer) => ({
  ...(payer.email === null ? {} : { email: payer.email }),
  identification: { type: payer.document.length === 14 ? "CNPJ" : "CPF", number: payer.document }
})

/**
 * A token for one payment: a card Mercado Pago refuses (a typed number, a
 * kept card it no longer has) is refused; no token for another reason is
 * unavailable, since a token charges nothing.
 */
const paymentToken = <E extends MercadoPagoCallError>(token: Effect.Effect<string, E>) =>
  Effect.mapError(token, (error) => (isRefusal(error) ? error : unavailable(error)))

/** The payment's token, its payment method and its payer. */
interface PaymentSource extends TokenParts {
  readonly payer: ReturnType<typeof payerOf> | { readonly type: "customer"; readonly id: string }
}

/**
 * What a payment is made with: a typed card's fresh token, or our token,
 * with the payer the request names; a card on file by a fresh token of the
 * kept card, its customer the payer (no CVV: a renewal has no buyer).
 */
const paymentSource = Effect.fnUntraced(function*(
  send: MercadoPagoSend,
  request: Parameters<Acquirer["Service"]["authorize"]>[0]
): Effect.fn.Return<PaymentSource, MercadoPagoProblem | AcquirerUnavailable> {
  if (request.payment._tag === "Card") {
    const token = yield* paymentToken(Effect.map(createCardToken(send, request.payment.card), ({ token }) => token))
    return { ...tokenParts(token), payer: payerOf(request.payer) }
  }
  const kept = cardOnFileParts(request.payment.token)
  if (kept === undefined) return { ...tokenParts(request.payment.token), payer: payerOf(request.payer) }
  const id = yield* paymentToken(savedCardToken(send, kept))
  return { id, paymentMethodId: kept.paymentMethodId, payer: { type: "customer", id: kept.customerId } }
})

const authorize = (send: MercadoPagoSend): Acquirer["Service"]["authorize"] =>
  Effect.fn("MercadoPago.authorize")(function*(request) {
    const { id, paymentMethodId, payer } = yield* paymentSource(send, request)
    const body = {
      // Decimal reais written from the centavos (`10.00`), never a float computed here.
      transaction_amount: Money.toJsonNumber(request.amount),
      token: id,
      installments: request.installments,
      payment_method_id: paymentMethodId,
      // No `three_d_secure_mode`: Mercado Pago's default does not ask for 3-D Secure; a challenge it asks anyway is `ActionRequired`.
      capture: true,
      external_reference: request.reference,
      payer
    }
    const payment = yield* send({ method: "POST", path: ["v1", "payments"], body, idempotencyKey: idempotencyKey("payment", request.reference) }).pipe(
      Effect.flatMap(decodePayment)
    )
    return yield* answerOf(send, payment, request.reference)
  }, (effect, request) => Effect.catch(effect, answerOfFailure(request.reference)))

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

/**
 * The payment under our reference, charging nothing: a captured one is the
 * approval (refunded since or not); else the latest, as `authorize` would
 * answer it. The search is Mercado Pago's index, which a payment reaches
 * within seconds: the core looks up only charges left unanswered a while.
 */
const lookup = (send: MercadoPagoSend): Acquirer["Service"]["lookup"] =>
  Effect.fn("MercadoPago.lookup")(function*({ reference }): Effect.fn.Return<Lookup, MercadoPagoCallError> {
    const found = yield* send({ method: "GET", path: ["v1", "payments", "search"], query: { external_reference: reference } }).pipe(Effect.flatMap(decodeSearch))
    const captured = found.results.find((payment) => payment.status === "approved" || payment.status === "refunded")
    if (captured !== undefined) return { _tag: "Approved", acquirerId: String(captured.id) } satisfies Lookup
    const latest = found.results.reduce<Payment | undefined>((last, payment) => (last === undefined || payment.id > last.id ? payment : last), undefined)
    if (latest === undefined) return { _tag: "NotFound" } satisfies Lookup
    return decided(latest) ?? { _tag: "Unknown", reason: `Mercado Pago payment ${latest.id} is ${latest.status} (${latest.status_detail ?? "no detail"})` }
  }, Effect.mapError(unavailable))

/** The port on the configured Mercado Pago account. */
export const makeMercadoPagoAcquirer = (config: CardAcquirerConfig, options: MercadoPagoHttpOptions = {}): Acquirer["Service"] => {
  const send = makeMercadoPagoSend(config, options)
  return Acquirer.of({
    tokenize: ({ card }) => createCardToken(send, card).pipe(Effect.mapError(unavailable)),
    authorize: authorize(send),
    refund: refund(send),
    saveCard: ({ payer, token }) => saveCard(send, token, payer),
    lookup: lookup(send)
  })
}

export const mercadoPagoAcquirerLayer = (config: CardAcquirerConfig, options: MercadoPagoHttpOptions = {}) =>
  Layer.succeed(Acquirer, makeMercadoPagoAcquirer(config, options))

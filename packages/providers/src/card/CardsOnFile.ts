/**
 * Cards kept on file at Mercado Pago, for renewals without the buyer: after
 * a card's first approved payment (made with its CVV), the payer becomes a
 * Mercado Pago customer, found first by e-mail so there is one per payer
 * (`GET /v1/customers/search`, else `POST /v1/customers`), and the card that
 * paid is kept under it (`POST /v1/customers/{id}/cards` with that payment's
 * token). Each later payment takes a fresh token of the kept card
 * (`savedCardToken`) and names the customer as its payer.
 *
 * Sources: https://www.mercadopago.com.br/developers/pt/docs/automatic-payments/recurring-charges
 * (the card of the first payment associated with the customer, by its token),
 * https://www.mercadopago.com.br/developers/en/docs/checkout-api/cards-and-customers-management/create-customer-and-card ,
 * https://www.mercadopago.com.br/developers/en/reference/customers/_customers_search/get (`email`; `results` empty when none),
 * https://www.mercadopago.com.br/developers/en/reference/cards/_customers_customer_id_cards/post (`token`; error
 * 101 "the customer already exist"), and
 * https://www.mercadopago.com.br/developers/en/docs/checkout-api/cards-and-customers-management/receive-payments-with-saved-cards
 * (`payer: { type: "customer", id }`).
 */
import { CardNotSaved, type Payer } from "@billing/core"
import { Effect } from "effect"
import { cardOnFileOf, cardOnFileParts, tokenParts } from "./CardTokens.ts"
import type { MercadoPagoCallError } from "./MercadoPagoErrors.ts"
import { decodeAnswer, type MercadoPagoSend } from "./MercadoPagoHttp.ts"
import { Customer, CustomerCard, CustomerSearch } from "./MercadoPagoSchemas.ts"

const decodeCustomer = decodeAnswer("the customer", Customer)
const decodeCustomerSearch = decodeAnswer("the customer search", CustomerSearch)
const decodeCustomerCard = decodeAnswer("the customer's card", CustomerCard)

/** Mercado Pago's cause when a customer with the e-mail exists: made meanwhile by another request for the same payer. */
const CUSTOMER_EXISTS = "101"

const isCustomerExists = (error: MercadoPagoCallError) => error._tag === "MercadoPagoProblem" && error.causes.includes(CUSTOMER_EXISTS)

const findCustomer = (send: MercadoPagoSend, email: string) =>
  send({ method: "GET", path: ["v1", "customers", "search"], query: { email } }).pipe(
    Effect.flatMap(decodeCustomerSearch),
    Effect.map((found) => found.results[0]?.id)
  )

/** The payer's customer: the one of its e-mail, else a new one (its identification for the risk analysis). */
const customerOf = Effect.fnUntraced(function*(send: MercadoPagoSend, payer: Payer, email: string) {
  const found = yield* findCustomer(send, email)
  if (found !== undefined) return found
  const identification = { type: payer.document.length === 14 ? "CNPJ" : "CPF", number: payer.document }
  return yield* send({ method: "POST", path: ["v1", "customers"], body: { email, identification } }).pipe(
    Effect.flatMap(decodeCustomer),
    Effect.map((customer) => customer.id),
    Effect.catchIf(isCustomerExists, () =>
      Effect.flatMap(findCustomer(send, email), (again) =>
        again === undefined
          ? Effect.fail(new CardNotSaved({ message: `Mercado Pago says a customer of ${email} exists, and its search finds none` }))
          : Effect.succeed(again)))
  )
})

/**
 * Keeps the card of `token` for `payer` and answers the card on file
 * (`mp:cof:…`); a card on file already is answered as it is, nothing asked.
 */
export const saveCard = Effect.fn("MercadoPago.saveCard")(function*(send: MercadoPagoSend, token: string, payer: Payer) {
  if (cardOnFileParts(token) !== undefined) return { token }
  if (payer.email === null) return yield* new CardNotSaved({ message: "Mercado Pago keeps cards under a customer found by e-mail, and the payer has none" })
  const { id, paymentMethodId } = tokenParts(token)
  const customerId = yield* customerOf(send, payer, payer.email)
  // Keyed by the token: a card saved, then asked again after a timeout, is the same card.
  const card = yield* send({ method: "POST", path: ["v1", "customers", customerId, "cards"], body: { token: id }, idempotencyKey: `billing-card-${id}` }).pipe(
    Effect.flatMap(decodeCustomerCard)
  )
  return { token: cardOnFileOf({ customerId, cardId: String(card.id), paymentMethodId: card.payment_method?.id ?? paymentMethodId }) }
}, Effect.mapError((error) => (error._tag === "CardNotSaved" ? error : new CardNotSaved({ message: error.message }))))

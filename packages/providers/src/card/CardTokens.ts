/**
 * Card tokens: a typed card becomes Mercado Pago's single-use token on the
 * way in (`POST /v1/card_tokens` with the public key, as the browser SDK
 * does), so the number and the CVV leave the engine once, to Mercado Pago,
 * and never appear in a payment, a log line or an error. Our token carries
 * Mercado Pago's payment method (`visa`, `master`, …), which a payment
 * needs and a card token does not say: `mp:<payment_method_id>:<id>`.
 * A token made in the buyer's browser by Mercado Pago's SDK is given to the
 * checkout the same way (`tokenId`).
 */
import type { CardData } from "@billing/core"
import { cardBrand } from "@billing/core/brazil/Cards"
import { Effect } from "effect"
import { withoutSecrets } from "./MercadoPagoErrors.ts"
import { decodeAnswer, type MercadoPagoSend } from "./MercadoPagoHttp.ts"
import { CardToken } from "./MercadoPagoSchemas.ts"

/** Our brands (`cardBrand`) as Mercado Pago's `payment_method_id` of a credit card. */
const PAYMENT_METHODS: Readonly<Record<string, string>> = {
  visa: "visa",
  mastercard: "master",
  amex: "amex",
  elo: "elo",
  hipercard: "hipercard",
  diners: "diners"
}

/** Ours, `mp:<payment_method_id>:<card token id>`. */
export interface TokenParts {
  readonly paymentMethodId: string | undefined
  readonly id: string
}

export const tokenOf = (parts: TokenParts) => `mp:${parts.paymentMethodId ?? ""}:${parts.id}`

/** A token in our form, or a bare Mercado Pago token (its payment method then unknown). */
export const tokenParts = (token: string): TokenParts => {
  const match = /^mp:([a-z]*):(.+)$/.exec(token)
  if (match === null) return { paymentMethodId: undefined, id: token }
  return { paymentMethodId: match[1] === "" ? undefined : match[1], id: match[2]! }
}

/**
 * A card kept on file (`CardsOnFile.ts`): Mercado Pago's customer and card
 * ids, and the card's payment method. Ours, as a `pm_` keeps it:
 * `mp:cof:<customer id>:<card id>:<payment_method_id>` (a customer id is
 * letters, digits and dashes; a card id digits).
 */
export interface CardOnFile {
  readonly customerId: string
  readonly cardId: string
  readonly paymentMethodId: string | undefined
}

export const cardOnFileOf = (card: CardOnFile) => `mp:cof:${card.customerId}:${card.cardId}:${card.paymentMethodId ?? ""}`

/** The card on file `token` names, if it names one (read before `tokenParts`, which would take `cof` for a payment method). */
export const cardOnFileParts = (token: string): CardOnFile | undefined => {
  const match = /^mp:cof:([^:]+):([^:]+):([a-z]*)$/.exec(token)
  return match === null ? undefined : { customerId: match[1]!, cardId: match[2]!, paymentMethodId: match[3] === "" ? undefined : match[3] }
}

const cardTokenBody = (card: CardData) => {
  const [month, year] = card.expiration.split("/")
  return {
    card_number: card.number,
    security_code: card.cvv,
    expiration_month: Number(month),
    expiration_year: Number(year),
    cardholder: { name: card.name.trim() }
  }
}

const decodeCardToken = decodeAnswer("the card token", CardToken)

/**
 * A fresh single-use token of the card on file `card`, for one payment:
 * `POST /v1/card_tokens` with `card_id` and `customer_id` and no security
 * code (the SDK's `CardTokenCreateBody`: mercadopago/sdk-nodejs,
 * src/clients/cardToken/create/types.ts), made by our server with the
 * access token. A payment by it without the CVV is accepted once Mercado
 * Pago enabled the application for automatic payments
 * (https://www.mercadopago.com.br/developers/en/docs/automatic-payments/prerequisites).
 */
export const savedCardToken = Effect.fn("MercadoPago.savedCardToken")(function*(send: MercadoPagoSend, card: CardOnFile) {
  // No idempotency key, as for a typed card's token: it charges nothing.
  const answer = yield* send({ method: "POST", path: ["v1", "card_tokens"], body: { card_id: card.cardId, customer_id: card.customerId } }).pipe(
    Effect.flatMap(decodeCardToken)
  )
  return answer.id
})

/** Creates the card's token; its brand as the core names brands. */
export const createCardToken = Effect.fn("MercadoPago.createCardToken")(function*(send: MercadoPagoSend, card: CardData) {
  const brand = cardBrand(card.number)
  // No idempotency key: a token charges nothing, and a second one for the same card is harmless.
  const answer = yield* send({ method: "POST", path: ["v1", "card_tokens"], body: cardTokenBody(card), credential: "public" }).pipe(
    Effect.flatMap(decodeCardToken),
    Effect.mapError((error) => withoutSecrets(error, [card.number, card.cvv]))
  )
  return { token: tokenOf({ paymentMethodId: PAYMENT_METHODS[brand], id: answer.id }), brand }
})

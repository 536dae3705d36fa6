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

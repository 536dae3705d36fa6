/**
 * The card of the hosted checkout page. The browser sends the card number
 * to one route only, the tokenization of its own link or session, which
 * tokenizes it (`tokenizeCard`, as `POST /v1/payment-methods` does) as the
 * link's merchant and answers a card token bound to that link: the `pm_`
 * id and an HMAC of it with the link's id under the engine's signing key.
 * The page's payment carries that token instead of the card; the `pm_` it
 * names is charged only when the token was made for the same link, so a
 * buyer can neither charge another of the merchant's cards on file nor
 * reuse a token on another merchant's link. No table is needed: every
 * server of an installation holds the same key.
 */
import { Effect, Result, Schema } from "effect"
import { Base64Url } from "effect/encoding"
import { asAccount } from "../auth/AsAccount.ts"
import { SigningKey } from "../auth/SigningKey.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import type { CardData } from "../ports/Acquirer.ts"
import { payableCheckout, payCheckout, type PayCheckoutRequest } from "./PayCheckout.ts"
import { tokenizeCard } from "./TokenizeCard.ts"
import { CheckoutLinkId, CheckoutSessionId } from "../domain/Ids.ts"

const encoder = new TextEncoder()

// Domain-separated from the access tokens signed with the same key: a JWT's
// signing input is base64url and cannot begin with this text.
const signingInput = (checkoutId: string, paymentMethodId: string) => encoder.encode(`hosted-card\n${checkoutId}\n${paymentMethodId}`)

/** The token of `paymentMethodId` for the link or session `checkoutId`. */
const sealCardToken = Effect.fnUntraced(function*(checkoutId: string, paymentMethodId: string) {
  const { key } = yield* SigningKey
  const mac = yield* Effect.promise(() => crypto.subtle.sign("HMAC", key, signingInput(checkoutId, paymentMethodId)))
  return `${paymentMethodId}.${Base64Url.encode(new Uint8Array(mac))}`
})

/** The `pm_` id of a card token made for `checkoutId`; `INVALID_DATA` on `cardToken` for any other. */
export const openCardToken = Effect.fn("HostedCard.open")(function*(checkoutId: string, token: string) {
  const dot = token.lastIndexOf(".")
  const paymentMethodId = token.slice(0, dot)
  const mac = dot > 0 ? Result.getOrUndefined(Base64Url.decode(token.slice(dot + 1))) : undefined
  const { key } = yield* SigningKey
  // `verify` compares in constant time.
  const valid = mac !== undefined &&
    (yield* Effect.promise(() => crypto.subtle.verify("HMAC", key, mac, signingInput(checkoutId, paymentMethodId))))
  if (!valid) return yield* invalid("cardToken", "the card was not tokenized for this checkout: type it again")
  return paymentMethodId
})

/** What the tokenization answers the page: the token, and what the buyer may see of the card. */
export const HostedCardToken = Schema.Struct({
  cardToken: Schema.String,
  brand: Schema.String,
  lastFour: Schema.String
})

/** The link or session the page's address names, as the body of `POST /v1/checkouts/pay` names it: its id decoded as its kind's. */
const namedBy = (checkoutId: string, kind: "link" | "session") =>
  kind === "session" ? { sessionId: CheckoutSessionId.make(checkoutId) } : { checkoutId: CheckoutLinkId.make(checkoutId) }

/**
 * Tokenizes `card` for the link or session `checkoutId`, which must be
 * payable and take cards (so the route cannot serve as a free card checker
 * for links that never charge one).
 */
export const tokenizeHostedCard = Effect.fn("HostedCard.tokenize")(function*(checkoutId: string, kind: "link" | "session", card: CardData) {
  const link = yield* payableCheckout(namedBy(checkoutId, kind))
  if (!link.allowedPaymentMethods.includes("creditcard")) return yield* invalid("paymentMethod", "this checkout does not take cards")
  const method = yield* tokenizeCard({ card }).pipe(asAccount(link.accountId))
  return HostedCardToken.make({
    cardToken: yield* sealCardToken(link.id, method.paymentMethodId),
    brand: method.brand,
    lastFour: method.lastFour
  })
})

/**
 * What the buyer decides on the page; the link or session is the page's own,
 * a card comes as its token, and the order bumps ticked as their price ids.
 */
export type HostedPaymentChoices = Omit<PayCheckoutRequest, "sessionId" | "checkoutId" | "card" | "tokenId"> & {
  readonly cardToken?: string | undefined
  readonly orderBumps?: ReadonlyArray<string> | undefined
}

/** Pays the link or session `checkoutId` as `POST /v1/checkouts/pay` does, a card by its token, with the bumps ticked. */
export const payHostedCheckout = Effect.fn("HostedPayment.pay")(function*(checkoutId: string, kind: "link" | "session", choices: HostedPaymentChoices) {
  const { cardToken, orderBumps, ...body } = choices
  const paymentMethodId = cardToken === undefined ? undefined : yield* openCardToken(checkoutId, cardToken)
  return yield* payCheckout(
    { ...body, ...namedBy(checkoutId, kind) },
    { ...(paymentMethodId === undefined ? {} : { paymentMethodId }), ...(orderBumps === undefined ? {} : { orderBumps }) }
  )
})

/**
 * `POST /v1/payment-methods`: a card tokenized at the acquirer for later
 * charges (`paymentMethodId` on the checkout). Only what may be kept is
 * stored: the acquirer's token, brand, first six and last four digits,
 * expiry and holder's name; never the number or the CVV. An acquirer's
 * token may charge once (Mercado Pago's do): the card is kept on file at the
 * acquirer when its first payment is approved (`CardCheckout`), since the
 * acquirer keeps cards under a payer, which that payment names and this
 * request does not.
 */
import { Clock, Effect } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { Acquirer, type CardData } from "../ports/Acquirer.ts"
import { Ids } from "../ports/Ids.ts"
import { PaymentMethods } from "../ports/PaymentMethods.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { Transactor } from "../ports/Transactor.ts"
import { checkCard } from "./CardCheckout.ts"
import { PaymentMethodIds } from "../domain/Ids.ts"

/** Tokenizes `input.card` for the caller's account, checked as the checkout checks a typed card. */
export const tokenizeCard = Effect.fn("Checkout.tokenizeCard")(function*(input: { readonly card: CardData }) {
  const caller = yield* Caller
  const now = yield* Clock.currentTimeMillis
  const { card, expiry } = yield* Effect.fromResult(checkCard(input.card, saoPauloDate(now)))
  yield* requireProvider(caller.account, "card")
  const { token, brand } = yield* (yield* Acquirer).tokenize({ account: caller.account, card }).pipe(
    Effect.mapError((e) => new ProviderUnavailable({ message: "Adquirente indisponível", details: { reason: e.message } }))
  )
  const id = yield* (yield* Ids).make(PaymentMethodIds, { sandbox: caller.account.sandbox })
  const method = {
    id,
    accountId: caller.account.id,
    acquirerToken: token,
    brand,
    firstSix: card.number.slice(0, 6),
    lastFour: card.number.slice(-4),
    expMonth: expiry.month,
    expYear: expiry.year,
    holderName: card.name.trim(),
    createdAt: new Date(now)
  }
  yield* (yield* Transactor).withTransaction((yield* PaymentMethods).insert(method))
  return { paymentMethodId: id, brand, firstSix: method.firstSix, lastFour: method.lastFour, expiration: card.expiration }
})

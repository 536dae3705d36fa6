/**
 * `POST /v1/charges`: the transparent checkout of one-time payments by Pix,
 * boleto or card, from an `amount`, one-time `items` or a `productId`, with
 * discounts, coupon, split (Pix, boleto), installments (card) and
 * `externalId` idempotency; recurring items start a subscription
 * (`subscriptions/CreateSubscription.ts`) through the same stages.
 *
 * In stages, each its own module: parse (`ParseCheckout`) → price
 * (`PriceCheckout`) → draft and reserve (`ReserveCheckout`), around one
 * strategy per method (`PixCheckout`, `BoletoCheckout`, `CardCheckout`).
 */
import { Effect } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { providerOf } from "../rules/PaymentProviders.ts"
import { prepareBoleto } from "./BoletoCheckout.ts"
import { prepareCard } from "./CardCheckout.ts"
import type { CheckoutRequest } from "./CheckoutRequest.ts"
import type { Account } from "../domain/Account.ts"
import type { ChargeAddress } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { type CheckoutOrder, parseCheckout } from "./ParseCheckout.ts"
import { preparePix } from "./PixCheckout.ts"
import { createSubscriptionCheckout } from "../subscriptions/CreateSubscription.ts"
import { isRecurring, priceCheckout, type Purchase, resolvePurchase } from "./PriceCheckout.ts"
import { configNamed } from "../nfse/Notas.ts"
import { scheduleChargeNota } from "../nfse/NotaTiming.ts"
import { draftCheckout, reserveCheckout } from "./ReserveCheckout.ts"

export { DEFAULT_BOLETO_DUE_DAYS } from "./BoletoCheckout.ts"
export { tokenizeCard } from "./TokenizeCard.ts"

/**
 * Creates what a checkout request buys on the caller's account: a
 * subscription when it buys recurring prices (`createSubscriptionCheckout`),
 * else a one-time charge.
 */
export const createCheckoutCharge = Effect.fn("Checkout.create")(function*(
  request: CheckoutRequest,
  /** `checkoutId`: the hosted checkout (link or session) the purchase is made through. */
  options: { readonly checkoutId?: string | undefined } = {}
) {
  const caller = yield* Caller
  const order = yield* parseCheckout(request, caller.account)
  const purchase = yield* resolvePurchase(request, caller.account.id)
  // Before anything is written: a subscription in a free period would otherwise start with no provider for its cycles.
  yield* requireProvider(caller.account, providerOf(order.paymentMethod))
  if (isRecurring(purchase)) return yield* createSubscriptionCheckout(order, purchase, caller, options.checkoutId ?? null)
  if (order.pixAutomatico) return yield* invalid("items", "pix_automatico needs recurring items")
  return yield* chargeOnce(order, purchase, caller)
})

/**
 * The one-time charge of a checkout request that sends an `amount` (the
 * provider's one-off route).
 */
export const createAmountCharge = Effect.fn("Checkout.createAmountCharge")(function*(
  request: CheckoutRequest & { readonly amount: NonNullable<CheckoutRequest["amount"]> },
  /** `pixLifetimeSeconds`: how long an immediate Pix stays payable (the provider's one-off charge counts seconds). */
  options: { readonly pixLifetimeSeconds?: number | undefined } = {}
) {
  const caller = yield* Caller
  const order = yield* parseCheckout(request, caller.account)
  const purchase = yield* resolvePurchase(request, caller.account.id)
  return yield* chargeOnce(order, purchase, caller, options)
})

/**
 * The fiscal configuration a one-time charge's note is issued with: the
 * request's `nfConfigId`, else that of the products it buys (the first line
 * whose product names one). A product's note needs the buyer's complete
 * address as the request's does (`parseCheckout` checked that one).
 */
const notaConfigOf = Effect.fnUntraced(function*(order: CheckoutOrder, purchase: Purchase, address: ChargeAddress | null) {
  if (order.request.nfConfigId !== undefined) return order.request.nfConfigId
  const line = purchase._tag === "Lines" ? purchase.lines.find((l) => l.product.nfConfigId !== null) : undefined
  if (line === undefined) return undefined
  if (address === null) {
    return yield* invalid("customer.address", `customer.address is required: product ${line.product.id} issues a fiscal note (nfConfigId)`)
  }
  return line.product.nfConfigId ?? undefined
})

/**
 * Creates the one-time charge of `purchase`. The method's strategy runs
 * between the draft and the reserve (its own checks, fees and, for Pix and
 * boleto, the provider's registration) and after it (the card's
 * authorization), so the first failing field is reported in the order parse
 * → price → method, and nothing is recorded for a refused request.
 */
const chargeOnce = Effect.fnUntraced(function*(
  order: CheckoutOrder,
  purchase: Purchase,
  caller: { readonly account: Account; readonly master: Account },
  options: { readonly pixLifetimeSeconds?: number | undefined } = {}
) {
  const price = yield* priceCheckout(order, purchase, caller.account.id)
  const draft = yield* draftCheckout(order, price, caller)
  // Before the provider is asked: a configuration refused after a bank registered the boleto would leave it payable.
  const nfConfigId = yield* notaConfigOf(order, purchase, draft.common.address)
  if (nfConfigId !== undefined) yield* configNamed(caller.account.id, nfConfigId)
  const prepared = order.paymentMethod === "pix"
    ? yield* preparePix(order, draft, options.pixLifetimeSeconds)
    : order.paymentMethod === "boleto"
    ? yield* prepareBoleto(order, draft)
    : yield* prepareCard(order, draft)
  const customerId = yield* reserveCheckout(draft, prepared.pending, prepared.notify, (charge) =>
    nfConfigId === undefined ? Effect.void : scheduleChargeNota(charge, nfConfigId))
  return yield* prepared.settle(customerId)
})

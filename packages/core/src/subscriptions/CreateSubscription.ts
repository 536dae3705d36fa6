/**
 * `POST /v1/charges` with recurring items: a subscription (`sub_`), its
 * items, cycle 1 with its invoice and charge, written in one transaction
 * with `subscription.created` and `charge.created` (or, in a free period,
 * `subscription.created` and `subscription.trial` and no charge). The charge
 * of cycle 1 is made by the checkout's own method strategies, so a
 * subscription's first Pix, boleto or card is exactly a one-time checkout's;
 * its payment activates the subscription (`SubscriptionPayments`).
 */
import { Effect, Option, Schema } from "effect"
import type { Account } from "../domain/Account.ts"
import { prepareBoleto } from "../checkout/BoletoCheckout.ts"
import { prepareCard } from "../checkout/CardCheckout.ts"
import type { CheckoutRequest } from "../checkout/CheckoutRequest.ts"
import type { CheckoutOrder } from "../checkout/ParseCheckout.ts"
import { preparePix } from "../checkout/PixCheckout.ts"
import { couponRefused, type Purchase, type PurchaseLine } from "../checkout/PriceCheckout.ts"
import { type CheckoutDraft, type CheckoutResult, draftCheckout, reserveCheckout } from "../checkout/ReserveCheckout.ts"
import { tokenizeCard } from "../checkout/TokenizeCard.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { CalendarDate } from "../domain/Values.ts"
import { chargeCreated, subscriptionEvent } from "../events/SubscriptionEvents.ts"
import { Customers } from "../ports/Customers.ts"
import { Coupons } from "../ports/Coupons.ts"
import { Ids } from "../ports/Ids.ts"
import { Outbox } from "../ports/Outbox.ts"
import { PaymentMethods } from "../ports/PaymentMethods.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { PIX_AUTOMATICO_MINIMUM } from "./PixAutomatico.ts"
import { planFirstCycle, type SubscriptionPlan } from "./SubscriptionPlan.ts"
import { subscriptionTerms } from "./SubscriptionTerms.ts"
import { type AccountId, CartIds, SubscriptionIds } from "../domain/Ids.ts"

/** The 200 of a checkout that started a subscription: the checkout's, with the subscription. */
export type SubscriptionCheckoutResult =
  | (CheckoutResult & { readonly subscriptionId: string })
  | { readonly success: true; readonly customerId: string; readonly subscriptionId: string; readonly status: "trialing" }

/**
 * A typed card is tokenized first, so later cycles can be charged without
 * it: the request then names the token, as a client that tokenized would.
 * Answers the request and the card the subscription shows.
 */
const withReusableCard = Effect.fnUntraced(function*(request: CheckoutRequest, accountId: AccountId) {
  if (request.paymentMethod !== "creditcard") return { request, card: null }
  if (request.card !== undefined) {
    const { paymentMethodId, brand, firstSix, lastFour } = yield* tokenizeCard({ card: request.card })
    const { card: _, ...rest } = request
    return { request: { ...rest, paymentMethodId }, card: { brand, firstSix, lastFour } }
  }
  if (request.paymentMethodId === undefined) return { request, card: null }
  const method = yield* (yield* PaymentMethods).find(accountId, request.paymentMethodId)
  return { request, card: Option.match(method, { onNone: () => null, onSome: ({ brand, firstSix, lastFour }) => ({ brand, firstSix, lastFour }) }) }
})

/** A date the calendar rules computed, as the request's checked date. */
const toCalendarDate = Schema.decodeSync(CalendarDate)

/**
 * The request the method's strategy charges cycle 1 with: a Pix with due
 * date, or a boleto, due on the cycle's due date when that is after today.
 * A boleto of a cycle due today falls due tomorrow (a boleto is never due the
 * day it is issued) unless the request names its own due date: the
 * one-time default of 30 days would fall after the next cycle.
 */
const firstChargeRequest = (request: CheckoutRequest, due: string, today: string): CheckoutRequest => {
  if (due <= today) {
    const ownDueDate = request.dueDate !== undefined || request.boletoDueDays !== undefined
    return request.paymentMethod === "boleto" && !ownDueDate ? { ...request, boletoDueDays: 1 } : request
  }
  const dueDate = toCalendarDate(due)
  if (request.paymentMethod === "pix") return { ...request, expiration: dueDate }
  if (request.paymentMethod === "boleto") return { ...request, dueDate, boletoDueDays: undefined }
  return request
}

/** Writes the subscription and its events, in the reserve's transaction. */
const recordSubscription = Effect.fnUntraced(function*(
  plan: SubscriptionPlan,
  records: Parameters<SubscriptionPlan["withCustomer"]>[0],
  owner: Account
) {
  const aggregate = plan.withCustomer(records)
  yield* (yield* Subscriptions).insert(aggregate)
  const outbox = yield* Outbox
  yield* outbox.append(subscriptionEvent("subscription.created", aggregate, owner.number, plan.at))
  if (aggregate.subscription.status === "TRIALING") yield* outbox.append(subscriptionEvent("subscription.trial", aggregate, owner.number, plan.at))
  return { aggregate, accountNumber: owner.number }
})

/** A subscription in a free period: no charge; the customer, the subscription, the coupon use and the events. */
const startFree = Effect.fnUntraced(function*(draft: CheckoutDraft, plan: SubscriptionPlan) {
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const { customer } = yield* (yield* Customers).insertIfAbsent(draft.customer)
    yield* recordSubscription(plan, { customerId: customer.id, charge: null, recurrencyId: null }, draft.owner)
    const redemption = { customerDocument: draft.customer.document, reference: plan.subscriptionId, at: plan.at }
    if (draft.couponId !== undefined && !(yield* (yield* Coupons).redeem(draft.couponId, redemption))) {
      return yield* couponRefused("COUPON_EXHAUSTED")
    }
    return { success: true as const, customerId: customer.id, subscriptionId: plan.subscriptionId, status: "trialing" as const }
  }))
})

/** The recurring lines of a purchase by interval, in the order they came; one-time lines apart. */
const byInterval = (lines: ReadonlyArray<PurchaseLine>) => {
  const groups = new Map<string, Array<PurchaseLine>>()
  for (const line of lines) {
    if (line.price.recurrenceType === "ONE_TIME") continue
    const key = `${line.price.recurrenceType}/${line.price.recurrenceInterval}`
    groups.set(key, [...(groups.get(key) ?? []), line])
  }
  return [...groups.values()]
}

/**
 * Creates what a recurring purchase starts for the caller: one subscription
 * per interval (a monthly plan and a yearly add-on are two), grouped by
 * `cartId`. The first one carries the one-time order bumps, the coupon, the
 * `externalId` and the merchant's `new.sale` notice, so a cart converts once.
 * Each is its own purchase: a card refused on a later one leaves the earlier
 * ones as they are. The answer is the first one's, with every subscription
 * of the cart in `subscriptions`.
 */
export const createSubscriptionCheckout = Effect.fn("Subscriptions.createFromCheckout")(function*(
  order: CheckoutOrder,
  purchase: Extract<Purchase, { _tag: "Lines" }>,
  caller: { readonly account: Account; readonly master: Account },
  /** The checkout link or session it is bought through. */
  checkoutId: string | null = null
) {
  const groups = byInterval(purchase.lines)
  const oneTime = purchase.lines.filter((line) => line.price.recurrenceType === "ONE_TIME")
  if (groups.length === 1) return yield* createOneSubscription(order, purchase.lines, caller, checkoutId)
  const cartId = order.request.cartId ?? (yield* (yield* Ids).make(CartIds, { sandbox: caller.account.sandbox }))
  const results: Array<SubscriptionCheckoutResult> = []
  for (const [i, group] of groups.entries()) {
    const { couponCode, externalId, notifications, ...shared } = order.request
    const request: CheckoutRequest = i === 0
      ? { ...order.request, cartId }
      : { ...shared, cartId, notifications: notifications?.filter((kind) => kind !== "new.sale") }
    const part = { ...order, request, notifications: order.notifications?.filter((kind) => i === 0 || kind !== "new.sale") ?? null }
    results.push(yield* createOneSubscription(part, i === 0 ? [...group, ...oneTime] : group, caller, checkoutId))
  }
  const summary = results.map((r) => ({
    subscriptionId: r.subscriptionId,
    status: r.status,
    ...("chargeId" in r ? { chargeId: r.chargeId } : {}),
    ...("pix" in r && r.pix !== undefined ? { pix: r.pix } : {}),
    ...("boleto" in r && r.boleto !== undefined
      ? { boleto: { digitableLine: r.boleto.digitableLine, barCode: r.boleto.barCode, dueDate: r.boleto.dueDate } }
      : {})
  }))
  return { ...results[0]!, cartId, subscriptions: summary }
})

/**
 * Creates one subscription of `lines` (one interval, with any order bumps)
 * for the caller. Cycle 1 is charged at once unless it starts in a free period.
 */
const createOneSubscription = Effect.fnUntraced(function*(
  order: CheckoutOrder,
  lines: ReadonlyArray<PurchaseLine>,
  caller: { readonly account: Account; readonly master: Account },
  checkoutId: string | null
) {
  const terms = yield* subscriptionTerms(order, lines, caller.account.id)
  const { request, card } = yield* withReusableCard(order.request, caller.account.id)
  const ids = yield* Ids
  const subscriptionId = yield* ids.make(SubscriptionIds, { sandbox: caller.account.sandbox })
  const plan = yield* planFirstCycle({ order: { ...order, request }, terms, subscriptionId, card, checkoutId, caller })
  if (order.pixAutomatico && plan.fullCycleTotal < PIX_AUTOMATICO_MINIMUM) {
    return yield* invalid("items", "Pix Automático needs at least 4.99 per cycle, discounts taken")
  }
  const price = { amount: plan.firstInvoiceTotal, priceIds: lines.map((line) => line.price.id), couponId: terms.coupon?.couponId }
  const draft = yield* draftCheckout({ ...order, request }, price, caller)
  if (plan.free) {
    // The recurrence is registered with a first charge; a free start would need the recurrence-only journey.
    if (order.pixAutomatico) return yield* invalid("paymentMethod", "pix_automatico with a trial or an extra period is not offered yet")
    return yield* startFree(draft, plan)
  }
  const chargeDraft: CheckoutDraft = {
    ...draft,
    common: { ...draft.common, subscriptionId, cycleNumber: 1, description: request.description ?? plan.description }
  }
  const chargeOrder = { ...order, request: firstChargeRequest(request, plan.firstDueDate, terms.today) }
  const prepared = chargeOrder.paymentMethod === "pix"
    ? yield* preparePix(chargeOrder, chargeDraft)
    : chargeOrder.paymentMethod === "boleto"
    ? yield* prepareBoleto(chargeOrder, chargeDraft)
    : yield* prepareCard(chargeOrder, chargeDraft)
  const customerId = yield* reserveCheckout(chargeDraft, prepared.pending, prepared.notify, (charge) =>
    Effect.gen(function*() {
      const records = { customerId: charge.customerId!, charge, recurrencyId: "recurrencyId" in prepared ? prepared.recurrencyId : null }
      const { aggregate, accountNumber } = yield* recordSubscription(plan, records, caller.account)
      yield* (yield* Outbox).append(chargeCreated(aggregate, charge, accountNumber, plan.at))
    }))
  const result = yield* prepared.settle(customerId)
  return { ...result, subscriptionId } satisfies SubscriptionCheckoutResult
})

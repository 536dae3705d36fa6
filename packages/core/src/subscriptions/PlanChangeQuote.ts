/**
 * What a change of a subscription's items costs at this instant: the one
 * computation behind the prorata preview and the changes themselves, so a
 * preview always equals the charge (spec: Subscriptions, upgrade and
 * downgrade rules; `rules/Prorata.ts` decides the amounts).
 */
import { Clock, Effect, Option } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { checkedItemsTotal } from "../checkout/PriceCheckout.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import type { Price, Product } from "../domain/Product.ts"
import { type SubscriptionAggregate, type SubscriptionItem, SubscriptionNotEligible } from "../domain/Subscription.ts"
import { nextCycleOf } from "../rules/NextCycle.ts"
import { Products } from "../ports/Products.ts"
import { cycleDueDate } from "../rules/CycleSchedule.ts"
import { prorata, type ProrataResult } from "../rules/Prorata.ts"
import { billedItems, waitingItems } from "./SubscriptionItems.ts"
import { PLAN_CHANGE_STATUSES } from "../rules/SubscriptionStatuses.ts"
import type { PriceId } from "../domain/Ids.ts"

/** The change asked for: an item replaced (new price and/or quantity), added, or removed. */
export type ItemChange =
  | { readonly _tag: "Replace"; readonly item: SubscriptionItem; readonly priceId: string; readonly quantity: number }
  | { readonly _tag: "Add"; readonly priceId: string; readonly quantity: number }

/** A price of the catalog with its product. */
export interface CatalogPrice {
  readonly price: Price
  readonly product: Product
}

export interface PlanChangeQuote {
  readonly type: "UPGRADE" | "DOWNGRADE"
  readonly change: ItemChange
  /** The new price, when the change names one. */
  readonly target: CatalogPrice
  readonly prorata: ProrataResult
  /** The current cycle's number and the day the next one is due. */
  readonly cycleNumber: number
  readonly nextCycleDate: string
  readonly today: string
}

/** Items change only in the statuses of `PLAN_CHANGE_STATUSES`. */
export const requireChangeable = (aggregate: SubscriptionAggregate) => {
  const status = aggregate.subscription.status
  return PLAN_CHANGE_STATUSES.includes(status)
    ? Effect.void
    : Effect.fail(new SubscriptionNotEligible({
      message: `Somente assinaturas ${PLAN_CHANGE_STATUSES.join(" ou ")} podem mudar de plano (status ${status})`,
      details: { status }
    }))
}

/**
 * The active recurring price `priceId` of the caller's catalog, billed at
 * the subscription's interval; `notFound` builds the route's 404.
 */
export const catalogPrice = Effect.fn("Subscriptions.catalogPrice")(function*<E>(
  aggregate: SubscriptionAggregate,
  priceId: PriceId,
  notFound: (priceId: string) => E
) {
  const sub = aggregate.subscription
  const product = yield* (yield* Products).findByPrice(sub.accountId, priceId)
  const price = Option.isSome(product) ? product.value.prices.find((p) => p.id === priceId) : undefined
  if (Option.isNone(product) || price === undefined || !price.isActive || product.value.status !== "active") return yield* Effect.fail(notFound(priceId))
  if (price.recurrenceType !== sub.interval || price.recurrenceInterval !== sub.intervalCount) {
    return yield* invalid("priceId", `the price must bill ${sub.interval} every ${sub.intervalCount}, as the subscription does`)
  }
  return { price, product: product.value } satisfies CatalogPrice
})

/** A quantity of 1 to 999. */
export const checkQuantity = (quantity: number | undefined, fallback: number) => {
  const q = quantity ?? fallback
  return Number.isInteger(q) && q >= 1 && q <= 999 ? Effect.succeed(q) : Effect.fail(invalid("quantity", "quantity must be 1 to 999"))
}

/**
 * Refuses a change that collides with the subscription as it is: the item
 * replaced is no longer billed or already has a change waiting; the price is
 * already billed by another item, or already waiting to start. Checked when
 * quoting and again under the subscription's lock when the change is written.
 */
export const refuseConflicts = (aggregate: SubscriptionAggregate, change: ItemChange, target: CatalogPrice) => {
  const billed = billedItems(aggregate)
  const waiting = waitingItems(aggregate)
  if (change._tag === "Replace") {
    if (!billed.some((item) => item.id === change.item.id)) return Effect.fail(invalid("itemId", "the item is no longer billed"))
    if (waiting.some((item) => item.upgradedFromItemId === change.item.id)) return Effect.fail(invalid("itemId", "a change of this item is already waiting"))
  }
  const others = change._tag === "Replace" ? billed.filter((item) => item.id !== change.item.id) : billed
  if (others.some((item) => item.priceId === target.price.id)) {
    return Effect.fail(invalid("priceId", "the price is already an item of the subscription; change its quantity instead"))
  }
  if (waiting.some((item) => item.priceId === target.price.id)) return Effect.fail(invalid("priceId", "the price is already waiting to start"))
  return Effect.void
}

/**
 * Quotes `change` today: the cycle's amount before and after, and the
 * prorata of the days left until the next cycle. A change that leaves the
 * amount as it is, or that would make a price billed twice, is refused.
 */
export const quotePlanChange = Effect.fn("Subscriptions.quotePlanChange")(function*(
  aggregate: SubscriptionAggregate,
  change: ItemChange,
  target: CatalogPrice
) {
  yield* requireChangeable(aggregate)
  const sub = aggregate.subscription
  const current = aggregate.cycles.find((c) => c.cycleNumber === sub.currentCycleNumber)
  const next = nextCycleOf(aggregate)
  if (current === undefined || next === null) {
    return yield* new SubscriptionNotEligible({ message: "A assinatura não tem próximo ciclo", details: { status: sub.status } })
  }
  yield* refuseConflicts(aggregate, change, target)
  if (change._tag === "Replace" && change.item.priceId === target.price.id && change.item.quantity === change.quantity) {
    return yield* invalid("priceId", "nothing changes")
  }
  const billed = billedItems(aggregate)
  const others = change._tag === "Replace" ? billed.filter((item) => item.id !== change.item.id) : billed
  const currentAmount = yield* checkedItemsTotal(billed)
  const newAmount = yield* checkedItemsTotal([...others, { unitAmount: target.price.amount, quantity: change.quantity }])
  if (newAmount === currentAmount) return yield* invalid("priceId", "the new items cost what the current ones do; nothing to charge or schedule")
  const today = saoPauloDate(yield* Clock.currentTimeMillis)
  // The window is a whole period ending on the next due date: the amounts are a whole cycle's, even
  // when the current cycle is a shorter first one billed by prorata.
  const cycleStart = cycleDueDate(next.dueDate, { recurrenceType: sub.interval, recurrenceInterval: sub.intervalCount }, 0, sub.billingDay)
  const result = prorata({ cycleStart, nextCycleDate: next.dueDate, changeDate: today, currentAmount, newAmount })
  return {
    type: result.kind,
    change,
    target,
    prorata: result,
    cycleNumber: current.cycleNumber,
    nextCycleDate: next.dueDate,
    today
  } satisfies PlanChangeQuote
})

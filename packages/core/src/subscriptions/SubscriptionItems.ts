/**
 * Which items a subscription bills, now and from its next cycle, and what
 * its scheduled cycles will bill once items change. A replacement waiting
 * for its prorata payment (`PENDING_UPGRADE`) bills nothing yet; one
 * scheduled for the next cycle (a downgrade: `PENDING`, naming the item it
 * replaces) takes that item's place from then on.
 */
import { Effect } from "effect"
import type { BillingCycle, InvoiceLine, BillableSubscription, SubscriptionItem } from "../domain/Subscription.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { adjustmentLine, cycleInvoice } from "../rules/CycleInvoice.ts"
import { SCHEDULED_CYCLE_STATUSES } from "../rules/CycleTransitions.ts"
import { BILLED_ITEM_STATUSES, isScheduledReplacement, ItemTransitions, nextItemStatus } from "../rules/ItemTransitions.ts"
import { lineTotal } from "../rules/Items.ts"

/** The recurring items billed in the current cycle. */
export const billedItems = (aggregate: BillableSubscription): ReadonlyArray<SubscriptionItem> =>
  aggregate.items.filter((item) => item.type === "RECURRING" && BILLED_ITEM_STATUSES.includes(item.status) && !isScheduledReplacement(item))

/** Items waiting to start: an upgrade or add-on waiting for its payment, a downgrade waiting for the next cycle. */
export const waitingItems = (aggregate: BillableSubscription): ReadonlyArray<SubscriptionItem> =>
  aggregate.items.filter((item) => nextItemStatus(item, "upgradePaid") !== undefined || isScheduledReplacement(item))

/** The recurring items the next cycle will bill: the billed ones, with scheduled replacements in their place. */
export const nextCycleItems = (aggregate: BillableSubscription): ReadonlyArray<SubscriptionItem> => {
  const scheduled = aggregate.items.filter(isScheduledReplacement)
  const replaced = new Set(scheduled.map((item) => item.upgradedFromItemId))
  return [...billedItems(aggregate).filter((item) => !replaced.has(item.id)), ...scheduled]
}

/** The invoice line of a recurring item. */
export const itemLine = (item: SubscriptionItem): InvoiceLine => ({
  name: item.name,
  productName: item.productName,
  planName: item.name,
  type: "RECURRING",
  origin: item.origin,
  unitAmount: item.unitAmount,
  quantity: item.quantity,
  netAmount: lineTotal(item),
  priceId: item.priceId,
  productId: item.productId
})

/** The lines a not yet issued cycle will bill: the next cycle's items and what it carries. */
export const scheduledLines = (aggregate: BillableSubscription, cycle: BillingCycle): ReadonlyArray<InvoiceLine> => {
  const lines = nextCycleItems(aggregate).map(itemLine)
  const carried = adjustmentLine(cycle.adjustment, lines.reduce((sum, line) => sum + line.netAmount, 0))
  return carried === null ? lines : [...lines, carried]
}

/** Sets what every not yet issued cycle will bill with the items the next cycle bills. */
export const repriceNextCycle = Effect.fn("Subscriptions.repriceNextCycle")(function*(aggregate: BillableSubscription, at: Date) {
  const sub = aggregate.subscription
  const subscriptions = yield* Subscriptions
  for (const cycle of aggregate.cycles) {
    if (!SCHEDULED_CYCLE_STATUSES.includes(cycle.status)) continue
    const lines = scheduledLines(aggregate, cycle)
    const invoice = cycleInvoice({ cycle: cycle.cycleNumber, paymentMethod: cycle.paymentMethod, lines, discounts: sub.discounts, coupon: sub.coupon })
    yield* subscriptions.updateScheduledCycles({ subscriptionId: sub.id, cycleNumber: cycle.cycleNumber }, { amount: invoice.total, discount: invoice.discount }, at)
  }
})

/**
 * The subscription once the downgrades scheduled for its next cycle took
 * over (what `ItemMoves.takeOver` writes): each replacement `ACTIVE`, the
 * item it replaces `CANCELED`, the main plan following its replacement.
 */
export const withScheduledReplacements = <A extends BillableSubscription>(aggregate: A): A => {
  const scheduled = aggregate.items.filter(isScheduledReplacement)
  if (scheduled.length === 0) return aggregate
  const replacedBy = new Map(scheduled.map((item) => [item.upgradedFromItemId!, item.id]))
  const started = new Set(scheduled.map((item) => item.id))
  const items = aggregate.items.map((item) =>
    started.has(item.id)
      ? { ...item, status: ItemTransitions.downgradeStarted.to }
      : replacedBy.has(item.id)
      ? { ...item, status: ItemTransitions.replaced.to }
      : item
  )
  const primary = replacedBy.get(aggregate.subscription.primaryItemId) ?? aggregate.subscription.primaryItemId
  return { ...aggregate, items, subscription: { ...aggregate.subscription, primaryItemId: primary } }
}

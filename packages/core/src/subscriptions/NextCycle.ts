/**
 * What a cycle bills when the billing run issues it, and the cycle that
 * follows it. A subscription always has its next cycle as a `SCHEDULED` row:
 * issuing cycle `n` adds cycle `n + 1`, priced with the items it will bill.
 */
import type { BillingCycle, BillableSubscription } from "../domain/Subscription.ts"
import { cents } from "../money/Money.ts"
import { type CycleInvoiceAmounts, cycleInvoice } from "../rules/CycleInvoice.ts"
import { anchoredDueDate, issueDate } from "../rules/CycleSchedule.ts"
import { itemLine, nextCycleItems, scheduledLines } from "./SubscriptionItems.ts"

/** The invoice of `cycle` as issued now: the items it bills (scheduled downgrades in force), what it carries, discounts and coupon. */
export const issuedAmounts = (aggregate: BillableSubscription, cycle: BillingCycle): CycleInvoiceAmounts => {
  const sub = aggregate.subscription
  return cycleInvoice({
    cycle: cycle.cycleNumber,
    paymentMethod: cycle.paymentMethod,
    lines: scheduledLines(aggregate, cycle),
    discounts: sub.discounts,
    coupon: sub.coupon
  })
}

/** What decides a new cycle; everything else starts empty (no credit, no attempts, no history). */
export type CycleTerms = Pick<
  BillingCycle,
  "subscriptionId" | "cycleNumber" | "status" | "amount" | "discount" | "periodStart" | "dueDate" | "issueDate" | "paymentMethod" | "chargeId" | "splitRules"
>

/** A new cycle record of `terms`, made at `at`. */
export const newCycle = (terms: CycleTerms, at: Date): BillingCycle => ({
  ...terms,
  credit: cents(0),
  adjustment: 0,
  rulerHistory: [],
  manualRetryCount: 0,
  lastManualRetryAt: null,
  pixAutoScheduledEndToEndId: null,
  attemptCount: 0,
  nextAttemptOn: null,
  overdueAt: null,
  heldReason: null,
  approvedAt: null,
  createdAt: at,
  updatedAt: at
})

/** Cycle `n` as scheduled at `at`: due on the subscription's calendar, priced with the items the next cycle bills. */
export const scheduledCycle = (aggregate: BillableSubscription, n: number, at: Date): BillingCycle => {
  const sub = aggregate.subscription
  const dueDate = anchoredDueDate(sub, n)
  const amounts = cycleInvoice({
    cycle: n,
    paymentMethod: sub.paymentMethod,
    lines: nextCycleItems(aggregate).map(itemLine),
    discounts: sub.discounts,
    coupon: sub.coupon
  })
  return newCycle({
    subscriptionId: sub.id,
    cycleNumber: n,
    status: "SCHEDULED",
    amount: amounts.total,
    discount: amounts.discount,
    periodStart: dueDate,
    dueDate,
    issueDate: issueDate(dueDate, sub.issueDaysBeforeDue),
    paymentMethod: sub.paymentMethod,
    chargeId: null,
    splitRules: sub.splitRules
  }, at)
}

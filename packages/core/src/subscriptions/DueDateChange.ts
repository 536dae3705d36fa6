/**
 * A new billing day (spec release notes: changing the due day generates a
 * prorata, recorded in the history). The next cycle moves to the new day;
 * the days it gains are billed on it by prorata, the days it loses credited
 * on it (`rules/Prorata.ts`, `dueDayChangeProrata`), and `dueDateChanges`
 * records the move. Monthly-based intervals only: a daily or weekly plan has
 * no day of the month.
 */
import { Clock, Effect } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { SubscriptionNotEligible } from "../domain/Subscription.ts"
import { nextCycleOf } from "../domain/SubscriptionViews.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { clampToMonth, cycleDueDate, cycleLength, issueDate } from "../rules/CycleSchedule.ts"
import { dueDayChangeProrata } from "../rules/Prorata.ts"
import { requireChangeable } from "./PlanChangeQuote.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { itemsAmount, nextCycleItems, repriceNextCycle } from "./SubscriptionItems.ts"

/** The next due date on `day`: in the month the next cycle is due, or a period later when that is not after today. */
const movedDueDate = (due: string, day: number, today: string, recurrence: Parameters<typeof cycleDueDate>[1]) => {
  const sameMonth = clampToMonth(Number(due.slice(0, 4)), Number(due.slice(5, 7)) - 1, day)
  return sameMonth > today ? sameMonth : cycleDueDate(sameMonth, recurrence, 2, day)
}

export const changeBillingDay = Effect.fn("Subscriptions.changeBillingDay")(function*(subscriptionId: string, billingDay: number) {
  if (!Number.isInteger(billingDay) || billingDay < 1 || billingDay > 31) return yield* invalid("billingDay", "billingDay must be an integer from 1 to 31")
  const aggregate = yield* findOwnSubscription(subscriptionId)
  yield* requireChangeable(aggregate)
  const sub = aggregate.subscription
  if (sub.interval === "DAILY" || sub.interval === "WEEKLY") return yield* invalid("billingDay", `a ${sub.interval} subscription has no billing day`)
  if (billingDay === sub.billingDay) return yield* invalid("billingDay", "the subscription already bills on that day")
  const next = nextCycleOf(aggregate)
  if (next === null || next.status !== "SCHEDULED") {
    return yield* new SubscriptionNotEligible({ message: "O próximo ciclo já foi emitido", details: { status: sub.status } })
  }
  const now = yield* Clock.currentTimeMillis
  const at = new Date(now)
  const recurrence = { recurrenceType: sub.interval, recurrenceInterval: sub.intervalCount }
  const newDueDate = movedDueDate(next.dueDate, billingDay, saoPauloDate(now), recurrence)
  const previous = cycleDueDate(next.dueDate, recurrence, 0, sub.billingDay)
  const prorataAmount = dueDayChangeProrata({
    amount: itemsAmount(nextCycleItems(aggregate)),
    cycleDays: cycleLength(previous, next.dueDate),
    currentNextDate: next.dueDate,
    newNextDate: newDueDate
  })
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const subscriptions = yield* Subscriptions
    yield* subscriptions.lock(sub.id)
    yield* subscriptions.reschedule(
      sub.id,
      next.cycleNumber,
      { dueDate: newDueDate, issueDate: issueDate(newDueDate, sub.issueDaysBeforeDue), adjustment: prorataAmount },
      { billingDay, anchorDate: newDueDate, anchorCycle: next.cycleNumber },
      at
    )
    yield* subscriptions.appendChange(sub.id, {
      kind: "DUE_DATE",
      fromDay: sub.billingDay,
      toDay: billingDay,
      previousDueDate: next.dueDate,
      newDueDate,
      prorataAmount,
      at
    })
    yield* repriceNextCycle(yield* findOwnSubscription(sub.id), at)
  }))
  const after = yield* findOwnSubscription(sub.id)
  const moved = after.cycles.find((c) => c.cycleNumber === next.cycleNumber)!
  return {
    success: true as const,
    subscriptionId: sub.id,
    billingDay,
    previousDueDate: next.dueDate,
    nextCycleChargeDate: newDueDate,
    prorataAmount,
    nextCycleAmount: moved.amount
  }
})

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
import { daysBetween } from "../brazil/CalendarDate.ts"
import { checkedItemsTotal } from "../checkout/PriceCheckout.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { type SubscriptionAggregate, SubscriptionNotEligible } from "../domain/Subscription.ts"
import { nextCycleOf } from "../rules/NextCycle.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { clampToMonth, cycleDueDate, issueDate } from "../rules/CycleSchedule.ts"
import { dueDayChangeProrata } from "../rules/Prorata.ts"
import { requireChangeable } from "./PlanChangeQuote.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { nextCycleItems, repriceNextCycle } from "./SubscriptionItems.ts"
import { SubscriptionId } from "../domain/Ids.ts"

/** The next due date on `day`: in the month the next cycle is due, or a period later when that is not after today. */
const movedDueDate = (due: string, day: number, today: string, recurrence: Parameters<typeof cycleDueDate>[1]) => {
  const sameMonth = clampToMonth(Number(due.slice(0, 4)), Number(due.slice(5, 7)) - 1, day)
  return sameMonth > today ? sameMonth : cycleDueDate(sameMonth, recurrence, 2, day)
}

/** The move of the next cycle to `billingDay` for `aggregate` as it is now: its new date and the prorata it carries. */
const planMove = Effect.fnUntraced(function*(aggregate: SubscriptionAggregate, billingDay: number, today: string) {
  const sub = aggregate.subscription
  if (sub.interval === "DAILY" || sub.interval === "WEEKLY") return yield* invalid("billingDay", `a ${sub.interval} subscription has no billing day`)
  if (billingDay === sub.billingDay) return yield* invalid("billingDay", "the subscription already bills on that day")
  const next = nextCycleOf(aggregate)
  if (next === null || next.cycleNumber !== sub.currentCycleNumber + 1) {
    return yield* new SubscriptionNotEligible({ message: "A assinatura não tem um próximo ciclo a mover", details: { status: sub.status } })
  }
  const recurrence = { recurrenceType: sub.interval, recurrenceInterval: sub.intervalCount }
  const newDueDate = movedDueDate(next.dueDate, billingDay, today, recurrence)
  const previous = cycleDueDate(next.dueDate, recurrence, 0, sub.billingDay)
  const prorataAmount = dueDayChangeProrata({
    amount: yield* checkedItemsTotal(nextCycleItems(aggregate)),
    cycleDays: daysBetween(previous, next.dueDate),
    currentNextDate: next.dueDate,
    newNextDate: newDueDate
  })
  return { next, newDueDate, prorataAmount }
})

export const changeBillingDay = Effect.fn("Subscriptions.changeBillingDay")(function*(subscriptionId: SubscriptionId, billingDay: number) {
  if (!Number.isInteger(billingDay) || billingDay < 1 || billingDay > 31) return yield* invalid("billingDay", "billingDay must be an integer from 1 to 31")
  const aggregate = yield* findOwnSubscription(subscriptionId)
  yield* requireChangeable(aggregate)
  const sub = aggregate.subscription
  const now = yield* Clock.currentTimeMillis
  const at = new Date(now)
  const today = saoPauloDate(now)
  yield* planMove(aggregate, billingDay, today)
  // Planned again under the lock, on the subscription as it is then: two moves at once apply one after the other.
  const move = yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const subscriptions = yield* Subscriptions
    yield* subscriptions.lock(sub.id)
    const current = yield* findOwnSubscription(sub.id)
    const move = yield* planMove(current, billingDay, today)
    // Its period starts on the new due date; the prorata adds to what it carries.
    const rescheduled = yield* subscriptions.updateScheduledCycles({ subscriptionId: sub.id, cycleNumber: move.next.cycleNumber }, {
      dueDate: move.newDueDate,
      periodStart: move.newDueDate,
      issueDate: issueDate(move.newDueDate, sub.issueDaysBeforeDue),
      adjustment: move.next.adjustment + move.prorataAmount
    }, at)
    if (rescheduled.length === 0) return yield* new SubscriptionNotEligible({ message: "O próximo ciclo já foi emitido", details: null })
    yield* subscriptions.update(sub.id, { billingDay, anchorDate: move.newDueDate, anchorCycle: move.next.cycleNumber }, at)
    yield* subscriptions.appendChange(sub.id, {
      kind: "DUE_DATE",
      fromDay: current.subscription.billingDay,
      toDay: billingDay,
      previousDueDate: move.next.dueDate,
      newDueDate: move.newDueDate,
      prorataAmount: move.prorataAmount,
      at
    })
    yield* repriceNextCycle(yield* findOwnSubscription(sub.id), at)
    return move
  }))
  const after = yield* findOwnSubscription(sub.id)
  const moved = after.cycles.find((c) => c.cycleNumber === move.next.cycleNumber)!
  return {
    success: true as const,
    subscriptionId: sub.id,
    billingDay,
    previousDueDate: move.next.dueDate,
    nextCycleChargeDate: move.newDueDate,
    prorataAmount: move.prorataAmount,
    nextCycleAmount: moved.amount
  }
})

/**
 * What the settlement of a charge means for the subscription it bills. The
 * places that confirm a payment (the card's authorization, the bank's or the
 * sandbox's Pix and boleto confirmation) call these inside their own
 * transaction, so the charge, its cycle, its invoice, the subscription and
 * the events move together or not at all.
 */
import type { SubscriptionAggregate } from "../domain/Subscription.ts"
import { Effect, Option } from "effect"
import type { Charge } from "../domain/Charge.ts"
import { type ItemStatus, OPEN_CYCLE_STATUSES, OPEN_SUBSCRIPTION_STATUSES } from "../domain/Subscription.ts"
import { paymentSuccessBody } from "../events/ChargeEvents.ts"
import { paymentFailed, type SubscriptionEventName, subscriptionEvent, subscriptionPaymentSuccess } from "../events/SubscriptionEvents.ts"
import { Caller } from "../auth/Authenticate.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { ChargeTransitions } from "../rules/ChargeTransitions.ts"
import { SubscriptionTransitions } from "../rules/SubscriptionTransitions.ts"
import { afterRefusal } from "../rules/RetrySchedule.ts"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { repriceNextCycle } from "./SubscriptionItems.ts"

/**
 * The account number of `accountId` (the account key of subscription
 * events): the caller's own when a request acts for that account, which
 * every API route does, else read (the worker's confirmations).
 */
export const accountNumberOf = Effect.fn("Subscriptions.accountNumberOf")(function*(accountId: string) {
  const caller = yield* Effect.serviceOption(Caller)
  if (Option.isSome(caller) && caller.value.account.id === accountId) return caller.value.account.number
  const account = yield* (yield* Accounts).findById(accountId)
  return Option.match(account, { onNone: () => accountId, onSome: (a) => a.number })
})

/** Appends `event` with the subscription base of `aggregate` as it is now. */
export const appendSubscriptionEvent = Effect.fn("Subscriptions.appendEvent")(function*(
  event: SubscriptionEventName,
  aggregate: SubscriptionAggregate,
  at: Date
) {
  const accountNumber = yield* accountNumberOf(aggregate.subscription.accountId)
  yield* (yield* Outbox).append(subscriptionEvent(event, aggregate, accountNumber, at))
})

/**
 * Records a confirmed payment of `charge` at `at`: `payment.success`
 * (standalone, or with the subscription base for a subscription's charge),
 * and what the payment means for its subscription: a cycle paid, or a plan
 * change's prorata paid.
 */
export const recordChargePaid = Effect.fn("Subscriptions.recordChargePaid")(function*(charge: Charge, at: Date) {
  if (charge.subscriptionId === null) {
    return yield* (yield* Outbox).append({ accountId: charge.accountId, event: ChargeTransitions.paymentConfirmed.event, body: paymentSuccessBody(charge, at) })
  }
  if (charge.cycleNumber !== null) return yield* cyclePaid(charge, charge.subscriptionId, charge.cycleNumber, at)
  return yield* prorataPaid(charge, charge.subscriptionId, at)
})

/**
 * A cycle's charge paid: the cycle and its invoice `PAID` (and the order
 * bumps it carried `CHARGED`), then the subscription activated by its first
 * payment (`subscription.activated`, its items `ACTIVE`) or renewed by a
 * later one (`subscription.renewed`).
 */
const cyclePaid = Effect.fnUntraced(function*(charge: Charge, id: string, cycleNumber: number, at: Date) {
  const subscriptions = yield* Subscriptions
  const outbox = yield* Outbox
  yield* subscriptions.moveCycle(id, cycleNumber, { from: OPEN_CYCLE_STATUSES, to: "PAID", invoice: { status: "PAID", paidAt: at } }, at)
  yield* subscriptions.advanceCurrentCycle(id, cycleNumber, at)
  const before = yield* subscriptions.find(charge.accountId, id)
  // A Pix Automático subscription stays PENDING until the payer's bank authorizes the recurrence.
  const waitsForBank = Option.isSome(before) && before.value.subscription.pixRecurrenceStatus === "PENDING"
  const activated = waitsForBank ? Option.none() : yield* activate(id, at)
  // One-time items (order bumps) ride on the invoice just paid.
  yield* subscriptions.moveItems(id, { type: "ONE_TIME", from: ["PENDING"] }, "CHARGED", at)
  const renewed = Option.isNone(activated) && cycleNumber > 1
    ? yield* subscriptions.transition(id, SubscriptionTransitions.renewed, {}, at)
    : Option.none()
  const aggregate = yield* subscriptions.find(charge.accountId, id)
  if (Option.isNone(aggregate)) return
  const accountNumber = yield* accountNumberOf(charge.accountId)
  yield* outbox.append(subscriptionPaymentSuccess(aggregate.value, charge, accountNumber, at))
  if (Option.isSome(activated)) yield* outbox.append(subscriptionEvent(SubscriptionTransitions.activated.event, aggregate.value, accountNumber, at))
  if (Option.isSome(renewed)) yield* outbox.append(subscriptionEvent(SubscriptionTransitions.renewed.event, aggregate.value, accountNumber, at))
})

/** The first payment's move: `ACTIVE`, its recurring items with it. */
export const activate = Effect.fn("Subscriptions.activate")(function*(id: string, at: Date) {
  const subscriptions = yield* Subscriptions
  const activated = yield* subscriptions.transition(id, SubscriptionTransitions.activated, {}, at)
  if (Option.isSome(activated)) {
    // A downgrade scheduled meanwhile waits for its cycle; it is not activated with the plan.
    const from: ReadonlyArray<ItemStatus> = ["PENDING", "TRIALING", "AWAITING_PAYMENT"]
    yield* subscriptions.moveItems(id, { type: "RECURRING", from, excludeReplacements: true }, "ACTIVE", at)
  }
  return activated
})

/**
 * A plan change's prorata paid: the items it was waiting for become active
 * (the ones they replace end), its invoice is `PAID`, the next cycle is
 * repriced, and `subscription.upgraded` or `subscription.item_added` follows.
 */
const prorataPaid = Effect.fnUntraced(function*(charge: Charge, id: string, at: Date) {
  const subscriptions = yield* Subscriptions
  const outbox = yield* Outbox
  yield* subscriptions.lock(id)
  const before = yield* subscriptions.find(charge.accountId, id)
  // Paid after the subscription ended: the money is in (the invoice is paid), the change never starts.
  const ended = Option.isSome(before) && !OPEN_SUBSCRIPTION_STATUSES.includes(before.value.subscription.status)
  const activated = ended ? [] : yield* subscriptions.activatePaidItems(charge.id, at)
  if (ended) yield* subscriptions.failItemsOfCharge(charge.id, at)
  yield* subscriptions.settleInvoicesOfCharge(charge.id, "PAID", at)
  const aggregate = yield* subscriptions.find(charge.accountId, id)
  if (Option.isNone(aggregate)) return
  yield* repriceNextCycle(aggregate.value, at)
  const accountNumber = yield* accountNumberOf(charge.accountId)
  yield* outbox.append(subscriptionPaymentSuccess(aggregate.value, charge, accountNumber, at))
  const added = activated.some((item) => item.origin === "ADD_ON")
  if (activated.length > 0) yield* outbox.append(subscriptionEvent(added ? "subscription.item_added" : "subscription.upgraded", aggregate.value, accountNumber, at))
})

/**
 * Records a refused card on a subscription's charge (`payment.failed`, kept
 * in the cycle's `rulerHistory`). A cycle's first charge at checkout becomes
 * `FAILED` with its invoice `UNCOLLECTIBLE` (a refused first card schedules
 * no retry, spec Versioning 3); a billing run's attempt walks the retry
 * schedule (`rules/RetrySchedule.ts`); a manual retry leaves the schedule as
 * it was. A plan change's leaves the plan as it was, the items that waited
 * for it `FAILED`.
 */
export const recordChargeRefused = Effect.fn("Subscriptions.recordChargeRefused")(function*(charge: Charge, at: Date) {
  if (charge.subscriptionId === null) return
  const subscriptions = yield* Subscriptions
  yield* (yield* Outbox).append(paymentFailed(charge, charge.failureReason ?? "card_declined", at))
  if (charge.cycleNumber === null) {
    yield* subscriptions.failItemsOfCharge(charge.id, at)
    return yield* subscriptions.settleInvoicesOfCharge(charge.id, "UNCOLLECTIBLE", at)
  }
  const ref = { accountId: charge.accountId, subscriptionId: charge.subscriptionId, cycleNumber: charge.cycleNumber }
  const found = yield* subscriptions.find(ref.accountId, ref.subscriptionId)
  const cycle = Option.isSome(found) ? found.value.cycles.find((c) => c.cycleNumber === ref.cycleNumber) : undefined
  if (cycle === undefined || cycle.chargeId !== charge.id) return
  yield* subscriptions.appendRuler(ref, { kind: "payment.failed", channel: "webhook", sentAt: at.toISOString() }, at)
  if (cycle.attemptCount === 0) {
    yield* subscriptions.moveCycle(ref.subscriptionId, ref.cycleNumber, { from: OPEN_CYCLE_STATUSES, to: "FAILED", invoice: { status: "UNCOLLECTIBLE" } }, at)
  } else if (cycle.status === "PROCESSING") {
    const next = afterRefusal(cycle.attemptCount, saoPauloDate(at.getTime()))
    yield* subscriptions.moveCycle(ref.subscriptionId, ref.cycleNumber, { from: ["PROCESSING"], to: next.status, invoice: null, nextAttemptOn: next.nextAttemptOn }, at)
  }
})

/**
 * Records a subscription's charge that expired unpaid. A plan change's
 * prorata never starts (its items `FAILED`, its invoice `EXPIRED`). A cycle's
 * is `EXPIRED` with its invoice; when it was the first charge, the
 * subscription never started and expires with it (`subscription.expired`).
 */
export const recordChargeExpired = Effect.fn("Subscriptions.recordChargeExpired")(function*(charge: Charge, at: Date) {
  if (charge.subscriptionId === null) return
  const subscriptions = yield* Subscriptions
  if (charge.cycleNumber === null) {
    yield* subscriptions.failItemsOfCharge(charge.id, at)
    return yield* subscriptions.settleInvoicesOfCharge(charge.id, "EXPIRED", at)
  }
  const id = charge.subscriptionId
  const moved = yield* subscriptions.moveCycle(id, charge.cycleNumber, { from: ["PENDING", "AWAITING_PAYMENT"], to: "EXPIRED", invoice: { status: "EXPIRED" } }, at)
  if (!moved || charge.cycleNumber !== 1) return
  const expired = yield* subscriptions.transition(id, SubscriptionTransitions.expired, {}, at)
  if (Option.isNone(expired)) return
  yield* subscriptions.cancelOpenCycles(id, at)
  const aggregate = yield* subscriptions.find(charge.accountId, id)
  if (Option.isSome(aggregate)) yield* appendSubscriptionEvent(SubscriptionTransitions.expired.event, aggregate.value, at)
})

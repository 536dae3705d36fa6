/**
 * What the settlement of a charge means for the subscription it bills. The
 * places that confirm a payment (the card's authorization, the bank's or the
 * sandbox's Pix and boleto confirmation) call these inside their own
 * transaction, so the charge, its cycle, its invoice, the subscription and
 * the events move together or not at all.
 */
import { creditPayments } from "../ledger/CreditPayments.ts"
import type { BillingCycle, SubscriptionAggregate } from "../domain/Subscription.ts"
import { Effect, Option } from "effect"
import type { Charge } from "../domain/Charge.ts"
import { paymentSuccessBody } from "../events/ChargeEvents.ts"
import {
  paymentFailed,
  type SubscriptionEventEntry,
  type SubscriptionEventName,
  subscriptionEvent,
  subscriptionPaymentSuccess
} from "../events/SubscriptionEvents.ts"
import { Caller } from "../auth/Authenticate.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Outbox } from "../ports/Outbox.ts"
import { type CycleMove, Subscriptions } from "../ports/Subscriptions.ts"
import { ChargeTransitions } from "../rules/ChargeTransitions.ts"
import { CycleTransitions, nextCycleStatus } from "../rules/CycleTransitions.ts"
import { InvoiceTransitions } from "../rules/InvoiceTransitions.ts"
import { ItemTransitions } from "../rules/ItemTransitions.ts"
import { OPEN_SUBSCRIPTION_STATUSES } from "../rules/SubscriptionStatuses.ts"
import { SubscriptionTransitions } from "../rules/SubscriptionTransitions.ts"
import { afterRefusal } from "../rules/RetrySchedule.ts"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { repriceNextCycle } from "./SubscriptionItems.ts"
import { failItemsOfCharge, startPaidItems } from "./ItemMoves.ts"
import { type AccountId, SubscriptionId } from "../domain/Ids.ts"

/**
 * The account number of `accountId` (the account key of subscription
 * events): the caller's own when a request acts for that account, which
 * every API route does, else read (the worker's confirmations).
 */
export const accountNumberOf = Effect.fn("Subscriptions.accountNumberOf")(function*(accountId: AccountId) {
  const caller = yield* Effect.serviceOption(Caller)
  if (Option.isSome(caller) && caller.value.account.id === accountId) return caller.value.account.number
  const account = yield* (yield* Accounts).findById(accountId)
  return Option.match(account, { onNone: () => accountId, onSome: (a) => a.number })
})

/** The account numbers of `accountIds` (a batch's few accounts), each read once. */
export const accountNumbersOf = Effect.fn("Subscriptions.accountNumbersOf")(function*(accountIds: ReadonlyArray<AccountId>) {
  const ids = [...new Set(accountIds)]
  const numbers = yield* Effect.forEach(ids, accountNumberOf)
  return new Map(ids.map((id, i) => [id, numbers[i]!]))
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
 * Records a confirmed payment of `charge` at `at`: its credit in the
 * ledger, `payment.success`
 * (standalone, or with the subscription base for a subscription's charge),
 * and what the payment means for its subscription: a cycle paid, or a plan
 * change's prorata paid.
 */
export const recordChargePaid = Effect.fn("Subscriptions.recordChargePaid")(function*(charge: Charge, at: Date) {
  if (charge.subscriptionId !== null && charge.cycleNumber !== null) return yield* recordCyclesPaid([charge], at)
  if (charge.subscriptionId === null) {
    yield* (yield* Outbox).append({ accountId: charge.accountId, event: ChargeTransitions.paymentConfirmed.event, body: paymentSuccessBody(charge, at) })
  } else {
    yield* prorataPaid(charge, charge.subscriptionId, at)
  }
  // Last: the credit locks the merchant's balance, held until the commit that follows.
  yield* creditPayments([charge], at)
})

/** The cycle a charge pays, when it is a cycle's (not a plan change's prorata, not standalone). */
const cycleOf = (charge: Charge) =>
  charge.subscriptionId === null || charge.cycleNumber === null
    ? []
    : [{ accountId: charge.accountId, subscriptionId: charge.subscriptionId, cycleNumber: charge.cycleNumber }]

/**
 * Cycles' charges paid, set-based (one payment confirmed, or a billing run's
 * batch of cards): their credits in the ledger, the cycles and their invoices `PAID` and current, the
 * order bumps they carried `CHARGED`, then each subscription activated by
 * its first payment (`subscription.activated`, its recurring items
 * `ACTIVE`; a Pix Automático one waits for the payer's bank) or renewed by a
 * later one (`subscription.renewed`), and `payment.success` with the
 * subscription base for every charge.
 */
export const recordCyclesPaid = Effect.fn("Subscriptions.recordCyclesPaid")(function*(charges: ReadonlyArray<Charge>, at: Date) {
  yield* recordCycleMoves(charges, at)
  // Last: the credits lock the merchants' balances, held until the commit that follows.
  yield* creditPayments(charges, at)
})

const recordCycleMoves = Effect.fnUntraced(function*(charges: ReadonlyArray<Charge>, at: Date) {
  const paid = charges.flatMap((charge) => cycleOf(charge).map((ref) => ({ charge, ref })))
  if (paid.length === 0) return
  const subscriptions = yield* Subscriptions
  const moved = yield* subscriptions.moveCycles(paid.map(({ ref }) => ({ ...ref, transition: CycleTransitions.paid })), at)
  // Only a cycle this payment settled moves its subscription on; a charge paid for a cycle settled already is still announced.
  yield* subscriptions.advanceCurrentCycles(moved, at)
  const ids = [...new Set(moved.map((ref) => ref.subscriptionId))]
  const activated = new Set(yield* subscriptions.transitionMany(ids, SubscriptionTransitions.activated, at, { unlessRecurrencePending: true }))
  yield* subscriptions.moveItems({ subscriptionIds: [...activated] }, ItemTransitions.activated, at)
  // One-time items (order bumps) ride on the invoice just paid.
  yield* subscriptions.moveItems({ subscriptionIds: ids }, ItemTransitions.charged, at)
  const renewable = [...new Set(moved.filter((ref) => ref.cycleNumber > 1 && !activated.has(ref.subscriptionId)).map((ref) => ref.subscriptionId))]
  const renewed = new Set(yield* subscriptions.transitionMany(renewable, SubscriptionTransitions.renewed, at))
  const after = new Map((yield* subscriptions.findBillable([...new Set(paid.map(({ ref }) => ref.subscriptionId))])).map((a) => [a.subscription.id, a]))
  const numbers = yield* accountNumbersOf(paid.map(({ ref }) => ref.accountId))
  const events: Array<SubscriptionEventEntry> = []
  const announced = new Set<string>()
  for (const { charge, ref } of paid) {
    const aggregate = after.get(ref.subscriptionId)
    if (aggregate === undefined) continue
    const accountNumber = numbers.get(ref.accountId)!
    events.push(subscriptionPaymentSuccess(aggregate, charge, accountNumber, at))
    if (announced.has(ref.subscriptionId)) continue
    announced.add(ref.subscriptionId)
    if (activated.has(ref.subscriptionId)) events.push(subscriptionEvent(SubscriptionTransitions.activated.event, aggregate, accountNumber, at))
    if (renewed.has(ref.subscriptionId)) events.push(subscriptionEvent(SubscriptionTransitions.renewed.event, aggregate, accountNumber, at))
  }
  yield* (yield* Outbox).appendMany(events)
})

/** The first payment's move: `ACTIVE`, its recurring items with it. */
export const activate = Effect.fn("Subscriptions.activate")(function*(id: SubscriptionId, at: Date) {
  const subscriptions = yield* Subscriptions
  const activated = yield* subscriptions.transition(id, SubscriptionTransitions.activated, {}, at)
  if (Option.isSome(activated)) yield* subscriptions.moveItems({ subscriptionIds: [id] }, ItemTransitions.activated, at)
  return activated
})

/**
 * A plan change's prorata paid: the items it was waiting for become active
 * (the ones they replace end), its invoice is `PAID`, the next cycle is
 * repriced, and `subscription.upgraded` or `subscription.item_added` follows.
 */
const prorataPaid = Effect.fnUntraced(function*(charge: Charge, id: SubscriptionId, at: Date) {
  const subscriptions = yield* Subscriptions
  const outbox = yield* Outbox
  yield* subscriptions.lock(id)
  const before = yield* subscriptions.find(charge.accountId, id)
  // Paid after the subscription ended: the money is in (the invoice is paid), the change never starts.
  const ended = Option.isSome(before) && !OPEN_SUBSCRIPTION_STATUSES.includes(before.value.subscription.status)
  const activated = ended ? [] : yield* startPaidItems(charge.id, at)
  if (ended) yield* failItemsOfCharge(charge.id, at)
  yield* subscriptions.moveInvoices({ chargeId: charge.id }, InvoiceTransitions.paid, at)
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
  if (charge.cycleNumber !== null) return yield* recordCyclesRefused([charge], at)
  const subscriptions = yield* Subscriptions
  yield* (yield* Outbox).append(paymentFailed(charge, charge.failureReason ?? "card_declined", at))
  yield* failItemsOfCharge(charge.id, at)
  yield* subscriptions.moveInvoices({ chargeId: charge.id }, InvoiceTransitions.uncollectible, at)
})

/** The move of a billing run's card attempt that got no approval (`PROCESSING`): on to its retry schedule. */
const toNextAttempt = (cycle: BillingCycle, at: Date): CycleMove => {
  const next = afterRefusal(cycle.attemptCount, saoPauloDate(at.getTime()))
  const transition = next.status === CycleTransitions.lastAttemptRefused.to ? CycleTransitions.lastAttemptRefused : CycleTransitions.attemptRefused
  return { subscriptionId: cycle.subscriptionId, cycleNumber: cycle.cycleNumber, transition, nextAttemptOn: next.nextAttemptOn }
}

/**
 * Cycles' card charges refused, set-based (one authorization, or a billing
 * run's batch): `payment.failed` for each, kept in its cycle's
 * `rulerHistory`, and the cycle moved as `recordChargeRefused` says.
 */
export const recordCyclesRefused = Effect.fn("Subscriptions.recordCyclesRefused")(function*(charges: ReadonlyArray<Charge>, at: Date) {
  const refused = charges.flatMap((charge) => cycleOf(charge).map((ref) => ({ charge, ref })))
  if (refused.length === 0) return
  const subscriptions = yield* Subscriptions
  yield* (yield* Outbox).appendMany(refused.map(({ charge }) => paymentFailed(charge, charge.failureReason ?? "card_declined", at)))
  const cycles = yield* subscriptions.findCycles(refused.map(({ ref }) => ref))
  const rulers: Array<Parameters<typeof subscriptions.appendRulers>[0][number]> = []
  const moves: Array<CycleMove> = []
  for (const { charge, ref } of refused) {
    const cycle = cycles.find((c) => c.subscriptionId === ref.subscriptionId && c.cycleNumber === ref.cycleNumber)
    // A refusal of a charge the cycle moved on from (a manual retry meanwhile) changes nothing.
    if (cycle === undefined || cycle.chargeId !== charge.id) continue
    rulers.push({ ref, entry: { kind: "payment.failed", channel: "webhook", sentAt: at.toISOString() } })
    if (cycle.attemptCount === 0) {
      moves.push({ ...ref, transition: CycleTransitions.firstCardRefused })
    } else if (nextCycleStatus(cycle.status, "attemptRefused") !== undefined) {
      moves.push(toNextAttempt(cycle, at))
    }
  }
  yield* subscriptions.appendRulers(rulers, at)
  yield* subscriptions.moveCycles(moves, at)
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
    yield* failItemsOfCharge(charge.id, at)
    return yield* subscriptions.moveInvoices({ chargeId: charge.id }, InvoiceTransitions.expired, at)
  }
  const id = charge.subscriptionId
  const [cycle] = yield* subscriptions.findCycles([{ subscriptionId: id, cycleNumber: charge.cycleNumber }])
  if (cycle?.chargeId !== charge.id) return
  if (nextCycleStatus(cycle.status, "attemptRefused") !== undefined && cycle.attemptCount > 0) {
    // A card attempt never answered within its window: it counts as refused and the schedule goes on (the
    // acquirer's reports settle a capture that was never answered).
    yield* subscriptions.moveCycles([toNextAttempt(cycle, at)], at)
    return
  }
  const moved = yield* subscriptions.moveCycle(id, charge.cycleNumber, { transition: CycleTransitions.expired }, at)
  if (!moved || charge.cycleNumber !== 1) return
  const expired = yield* subscriptions.transition(id, SubscriptionTransitions.expired, {}, at)
  if (Option.isNone(expired)) return
  yield* subscriptions.moveCyclesOf(id, CycleTransitions.canceled, at)
  const aggregate = yield* subscriptions.find(charge.accountId, id)
  if (Option.isSome(aggregate)) yield* appendSubscriptionEvent(SubscriptionTransitions.expired.event, aggregate.value, at)
})

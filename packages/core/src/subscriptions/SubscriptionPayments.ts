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
import { OPEN_CYCLE_STATUSES } from "../domain/Subscription.ts"
import { paymentSuccessBody } from "../events/ChargeEvents.ts"
import { type SubscriptionEventName, subscriptionEvent, subscriptionPaymentSuccess } from "../events/SubscriptionEvents.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { ChargeTransitions } from "../rules/ChargeTransitions.ts"
import { SubscriptionTransitions } from "../rules/SubscriptionTransitions.ts"

/** The account number of `accountId` (the account key of subscription events). */
export const accountNumberOf = Effect.fn("Subscriptions.accountNumberOf")(function*(accountId: string) {
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
 * (standalone, or with the subscription base for a subscription's charge);
 * for a cycle's charge, the cycle and its invoice `PAID` (and the order
 * bumps it carried `CHARGED`), then the
 * subscription activated by its first payment (`subscription.activated`, its
 * items `ACTIVE`) or renewed by a later one (`subscription.renewed`).
 */
export const recordChargePaid = Effect.fn("Subscriptions.recordChargePaid")(function*(charge: Charge, at: Date) {
  const outbox = yield* Outbox
  if (charge.subscriptionId === null) {
    return yield* outbox.append({ accountId: charge.accountId, event: ChargeTransitions.paymentConfirmed.event, body: paymentSuccessBody(charge, at) })
  }
  const subscriptions = yield* Subscriptions
  const id = charge.subscriptionId
  if (charge.cycleNumber !== null) {
    yield* subscriptions.moveCycle(id, charge.cycleNumber, { from: OPEN_CYCLE_STATUSES, to: "PAID", invoice: { status: "PAID", paidAt: at } }, at)
  }
  const activated = yield* subscriptions.transition(id, SubscriptionTransitions.activated, {}, at)
  if (Option.isSome(activated)) yield* subscriptions.moveItems(id, { type: "RECURRING", from: ["PENDING", "TRIALING", "AWAITING_PAYMENT"] }, "ACTIVE", at)
  // One-time items (order bumps) ride on the invoice just paid.
  if (charge.cycleNumber !== null) yield* subscriptions.moveItems(id, { type: "ONE_TIME", from: ["PENDING"] }, "CHARGED", at)
  const renewed = Option.isNone(activated) && charge.cycleNumber !== null && charge.cycleNumber > 1
    ? yield* subscriptions.transition(id, SubscriptionTransitions.renewed, {}, at)
    : Option.none()
  const aggregate = yield* subscriptions.find(charge.accountId, id)
  if (Option.isNone(aggregate)) return
  const accountNumber = yield* accountNumberOf(charge.accountId)
  yield* outbox.append(subscriptionPaymentSuccess(aggregate.value, charge, accountNumber, at))
  if (Option.isSome(activated)) yield* outbox.append(subscriptionEvent(SubscriptionTransitions.activated.event, aggregate.value, accountNumber, at))
  if (Option.isSome(renewed)) yield* outbox.append(subscriptionEvent(SubscriptionTransitions.renewed.event, aggregate.value, accountNumber, at))
})

/**
 * Records a refused card on a subscription's cycle: the cycle `FAILED`, its
 * invoice `UNCOLLECTIBLE`. The subscription keeps its status; a refused first
 * card schedules no retry (spec, Versioning 3).
 */
export const recordChargeRefused = Effect.fn("Subscriptions.recordChargeRefused")(function*(charge: Charge, at: Date) {
  if (charge.subscriptionId === null || charge.cycleNumber === null) return
  yield* (yield* Subscriptions).moveCycle(
    charge.subscriptionId,
    charge.cycleNumber,
    { from: OPEN_CYCLE_STATUSES, to: "FAILED", invoice: { status: "UNCOLLECTIBLE" } },
    at
  )
})

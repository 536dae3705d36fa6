/**
 * `DELETE /v1/subscriptions/{id}` (optional `reason`, `cancelAtPeriodEnd`)
 * and the archive: a subscription canceled now (`CANCELED`, its open cycles,
 * invoices and charges canceled, `subscription.canceled`) or at the end of
 * its period (`cancelAtPeriodEnd`, `subscription.cancel_scheduled`; the
 * billing run cancels it when the period ends). A subscription whose end is
 * scheduled keeps it: a cancel answers the schedule again, writing nothing.
 * A cancel of a canceled one answers 400 `SUBSCRIPTION_ALREADY_CANCELED`.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { SubscriptionAlreadyCanceled, SubscriptionNotEligible, SubscriptionStatus } from "../domain/Subscription.ts"
import { Description, optional } from "../domain/Values.ts"
import { Instant } from "../domain/Wire.ts"
import { Charges } from "../ports/Charges.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { CycleTransitions } from "../rules/CycleTransitions.ts"
import { InvoiceTransitions } from "../rules/InvoiceTransitions.ts"
import { ItemTransitions } from "../rules/ItemTransitions.ts"
import { nextCycleOf } from "../rules/NextCycle.ts"
import { nextSubscriptionStatus, SubscriptionTransitions } from "../rules/SubscriptionTransitions.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { appendSubscriptionEvent } from "./SubscriptionPayments.ts"
import { SubscriptionId } from "../domain/Ids.ts"

/** Body of `DELETE /v1/subscriptions/{id}` (optional): why, and whether to wait for the period's end. */
export const CancelSubscriptionInput = Schema.Struct({
  reason: optional(Description),
  /** Cancel when the current period ends instead of now. */
  cancelAtPeriodEnd: optional(Schema.Boolean)
}).annotate({ identifier: "CancelSubscriptionInput" })
export type CancelInput = typeof CancelSubscriptionInput.Type

/** The answer of a cancel: `canceledCycles` counts the open cycles it canceled. */
export const CancelSubscriptionResponse = Schema.Struct({
  success: Schema.Literal(true),
  message: Schema.String,
  subscriptionId: Schema.String,
  status: SubscriptionStatus,
  cancelAtPeriodEnd: Schema.Boolean,
  effectiveAt: Schema.NullOr(Schema.String),
  canceledAt: Schema.NullOr(Instant),
  canceledCycles: Schema.Int
}).annotate({ identifier: "CancelSubscriptionResponse" })

const alreadyCanceled = (id: string) =>
  new SubscriptionAlreadyCanceled({ message: `A assinatura ${id} já está cancelada`, details: { subscriptionId: id } })

/**
 * Cancels now (call in a transaction); the numbers of the cycles it canceled.
 * The subscription's open charges are canceled first: a payment confirms its
 * charge before touching the subscription, so taking the charges in the
 * same order means a payment and a cancel wait for each other instead of
 * deadlocking, and a charge paid first stays paid.
 */
export const cancelNow = Effect.fn("Subscriptions.cancelNow")(function*(id: SubscriptionId, reason: string | null, at: Date) {
  const subscriptions = yield* Subscriptions
  const canceledCharges = yield* (yield* Charges).cancelOpenOfSubscription(id, at)
  const canceled = yield* subscriptions.transition(id, SubscriptionTransitions.canceled, { canceledAt: at, cancelReason: reason }, at)
  // Canceled (or finished) by someone else between the read and this update; the rollback keeps its charges.
  if (Option.isNone(canceled)) return yield* alreadyCanceled(id)
  const numbers = yield* subscriptions.moveCyclesOf(id, CycleTransitions.canceled, at)
  // A plan change's prorata, canceled unpaid: its invoice is canceled and its items never start.
  for (const charge of canceledCharges.filter((c) => c.cycleNumber === null)) {
    yield* subscriptions.moveInvoices({ chargeId: charge.id }, InvoiceTransitions.canceled, at)
  }
  yield* subscriptions.moveItems({ subscriptionIds: [id] }, ItemTransitions.canceled, at)
  yield* subscriptions.moveItems({ subscriptionIds: [id] }, ItemTransitions.oneTimeCanceled, at)
  const after = yield* subscriptions.find(canceled.value.accountId, id)
  if (Option.isSome(after)) yield* appendSubscriptionEvent(SubscriptionTransitions.canceled.event, after.value, at)
  return numbers
})

export const cancelSubscription = Effect.fn("Subscriptions.cancel")(function*(id: SubscriptionId, input: CancelInput = {}) {
  const aggregate = yield* findOwnSubscription(id)
  const sub = aggregate.subscription
  // Canceled, and maybe archived since: either way a repeat.
  if (sub.status === "CANCELED" || sub.canceledAt !== null) return yield* alreadyCanceled(id)
  if (nextSubscriptionStatus(sub.status, "canceled") === undefined) {
    return yield* new SubscriptionNotEligible({ message: `Uma assinatura ${sub.status} não pode ser cancelada`, details: { status: sub.status } })
  }
  const at = new Date(yield* Clock.currentTimeMillis)
  const reason = input.reason?.trim() || null
  const transactor = yield* Transactor
  // A scheduled end is what the detail's `cancellation` promised a cancel made now would do: only an
  // explicit `cancelAtPeriodEnd: false` cancels such a subscription at once.
  if (input.cancelAtPeriodEnd ?? sub.cancelAtPeriodEnd) {
    const effectiveAt = nextCycleOf(aggregate)?.dueDate ?? null
    if (!sub.cancelAtPeriodEnd) {
      yield* transactor.withTransaction(Effect.gen(function*() {
        const subscriptions = yield* Subscriptions
        if (!(yield* subscriptions.scheduleCancel(id, reason, at))) return yield* alreadyCanceled(id)
        const after = yield* subscriptions.find(sub.accountId, id)
        if (Option.isSome(after)) yield* appendSubscriptionEvent("subscription.cancel_scheduled", after.value, at)
      }))
    }
    return {
      success: true as const,
      message: "Cancelamento agendado para o fim do período",
      subscriptionId: id,
      status: sub.status,
      cancelAtPeriodEnd: true,
      effectiveAt,
      canceledAt: null,
      canceledCycles: 0
    }
  }
  const numbers = yield* transactor.withTransaction(cancelNow(id, reason, at))
  return {
    success: true as const,
    message: "Assinatura cancelada",
    subscriptionId: id,
    status: "CANCELED" as const,
    cancelAtPeriodEnd: false,
    effectiveAt: null,
    canceledAt: at,
    canceledCycles: numbers.length
  }
})

/** Hides the subscription from listings; its history stays readable by id. */
export const archiveSubscription = Effect.fn("Subscriptions.archive")(function*(id: SubscriptionId) {
  const aggregate = yield* findOwnSubscription(id)
  const at = new Date(yield* Clock.currentTimeMillis)
  const archived = yield* (yield* Transactor).withTransaction(
    Effect.flatMap(Subscriptions, (s) => s.transition(id, SubscriptionTransitions.archived, { archivedAt: at }, at))
  )
  if (Option.isNone(archived)) {
    const status = aggregate.subscription.status
    return yield* new SubscriptionNotEligible({ message: `Uma assinatura ${status} não pode ser arquivada`, details: { status } })
  }
  return { subscriptionId: id, status: archived.value.status, archivedAt: at }
})

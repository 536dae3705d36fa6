/**
 * `DELETE /v1/subscriptions/{id}` (optional `reason`, `cancelAtPeriodEnd`)
 * and the archive: a subscription canceled now (`CANCELED`, its open cycles,
 * invoices and charges canceled, `subscription.canceled`) or at the end of
 * its period (`cancelAtPeriodEnd`, `subscription.cancel_scheduled`; the
 * billing run cancels it when the period ends). A subscription whose end is
 * scheduled keeps it: a cancel answers the schedule again, writing nothing.
 * A cancel of a canceled one answers 400 `SUBSCRIPTION_ALREADY_CANCELED`.
 */
import { Clock, Data, Effect, Option, Schema } from "effect"
import { SubscriptionAlreadyCanceled, SubscriptionNotEligible, SubscriptionStatus } from "../domain/Subscription.ts"
import { Description, optional } from "../domain/Values.ts"
import { Instant } from "../domain/Wire.ts"
import { closeAtProvider, closesAtProvider, closingRefusal } from "../charges/ProviderClosing.ts"
import { Charges } from "../ports/Charges.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { nextChargeStatus } from "../rules/ChargeTransitions.ts"
import { CycleTransitions } from "../rules/CycleTransitions.ts"
import { InvoiceTransitions } from "../rules/InvoiceTransitions.ts"
import { ItemTransitions } from "../rules/ItemTransitions.ts"
import { nextCycleOf } from "../rules/NextCycle.ts"
import { nextSubscriptionStatus, SubscriptionTransitions } from "../rules/SubscriptionTransitions.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { appendSubscriptionEvent } from "./SubscriptionPayments.ts"
import type { AccountId, ChargeId, SubscriptionId } from "../domain/Ids.ts"

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
 * A charge of the subscription opened after its open charges were closed at
 * their providers and before the cancel's transaction (a cycle issued, a
 * retry): it would be canceled here while still payable there, so the
 * transaction rolls back and the cancel starts over.
 */
export class ChargeOpenedMeanwhile extends Data.TaggedError("ChargeOpenedMeanwhile")<{ readonly chargeId: ChargeId }> {}

/**
 * The subscription's open Pix and boletos taken off sale at their providers
 * (`closeAtProvider`), outside any transaction, before it is canceled; the
 * ids of those asked. One the provider says was paid is recorded on the way
 * (the cycle it paid is paid), and is no longer open when the cancel comes.
 */
const closeOpenCharges = Effect.fnUntraced(function*(accountId: AccountId, id: SubscriptionId) {
  const open = (yield* (yield* Charges).listBySubscription(accountId, id))
    .filter((charge) => closesAtProvider(charge) && nextChargeStatus(charge.status, "canceled") !== undefined)
  for (const charge of open) yield* closeAtProvider(charge).pipe(Effect.mapError(closingRefusal(charge)))
  return new Set<ChargeId>(open.map((charge) => charge.id))
})

/**
 * Cancels every open charge of the subscription (in the cancel's
 * transaction); fails with `ChargeOpenedMeanwhile` when one that needs its
 * provider's closing is not among those `closed` first.
 */
export const cancelOpenCharges = Effect.fnUntraced(function*(id: SubscriptionId, closed: ReadonlySet<ChargeId>, at: Date) {
  const canceled = yield* (yield* Charges).cancelOpenOfSubscription(id, at)
  const unclosed = canceled.find((charge) => closesAtProvider(charge) && !closed.has(charge.id))
  if (unclosed !== undefined) return yield* new ChargeOpenedMeanwhile({ chargeId: unclosed.id })
  return canceled
})

/**
 * Closes the subscription's open charges at their providers, then runs
 * `cancel` (given the ids closed) in a transaction; twice more when a
 * charge opened in between, which then dies: a subscription whose charges
 * open faster than they close is a defect, not a client's error.
 */
export const closingThenCanceling = <A, E, R>(
  accountId: AccountId,
  id: SubscriptionId,
  cancel: (closed: ReadonlySet<ChargeId>) => Effect.Effect<A, E | ChargeOpenedMeanwhile, R>
) =>
  Effect.gen(function*() {
    const closed = yield* closeOpenCharges(accountId, id)
    return yield* (yield* Transactor).withTransaction(cancel(closed))
  }).pipe(
    Effect.retry({ while: (error) => error instanceof ChargeOpenedMeanwhile, times: 2 }),
    Effect.catchTag("ChargeOpenedMeanwhile", (error) => Effect.die(error))
  )

/**
 * Cancels now (call in a transaction, after `closeOpenCharges`); the numbers
 * of the cycles it canceled. The subscription's open charges are canceled
 * first: a payment confirms its charge before touching the subscription, so
 * taking the charges in the same order means a payment and a cancel wait
 * for each other instead of deadlocking, and a charge paid first stays paid.
 */
export const cancelNow = Effect.fn("Subscriptions.cancelNow")(function*(id: SubscriptionId, reason: string | null, at: Date, closed: ReadonlySet<ChargeId>) {
  const subscriptions = yield* Subscriptions
  const canceledCharges = yield* cancelOpenCharges(id, closed, at)
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
  const numbers = yield* closingThenCanceling(sub.accountId, id, (closed) => cancelNow(id, reason, at, closed))
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

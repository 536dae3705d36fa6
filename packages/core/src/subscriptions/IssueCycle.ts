/**
 * The billing run's charges: a scheduled cycle issued (its invoice, its
 * charge, `charge.created`, the cycle after it scheduled) and a new card
 * attempt on an unpaid one. Each charge is a checkout's, made by
 * `prepareSubscriptionCharge` and recorded by `reserveCheckout`; what the
 * cycle records goes in the same transaction, behind the subscription's row
 * lock and a conditional move of the cycle, so a cycle claimed by two
 * workers (a lease that ran out under a slow one) is billed by one of them
 * and the other's transaction rolls back whole.
 */
import { Clock, Data, Effect, Option } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { type CheckoutDraft, type PreparedCharge, reserveCheckout } from "../checkout/ReserveCheckout.ts"
import { CardRefused, type Charge, paymentTypeOf } from "../domain/Charge.ts"
import type { BillingCycle, CycleStatus, Invoice, SubscriptionAggregate } from "../domain/Subscription.ts"
import { chargeCreated } from "../events/SubscriptionEvents.ts"
import { Ids } from "../ports/Ids.ts"
import { Outbox } from "../ports/Outbox.ts"
import { type CycleRef, Subscriptions } from "../ports/Subscriptions.ts"
import { issuedAmounts, scheduledCycle } from "./NextCycle.ts"
import { prepareSubscriptionCharge } from "./SubscriptionCharges.ts"
import { accountNumberOf } from "./SubscriptionPayments.ts"

/** The cycle moved on between the claim and the write (issued by another worker, canceled, repriced): nothing is recorded. */
class CycleMovedOn extends Data.TaggedError("CycleMovedOn") {}

/** What one issue or attempt did: its charge and, for a card, the acquirer's answer (`declinedCode` null when it did not answer). */
export type CycleOutcome =
  | { readonly _tag: "Issued" | "Paid"; readonly chargeId: string }
  | { readonly _tag: "Refused"; readonly chargeId: string; readonly declinedCode: string | null }

const findCycle = Effect.fnUntraced(function*(ref: CycleRef) {
  const found = yield* (yield* Subscriptions).find(ref.accountId, ref.subscriptionId)
  if (Option.isNone(found)) return Option.none<{ aggregate: SubscriptionAggregate; cycle: BillingCycle }>()
  const cycle = found.value.cycles.find((c) => c.cycleNumber === ref.cycleNumber)
  return cycle === undefined ? Option.none() : Option.some({ aggregate: found.value, cycle })
})

const descriptionOf = (aggregate: SubscriptionAggregate, n: number) => {
  const primary = aggregate.items.find((item) => item.id === aggregate.subscription.primaryItemId)
  return `${primary?.name ?? "Assinatura"} - ciclo ${n}`
}

/**
 * Runs the charge's own settlement: the card's authorization (whose answer,
 * approved or refused, is recorded by its own transaction and by
 * `SubscriptionPayments`), nothing more for Pix and boleto.
 */
const settle = <E, R>(draft: CheckoutDraft, prepared: PreparedCharge<E, R>, customerId: string) =>
  Effect.suspend(() => prepared.settle(customerId)).pipe(
    Effect.map((result): CycleOutcome => ({ _tag: result.status === "paid" ? "Paid" : "Issued", chargeId: draft.common.id })),
    // A refusal or an acquirer that did not answer is recorded on the charge and the cycle already.
    Effect.catch((error): Effect.Effect<CycleOutcome> =>
      Effect.succeed({ _tag: "Refused", chargeId: draft.common.id, declinedCode: error instanceof CardRefused ? error.error : null })
    )
  )

/**
 * Issues the `SCHEDULED` cycle `ref`: scheduled downgrades take over, the
 * invoice bills the items with what the cycle carries, the charge is made
 * (a card's is attempted at once: the run claims card cycles on their due
 * date) and the next cycle is scheduled. None when the cycle is not
 * `SCHEDULED` any more.
 */
export const issueCycle = Effect.fn("BillingRun.issueCycle")(function*(ref: CycleRef) {
  const found = yield* findCycle(ref)
  if (Option.isNone(found) || found.value.cycle.status !== "SCHEDULED") return Option.none<CycleOutcome>()
  const { aggregate, cycle } = found.value
  const sub = aggregate.subscription
  const at = new Date(yield* Clock.currentTimeMillis)
  const amounts = issuedAmounts(aggregate, cycle)
  const card = cycle.paymentMethod === "creditcard"
  const { draft, prepared } = yield* prepareSubscriptionCharge(aggregate, {
    amount: amounts.total,
    cycleNumber: cycle.cycleNumber,
    dueDate: cycle.dueDate,
    description: descriptionOf(aggregate, cycle.cycleNumber)
  })
  const invoiceId = yield* (yield* Ids).make("inv", { sandbox: draft.owner.sandbox })
  const record = (charge: Charge) =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions
      yield* subscriptions.lock(sub.id)
      // Read again under the lock: a change made since the first read would bill another amount.
      const again = yield* findCycle(ref)
      if (Option.isNone(again) || issuedAmounts(again.value.aggregate, again.value.cycle).total !== amounts.total) {
        return yield* new CycleMovedOn()
      }
      const issued = yield* subscriptions.issueCycle(ref, {
        status: card ? "PROCESSING" : "AWAITING_PAYMENT",
        chargeId: charge.id,
        amount: amounts.total,
        discount: amounts.discount,
        issueDate: saoPauloDate(at.getTime()),
        attemptCount: card ? 1 : 0
      }, at)
      if (!issued) return yield* new CycleMovedOn()
      yield* subscriptions.applyScheduledReplacements(sub.id, at)
      const invoice: Omit<Invoice, "invoiceNumber"> = {
        id: invoiceId,
        subscriptionId: sub.id,
        cycleNumber: cycle.cycleNumber,
        status: "AWAITING_PAYMENT",
        paymentType: paymentTypeOf[cycle.paymentMethod],
        dueDate: charge.dueDate ?? cycle.dueDate,
        paidAt: null,
        canceledAt: null,
        discount: amounts.discount,
        total: amounts.total,
        chargeId: charge.id,
        lines: amounts.lines,
        createdAt: at
      }
      yield* subscriptions.addInvoice(sub.accountId, invoice)
      const swapped = yield* findCycle(ref)
      if (Option.isNone(swapped)) return yield* new CycleMovedOn()
      yield* subscriptions.addCycle(scheduledCycle(swapped.value.aggregate, cycle.cycleNumber + 1, at))
      const after = yield* findCycle(ref)
      if (Option.isSome(after)) {
        yield* (yield* Outbox).append(chargeCreated(after.value.aggregate, charge, yield* accountNumberOf(sub.accountId), at))
      }
    })
  const reserved = yield* reserveCheckout(draft, prepared.pending, [], record).pipe(
    Effect.map(Option.some),
    Effect.catchTag("CycleMovedOn", () => Effect.succeed(Option.none<string>())),
    // The charge carries no `externalId`, so it can never be a duplicate.
    Effect.catchTag("DUPLICATE_CHARGE", Effect.die)
  )
  if (Option.isNone(reserved)) return Option.none<CycleOutcome>()
  return Option.some(yield* settle(draft, prepared, reserved.value))
})

/**
 * A new card attempt on the unpaid cycle `ref` (in one of `from`): a new
 * charge of the cycle's amount to the card on file, which the invoice now
 * names. Automatic attempts (the retry schedule) move the cycle to
 * `PROCESSING` and count; a manual one leaves its status and schedule.
 */
export const attemptCycle = Effect.fn("BillingRun.attemptCycle")(function*(
  ref: CycleRef,
  attempt: { readonly manual: boolean; readonly from: ReadonlyArray<CycleStatus> }
) {
  const found = yield* findCycle(ref)
  if (Option.isNone(found) || !attempt.from.includes(found.value.cycle.status)) return Option.none<CycleOutcome>()
  const { aggregate, cycle } = found.value
  const { draft, prepared } = yield* prepareSubscriptionCharge(aggregate, {
    amount: cycle.amount,
    cycleNumber: cycle.cycleNumber,
    dueDate: null,
    description: descriptionOf(aggregate, cycle.cycleNumber)
  })
  const record = (charge: Charge) =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions
      yield* subscriptions.lock(ref.subscriptionId)
      const at = new Date(draft.now)
      const started = yield* subscriptions.startAttempt(ref, { chargeId: charge.id, ...attempt }, at)
      if (!started) return yield* new CycleMovedOn()
      yield* (yield* Outbox).append(chargeCreated(aggregate, charge, yield* accountNumberOf(ref.accountId), at))
    })
  const reserved = yield* reserveCheckout(draft, prepared.pending, [], record).pipe(
    Effect.map(Option.some),
    Effect.catchTag("CycleMovedOn", () => Effect.succeed(Option.none<string>())),
    Effect.catchTag("DUPLICATE_CHARGE", Effect.die)
  )
  if (Option.isNone(reserved)) return Option.none<CycleOutcome>()
  return Option.some(yield* settle(draft, prepared, reserved.value))
})

/**
 * The billing run's charges: scheduled cycles issued in batches (their
 * invoices, their charges, `charge.created`, the cycles after them
 * scheduled) and a new card attempt on an unpaid cycle.
 *
 * A batch is set-based: its subscriptions are read in three statements,
 * each cycle's invoice and charge are worked out in memory by the same rules
 * and checkout strategies as a single charge (`prepareSubscriptionCharge`),
 * and everything is written in one transaction of multi-row statements.
 * That transaction locks the subscriptions and keeps only the cycles whose
 * subscriptions kept the version read (nothing of them written meanwhile:
 * no second read, `VersionedBillable`), then moves them from
 * `SCHEDULED` with one conditional update: a cycle claimed by two workers (a
 * lease that ran out under a slow one) is billed by one of them, and a
 * cycle left out is claimed again when its lease ends. Card cycles are
 * charged after the commit, each by its own authorization, and the answers
 * recorded together in a second transaction.
 */
import { Clock, Data, Effect, Option } from "effect"
import { type AcquirerAnswer, askAcquirerAgain, failureReasonOf } from "../checkout/CardCheckout.ts"
import { type PreparedCharge, reserveCheckout } from "../checkout/ReserveCheckout.ts"
import { CardRefused, type Charge, OPEN_STATUSES, paymentTypeOf } from "../domain/Charge.ts"
import type { PaymentMethod } from "../domain/PaymentMethod.ts"
import type { BillableSubscription, BillingCycle, CycleStatus, Invoice } from "../domain/Subscription.ts"
import { chargeCreated, cycleHeld, type SubscriptionEventEntry } from "../events/SubscriptionEvents.ts"
import type { Cents } from "../money/Money.ts"
import { cycleOutOfBounds } from "../rules/CycleBounds.ts"
import { type CycleInvoiceAmounts } from "../rules/CycleInvoice.ts"
import type { Acquirer } from "../ports/Acquirer.ts"
import { Charges } from "../ports/Charges.ts"
import { Ids } from "../ports/Ids.ts"
import { Outbox } from "../ports/Outbox.ts"
import { PaymentMethods } from "../ports/PaymentMethods.ts"
import { type CycleRef, Subscriptions, type VersionedBillable } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ChargeTransitions } from "../rules/ChargeTransitions.ts"
import { claimClock, CycleGrowthLimit } from "./BillingRunSettings.ts"
import { issuedAmounts, scheduledCycle } from "./NextCycle.ts"
import { prepareSubscriptionCharge } from "./SubscriptionCharges.ts"
import { isScheduledReplacement, ItemTransitions } from "../rules/ItemTransitions.ts"
import { takeOver } from "./ItemMoves.ts"
import { withScheduledReplacements } from "./SubscriptionItems.ts"
import { accountNumberOf, accountNumbersOf, recordCyclesPaid, recordCyclesRefused } from "./SubscriptionPayments.ts"
import { CustomerId, InvoiceId, InvoiceIds } from "../domain/Ids.ts"

/** The cycle moved on between the read and the write (canceled, paid, retried by another worker): nothing is recorded. */
class CycleMovedOn extends Data.TaggedError("CycleMovedOn") {}

/** What one issue or attempt did: its charge and, for a card, the acquirer's answer (`declinedCode` null when it did not answer). */
export type CycleOutcome =
  | { readonly _tag: "Issued" | "Paid"; readonly chargeId: string }
  | { readonly _tag: "Refused"; readonly chargeId: string; readonly declinedCode: string | null }

const descriptionOf = (aggregate: BillableSubscription, n: number) => {
  const primary = aggregate.items.find((item) => item.id === aggregate.subscription.primaryItemId)
  return `${primary?.name ?? "Assinatura"} - ciclo ${n}`
}

/**
 * Runs the charge's own settlement: the card's authorization (whose answer,
 * approved or refused, is recorded by its own transaction and by
 * `SubscriptionPayments`), nothing more for Pix and boleto.
 */
const settle = <E, R>(chargeId: string, prepared: PreparedCharge<E, R>, customerId: CustomerId) =>
  Effect.suspend(() => prepared.settle(customerId)).pipe(
    Effect.map((result): CycleOutcome => ({ _tag: result.status === "paid" ? "Paid" : "Issued", chargeId })),
    // A refusal or an acquirer that did not answer is recorded on the charge and the cycle already.
    Effect.catch((error): Effect.Effect<CycleOutcome> =>
      Effect.succeed({ _tag: "Refused", chargeId, declinedCode: error instanceof CardRefused ? error.error : null })
    )
  )

/** A claimed cycle still `SCHEDULED`, with what it bills if issued now: priced once, for the bounds and the draft. */
interface PricedCycle {
  readonly ref: CycleRef
  readonly aggregate: VersionedBillable
  readonly cycle: BillingCycle
  readonly amounts: CycleInvoiceAmounts
}

/** The cycle `ref` of `aggregate` priced, unless it is gone or no longer `SCHEDULED`. */
const pricedOf = (ref: CycleRef, aggregate: VersionedBillable | undefined): Option.Option<PricedCycle> => {
  const cycle = aggregate?.cycles.find((c) => c.cycleNumber === ref.cycleNumber)
  if (aggregate === undefined || cycle === undefined || cycle.status !== "SCHEDULED") return Option.none()
  return Option.some({ ref, aggregate, cycle, amounts: issuedAmounts(aggregate, cycle) })
}

/** A cycle's key in a batch. */
const keyOf = (ref: CycleRef) => `${ref.subscriptionId}/${ref.cycleNumber}`

/** A cycle ready to be recorded: its invoice, its charge, what its strategy does after the commit, and the cycle after it. */
interface IssueDraft extends PricedCycle {
  readonly charge: Charge
  /** A card's authorization, asked once the cycle is recorded; none for Pix and boleto. */
  readonly acquirerAnswer: Effect.Effect<AcquirerAnswer, never, Acquirer> | undefined
  readonly invoiceId: InvoiceId
}

/** What a batch reads once for all its cycles' charges: each subscription's billing address and card on file. */
interface BatchReads {
  readonly addresses: ReadonlyMap<string, NonNullable<Charge["address"]>>
  readonly cards: ReadonlyMap<string, PaymentMethod>
}

const draftIssue = Effect.fnUntraced(function*(priced: PricedCycle, reads: BatchReads) {
  const { aggregate, cycle, amounts } = priced
  const sub = aggregate.subscription
  const { draft, prepared } = yield* prepareSubscriptionCharge(aggregate, {
    amount: amounts.total,
    cycleNumber: cycle.cycleNumber,
    dueDate: cycle.dueDate,
    description: descriptionOf(aggregate, cycle.cycleNumber),
    address: reads.addresses.get(sub.id) ?? null,
    card: Option.fromNullishOr(sub.paymentMethodId === null ? undefined : reads.cards.get(sub.paymentMethodId))
  })
  // The subscription's customer exists: the charge is its, as the reserve would match it by document.
  const charge: Charge = {
    ...prepared.pending,
    customerId: sub.customerId,
    customer: { documentNumber: sub.document, name: sub.name, email: sub.email, phone: sub.phone, cep: null }
  }
  const invoiceId = yield* (yield* Ids).make(InvoiceIds, { sandbox: draft.owner.sandbox })
  return {
    ...priced,
    charge,
    acquirerAnswer: (prepared as PreparedCharge<unknown, unknown>).acquirerAnswer,
    invoiceId
  } satisfies IssueDraft
})

/** A cycle out of the safety bounds: held for review instead of billed. */
interface HeldCycle {
  readonly ref: CycleRef
  readonly aggregate: VersionedBillable
  readonly amount: Cents
  readonly previousAmount: Cents | null
  readonly reason: string
}

/** The cycle held, when what it would bill is out of the safety bounds (and no one approved it). */
const heldOf = ({ ref, aggregate, cycle, amounts }: PricedCycle, growthLimit: number): Option.Option<HeldCycle> => {
  if (cycle.approvedAt !== null) return Option.none()
  const amount = amounts.total
  const billed = aggregate.cycles.filter((c) => c.cycleNumber < cycle.cycleNumber && c.status !== "SCHEDULED" && c.status !== "CANCELED")
  const previousAmount = billed.at(-1)?.amount ?? null
  const reason = cycleOutOfBounds(amount, previousAmount, growthLimit)
  return reason === null ? Option.none() : Option.some({ ref, aggregate, amount, previousAmount, reason })
}

/** Parks held cycles (still unchanged under the lock) and tells the merchant (`subscription.cycle_held`). */
const recordHolds = Effect.fnUntraced(function*(held: ReadonlyArray<HeldCycle>, at: Date) {
  const subscriptions = yield* Subscriptions
  const events: Array<SubscriptionEventEntry> = []
  const numbers = yield* accountNumbersOf(held.map((h) => h.ref.accountId))
  for (const h of held) {
    yield* subscriptions.updateScheduledCycles(h.ref, { heldReason: h.reason }, at)
    const payload = { cycleNumber: h.ref.cycleNumber, amount: h.amount, previousAmount: h.previousAmount, reason: h.reason }
    events.push(cycleHeld(h.aggregate, payload, numbers.get(h.ref.accountId)!, at))
    yield* Effect.logWarning(`billing run: cycle ${h.ref.cycleNumber} of ${h.ref.subscriptionId} held for review: ${h.reason}`)
  }
  yield* (yield* Outbox).appendMany(events)
})

const isCard = (draft: IssueDraft) => draft.cycle.paymentMethod === "creditcard"

const invoiceOf = (d: IssueDraft, at: Date): Omit<Invoice, "invoiceNumber"> => ({
  id: d.invoiceId,
  subscriptionId: d.ref.subscriptionId,
  cycleNumber: d.cycle.cycleNumber,
  status: "AWAITING_PAYMENT",
  paymentType: paymentTypeOf[d.cycle.paymentMethod],
  dueDate: d.charge.dueDate ?? d.cycle.dueDate,
  paidAt: null,
  canceledAt: null,
  discount: d.amounts.discount,
  total: d.amounts.total,
  chargeId: d.charge.id,
  lines: d.amounts.lines,
  createdAt: at
})

/** The subscription as the batch leaves it: replacements in force, the cycle issued, the next one scheduled. */
const afterIssue = (d: IssueDraft, issued: BillingCycle, next: BillingCycle): BillableSubscription => {
  const swapped = withScheduledReplacements(d.aggregate)
  return { ...swapped, cycles: [...swapped.cycles.map((c) => (c.cycleNumber === issued.cycleNumber ? issued : c)), next] }
}

/**
 * Records the drafts in one transaction and answers those it recorded: the
 * subscriptions locked and their versions compared, held cycles parked, the
 * unchanged cycles moved from `SCHEDULED`, then their charges, replacements,
 * next cycles, `charge.created` and invoices in multi-row statements.
 */
const recordIssues = Effect.fnUntraced(function*(drafts: ReadonlyArray<IssueDraft>, held: ReadonlyArray<HeldCycle>, at: Date) {
  const subscriptions = yield* Subscriptions
  const ids = [...new Set([...drafts, ...held].map((d) => d.ref.subscriptionId))]
  const versions = yield* subscriptions.lockMany(ids)
  const isUnchanged = (d: { readonly aggregate: VersionedBillable }) => versions.get(d.aggregate.subscription.id) === d.aggregate.version
  yield* recordHolds(held.filter(isUnchanged), at)
  const unchanged = drafts.filter(isUnchanged)
  const issuedOf = (d: IssueDraft): BillingCycle => ({
    ...d.cycle,
    status: isCard(d) ? "PROCESSING" : "AWAITING_PAYMENT",
    chargeId: d.charge.id,
    amount: d.amounts.total,
    discount: d.amounts.discount,
    attemptCount: isCard(d) ? 1 : 0,
    updatedAt: at
  })
  const moved = yield* subscriptions.issueCycles(unchanged.map((d) => ({ ref: d.ref, issued: issuedOf(d) })), at, (yield* claimClock).leaseUntil)
  const movedKeys = new Set(moved.map(keyOf))
  const done = unchanged.filter((d) => movedKeys.has(keyOf(d.ref)))
  if (done.length === 0) return done
  yield* (yield* Charges).insertMany(done.map((d) => d.charge))
  yield* takeOver(done.flatMap((d) => d.aggregate.items.filter(isScheduledReplacement)), ItemTransitions.downgradeStarted, at)
  const nexts = done.map((d) => scheduledCycle(withScheduledReplacements(d.aggregate), d.cycle.cycleNumber + 1, at))
  yield* subscriptions.insertCycles(nexts)
  const numbers = yield* accountNumbersOf(done.map((d) => d.ref.accountId))
  yield* (yield* Outbox).appendMany(done.map((d, i) => chargeCreated(afterIssue(d, issuedOf(d), nexts[i]!), d.charge, numbers.get(d.ref.accountId)!, at)))
  // Last: numbering takes the account's invoice counter, which every batch of the account waits for until this one commits.
  yield* subscriptions.insertInvoices(done.map((d) => ({ accountId: d.ref.accountId, invoice: invoiceOf(d, at) })))
  return done
})

/**
 * Issues the `SCHEDULED` cycles `refs` (claimed by the caller): scheduled
 * downgrades take over, each invoice bills the items with what the cycle
 * carries, the charges are made (a card's attempted at once: cards are
 * claimed on their due date) and the next cycles are scheduled. Answers how
 * many it issued; a cycle that cannot be drafted (its card gone, say) is
 * logged and left to its next claim.
 */
export const issueCycles = Effect.fn("BillingRun.issueCycles")(function*(refs: ReadonlyArray<CycleRef>) {
  if (refs.length === 0) return 0
  const at = new Date(yield* Clock.currentTimeMillis)
  const ids = [...new Set(refs.map((ref) => ref.subscriptionId))]
  const aggregates = new Map((yield* (yield* Subscriptions).findBillable(ids)).map((a) => [a.subscription.id, a]))
  const cardIds = [...aggregates.values()].flatMap(({ subscription: s }) =>
    s.paymentMethod === "creditcard" && s.paymentMethodId !== null ? [s.paymentMethodId] : []
  )
  const reads: BatchReads = {
    addresses: yield* (yield* Charges).billingAddresses(ids),
    cards: new Map((yield* (yield* PaymentMethods).findMany(cardIds)).map((m) => [m.id, m]))
  }
  const growthLimit = yield* CycleGrowthLimit
  const priced = refs.flatMap((ref) => Option.toArray(pricedOf(ref, aggregates.get(ref.subscriptionId))))
  const held = priced.flatMap((p) => Option.toArray(heldOf(p, growthLimit)))
  const heldKeys = new Set(held.map((h) => keyOf(h.ref)))
  const drafts = yield* Effect.forEach(priced.filter((p) => !heldKeys.has(keyOf(p.ref))), (p) =>
    draftIssue(p, reads).pipe(
      Effect.map(Option.some),
      Effect.catchCause((cause) =>
        Effect.as(Effect.logWarning(`billing run: cycle ${p.ref.cycleNumber} of ${p.ref.subscriptionId} not issued`, cause), Option.none<IssueDraft>())
      )
    ))
  const ready = drafts.flatMap((d) => Option.toArray(d))
  const transactor = yield* Transactor
  const recorded = yield* transactor.withTransaction(recordIssues(ready, held, at))
  // Each card is its own authorization, a few at a time to keep the acquirer busy; their answers are recorded together.
  const cards = recorded.filter(isCard)
  const answers = yield* Effect.forEach(cards, (d) => d.acquirerAnswer ?? Effect.succeed<AcquirerAnswer>({ _tag: "Unavailable" }), {
    concurrency: ACQUIRER_CONCURRENCY
  })
  yield* transactor.withTransaction(recordCardAnswers(cards.map((d, i) => ({ charge: d.charge, answer: answers[i]! })), new Date(yield* Clock.currentTimeMillis)))
  return recorded.length
})

/** Card authorizations a batch keeps in flight. */
const ACQUIRER_CONCURRENCY = 16

/**
 * Finishes a card attempt left `PROCESSING` (`stalledCard`): asks the
 * acquirer again for its charge (the same reference: a charge captured
 * before its worker stopped is answered as approved, not charged twice) and
 * records an approval or a refusal as the batch would have. No answer
 * records nothing: the charge stays `PROCESSING` until an answer comes (a
 * sandbox charge expires when its answer window ends; a production one is
 * never expired behind a payment the acquirer may have captured).
 */
export const resumeCardAttempt = Effect.fn("BillingRun.resumeCardAttempt")(function*(ref: CycleRef) {
  const found = yield* (yield* Subscriptions).find(ref.accountId, ref.subscriptionId)
  const cycle = Option.isSome(found) ? found.value.cycles.find((c) => c.cycleNumber === ref.cycleNumber) : undefined
  if (Option.isNone(found) || cycle === undefined || cycle.status !== "PROCESSING" || cycle.chargeId === null) return false
  const charge = yield* (yield* Charges).find({ _tag: "Account", accountId: ref.accountId }, cycle.chargeId)
  if (Option.isNone(charge) || charge.value.status !== "PROCESSING") return false
  const answer = yield* askAcquirerAgain(charge.value, found.value.subscription.paymentMethodId)
  // Still no answer: the charge may have been captured, so it is not failed; its claim ends and it is asked again.
  if (answer._tag === "Unavailable" || answer._tag === "Unknown") return false
  yield* (yield* Transactor).withTransaction(recordCardAnswers([{ charge: charge.value, answer }], new Date(yield* Clock.currentTimeMillis)))
  return true
})

/**
 * Records the acquirer's answers for a batch's card charges, set-based, as
 * each would be recorded alone (`CardCheckout`): approved charges `PAID` and
 * their cycles paid, refused ones `FAILED` with their reason and their cycles
 * on the retry schedule. An unknown outcome records nothing: the card may have
 * been charged, so the charge and its cycle stay `PROCESSING` and the
 * stalled-card job asks again under the same reference once the claim ends.
 */
const recordCardAnswers = Effect.fnUntraced(function*(
  answered: ReadonlyArray<{ readonly charge: Charge; readonly answer: AcquirerAnswer }>,
  at: Date
) {
  const charges = yield* Charges
  const approved = answered.filter(({ answer }) => answer._tag === "Approved").map(({ charge }) => ({ id: charge.id, paidAt: at }))
  const refused = answered.flatMap(({ answer, charge }) =>
    answer._tag === "Declined" || answer._tag === "Unavailable" ? [{ id: charge.id, failureReason: failureReasonOf(answer) }] : []
  )
  yield* recordCyclesRefused(yield* charges.transitionMany(ChargeTransitions.cardFailed, refused, at), at)
  // Paid last: their credits lock the merchants' balances until the commit.
  yield* recordCyclesPaid(yield* charges.transitionMany(ChargeTransitions.cardApproved, approved, at), at)
})

/** Whether the cycle's current charge is still open (an attempt under way): a new one must wait for its answer. */
const attemptUnderWay = Effect.fnUntraced(function*(ref: CycleRef) {
  const [cycle] = yield* (yield* Subscriptions).findCycles([ref])
  if (cycle?.chargeId == null) return false
  const charge = yield* (yield* Charges).find({ _tag: "Account", accountId: ref.accountId }, cycle.chargeId)
  return Option.isSome(charge) && OPEN_STATUSES.includes(charge.value.status)
})

/**
 * A new card attempt on the unpaid cycle `ref` (in one of `from`): a new
 * charge of the cycle's amount to the card on file, which the invoice now
 * names. Automatic attempts (the retry schedule) move the cycle to
 * `PROCESSING`, count, and start only on their day; a manual one leaves its
 * status and schedule. The subscription's lock is taken before the charge is
 * written and an attempt under way refuses another: two clicks on retry make
 * one charge.
 */
export const attemptCycle = Effect.fn("BillingRun.attemptCycle")(function*(
  ref: CycleRef,
  attempt: { readonly manual: boolean; readonly from: ReadonlyArray<CycleStatus> }
) {
  const found = yield* (yield* Subscriptions).find(ref.accountId, ref.subscriptionId)
  const cycle = Option.isSome(found) ? found.value.cycles.find((c) => c.cycleNumber === ref.cycleNumber) : undefined
  if (Option.isNone(found) || cycle === undefined || !attempt.from.includes(cycle.status)) return Option.none<CycleOutcome>()
  const aggregate = found.value
  const { draft, prepared } = yield* prepareSubscriptionCharge(aggregate, {
    amount: cycle.amount,
    cycleNumber: cycle.cycleNumber,
    dueDate: null,
    description: descriptionOf(aggregate, cycle.cycleNumber)
  })
  const automatic = attempt.manual ? undefined : yield* claimClock
  const record = (charge: Charge) =>
    Effect.gen(function*() {
      const at = new Date(draft.now)
      const fence = automatic === undefined ? {} : { automatic: { today: automatic.today, leaseUntil: automatic.leaseUntil } }
      const started = yield* (yield* Subscriptions).startAttempt(ref, { chargeId: charge.id, ...attempt, ...fence }, at)
      if (!started) return yield* new CycleMovedOn()
      yield* (yield* Outbox).append(chargeCreated(aggregate, charge, yield* accountNumberOf(ref.accountId), at))
    })
  const reserve = Effect.gen(function*() {
    yield* (yield* Subscriptions).lock(ref.subscriptionId)
    if (yield* attemptUnderWay(ref)) return yield* new CycleMovedOn()
    return yield* reserveCheckout(draft, prepared.pending, [], record)
  })
  const reserved = yield* (yield* Transactor).withTransaction(reserve).pipe(
    Effect.map(Option.some),
    Effect.catchTag("CycleMovedOn", () => Effect.succeed(Option.none<CustomerId>())),
    // The charge carries no `externalId`, so it can never be a duplicate.
    Effect.catchTag("DUPLICATE_CHARGE", Effect.die)
  )
  if (Option.isNone(reserved)) return Option.none<CycleOutcome>()
  return Option.some(yield* settle(draft.common.id, prepared, reserved.value))
})

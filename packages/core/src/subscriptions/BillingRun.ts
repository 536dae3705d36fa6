/**
 * The billing run: the time-driven jobs of subscriptions, each a claimable
 * batch (`(limit, scope) => Effect<number>`) the worker runs on its own fiber
 * and a test clock runs for its account.
 *
 * - `issueDueCycles`: cycles whose issue day came are issued (`IssueCycle`);
 * - `retryDueCycles`: refused card renewals are attempted again on their
 *   retry day (`rules/RetrySchedule.ts`);
 * - `resumeStalledCards`: a card attempt whose worker stopped before
 *   recording the acquirer's answer is asked again and recorded;
 * - `markOverdueCycles`: cycles past their due date unpaid emit
 *   `payment.overdue` (`ACTIVE` → `DEFAULT`, `PENDING`/`TRIALING` → `PAST_DUE`);
 * - `endPeriods`: subscriptions canceled at period end are canceled on the
 *   due date of the cycle they will not pay;
 * - `endDunning`: a cycle whose dunning window ended unpaid fails and its
 *   subscription is canceled for default (`subscription.canceled`).
 *
 * Each claims its rows with a lease (`Subscriptions.claimDue`). The issue
 * job writes its batch set-based (`IssueCycle.ts`); the others handle each
 * row in its own transaction: a card's authorization must not hold the
 * claim's locks, and one failing row must not undo its batch. The lease
 * spreads rows over workers; the conditional moves make each row's effect
 * happen once however many workers claimed it.
 */
import { Cause, Clock, Effect, Fiber, Option } from "effect"
import { expireDueCharges } from "../charges/Expiry.ts"
import { resolveCardOutcomes } from "../checkout/ResolveCardOutcomes.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { paymentOverdue } from "../events/SubscriptionEvents.ts"
import { handingBackOnInterrupt } from "../jobs/HandBack.ts"
import { Outbox } from "../ports/Outbox.ts"
import { ProviderGate } from "../ports/ProviderGate.ts"
import { type BillingJobName, type CycleRef, Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { jobTakesCycle } from "../rules/BillingJobs.ts"
import { CycleTransitions } from "../rules/CycleTransitions.ts"
import { SubscriptionTransitions } from "../rules/SubscriptionTransitions.ts"
import { settleDueReceivables } from "../ledger/SettleReceivables.ts"
import { confirmSandboxPayments } from "../wallet/SandboxPayment.ts"
import { completeRefunds } from "../wallet/Refunds.ts"
import { payOutWithdrawals } from "../wallet/SendPix.ts"
import { cancelNow, cancelOpenCharges, closingThenCanceling } from "./CancelSubscription.ts"
import { claimClock } from "./BillingRunSettings.ts"
import { attemptCycle, issueCycles, resumeCardAttempt } from "./IssueCycle.ts"
import { answerProcessingNotas, emitDueNotas } from "../nfse/NotaTiming.ts"
import { accountNumberOf } from "./SubscriptionPayments.ts"

/**
 * Claims up to `limit` cycles due for `job` and handles each with `handle`;
 * answers how many it claimed. A row that fails is logged and left to its
 * lease: another tick (or worker) tries it again when the lease ends.
 */
const runClaimed = Effect.fnUntraced(function*<E, R>(
  job: BillingJobName,
  limit: number,
  scope: RunScope,
  handle: (ref: CycleRef) => Effect.Effect<unknown, E, R>
) {
  const subscriptions = yield* Subscriptions
  const clock = yield* claimClock
  const claimed = yield* subscriptions.claimDue(job, scope, clock, limit)
  yield* Effect.forEach(claimed, (ref) =>
    handle(ref).pipe(
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.interrupt
          : Effect.logWarning(`billing run: ${job} of ${ref.subscriptionId} cycle ${ref.cycleNumber} failed`, cause)
      )
    ), { discard: true }).pipe(
    handingBackOnInterrupt(clock.leaseUntil, (leaseUntil, at) => subscriptions.expireClaims(claimed, leaseUntil, at))
  )
  return claimed.length
})

/**
 * `scope` less the cycles production accounts cannot be charged for here
 * (`ProviderGate`): the jobs that call a provider leave them `SCHEDULED`.
 */
const servedScope = (scope: RunScope) =>
  Effect.map(ProviderGate, (gate): RunScope => (gate.unservedMethods.length === 0 ? scope : { ...scope, heldMethods: gate.unservedMethods }))

/**
 * Once a batch drained what it could claim: warns, once per process, when
 * cycles of production accounts were left due for want of their provider.
 */
const warnHeldCycles = Effect.fnUntraced(function*(served: RunScope) {
  const methods = served.heldMethods
  if (methods === undefined) return
  const message = Effect.gen(function*() {
    const held = yield* (yield* Subscriptions).countHeld("issue", served, yield* claimClock)
    return held <= 0 ? undefined : `billing run: ${held} due cycles of production accounts left SCHEDULED: no provider configured for ${
      methods.join(", ")
    } (logged once per process)`
  })
  yield* (yield* ProviderGate).warnOnce("billing-run:held", message)
})

/** Issues the cycles whose issue day came (a card's: its due date), the batch claimed at once and written set-based. */
export const issueDueCycles = Effect.fn("BillingRun.issueDue")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const served = yield* servedScope(scope)
  const subscriptions = yield* Subscriptions
  const clock = yield* claimClock
  const claimed = yield* subscriptions.claimDue("issue", served, clock, limit)
  yield* issueCycles(claimed).pipe(
    handingBackOnInterrupt(clock.leaseUntil, (leaseUntil, at) => subscriptions.expireClaims(claimed, leaseUntil, at)),
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logWarning(`billing run: a batch of ${claimed.length} cycles was not issued`, cause)
    )
  )
  if (claimed.length < limit) yield* warnHeldCycles(served)
  return claimed.length
})

/** Attempts again the refused card renewals whose retry day came. */
export const retryDueCycles = Effect.fn("BillingRun.retryDue")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  return yield* runClaimed("retry", limit, yield* servedScope(scope), (ref) => attemptCycle(ref, { manual: false, from: CycleTransitions.retried.from }))
})

/**
 * Marks a cycle overdue once: its invoice `OVERDUE`, the subscription
 * `DEFAULT` (was `ACTIVE`) or `PAST_DUE` (was `PENDING` or `TRIALING`),
 * `payment.overdue` sent and kept in the cycle's `rulerHistory`.
 */
const markOverdue = (ref: CycleRef) =>
  Effect.gen(function*() {
    const subscriptions = yield* Subscriptions
    const at = new Date(yield* Clock.currentTimeMillis)
    yield* subscriptions.lock(ref.subscriptionId)
    if (!(yield* subscriptions.markOverdue(ref, at))) return
    yield* subscriptions.transition(ref.subscriptionId, SubscriptionTransitions.overdueActive, {}, at)
    yield* subscriptions.transition(ref.subscriptionId, SubscriptionTransitions.overdueEarly, {}, at)
    yield* subscriptions.appendRulers([{ ref, entry: { kind: "payment.overdue", channel: "webhook", sentAt: at.toISOString() } }], at)
    const aggregate = yield* subscriptions.find(ref.accountId, ref.subscriptionId)
    if (Option.isNone(aggregate)) return
    yield* (yield* Outbox).append(paymentOverdue(aggregate.value, ref.cycleNumber, yield* accountNumberOf(ref.accountId), at))
  }).pipe((body) => Effect.flatMap(Transactor, (transactor) => transactor.withTransaction(body)))

export const markOverdueCycles = Effect.fn("BillingRun.markOverdue")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  return yield* runClaimed("overdue", limit, scope, markOverdue)
})

/** Marks `ref` overdue when the overdue job's rule takes it today (`jobTakesCycle`), whoever holds its claim. */
const markOverdueIfDue = Effect.fnUntraced(function*(ref: CycleRef) {
  const found = yield* (yield* Subscriptions).find(ref.accountId, ref.subscriptionId)
  const cycle = Option.isSome(found) ? found.value.cycles.find((c) => c.cycleNumber === ref.cycleNumber) : undefined
  if (Option.isNone(found) || cycle === undefined) return
  if (jobTakesCycle("overdue", { ...cycle, claimed: true }, found.value.subscription, (yield* claimClock).today)) yield* markOverdue(ref)
})

/**
 * Finishes the card attempts whose worker stopped before recording the
 * acquirer's answer. One the acquirer still does not answer keeps its claim
 * and is asked again when the claim ends; the overdue job, which takes the
 * same cycle the day after its due date, would then never find it unclaimed
 * for as long as the acquirer stays silent, so it is marked overdue here,
 * under this job's claim, once the overdue rule takes it.
 */
export const resumeStalledCards = Effect.fn("BillingRun.resumeStalledCards")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  return yield* runClaimed("stalledCard", limit, yield* servedScope(scope), (ref) =>
    Effect.flatMap(resumeCardAttempt(ref), (answered) => (answered ? Effect.void : markOverdueIfDue(ref))))
})

/** Cancels the subscription whose period ended with a cancel scheduled, keeping the reason it was given. */
const endPeriod = (ref: CycleRef) =>
  Effect.gen(function*() {
    const at = new Date(yield* Clock.currentTimeMillis)
    yield* closingThenCanceling(ref.accountId, ref.subscriptionId, (closed) => cancelNow(ref.subscriptionId, null, at, closed)).pipe(
      Effect.catchTag("SUBSCRIPTION_ALREADY_CANCELED", () => Effect.void)
    )
  })

export const endPeriods = Effect.fn("BillingRun.endPeriods")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  return yield* runClaimed("periodEnd", limit, scope, endPeriod)
})

/**
 * The dunning window ended unpaid: the cycle `FAILED` (its invoice
 * `UNCOLLECTIBLE`) and the subscription canceled for default; its open Pix
 * and boletos closed at their providers first (one found paid there pays
 * the cycle, which then does not fail).
 */
const endCycleDunning = (ref: CycleRef) =>
  closingThenCanceling(ref.accountId, ref.subscriptionId, (closed) =>
    Effect.gen(function*() {
      const at = new Date(yield* Clock.currentTimeMillis)
      // Charges before cycles, as a payment takes them: an attempt in flight is canceled (or paid first) before the cycle fails.
      yield* cancelOpenCharges(ref.subscriptionId, closed, at)
      const failed = yield* (yield* Subscriptions).moveCycle(ref.subscriptionId, ref.cycleNumber, { transition: CycleTransitions.dunningEnded, nextAttemptOn: null }, at)
      if (!failed) return
      yield* cancelNow(ref.subscriptionId, "DEFAULT", at, closed).pipe(Effect.catchTag("SUBSCRIPTION_ALREADY_CANCELED", () => Effect.void))
    }))

export const endDunning = Effect.fn("BillingRun.endDunning")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  return yield* runClaimed("dunningEnd", limit, scope, endCycleDunning)
})

/** How a run drains each job: rows claimed per batch, and batches in flight at once. */
export interface BillingRunOptions {
  readonly batch?: number
  /**
   * Batches of one job in flight at once. Each claims its own rows, so they
   * never share one; while one waits for the database another computes, which
   * keeps both the process and the database busy.
   */
  readonly concurrency?: number
}

/** What a run did so far, for its progress lines: rows handled by every job, cycles issued. */
interface RunProgress {
  handled: number
  issued: number
}

const drainAll = Effect.fnUntraced(function*<E, R>(
  runBatch: (limit: number) => Effect.Effect<number, E, R>,
  options: BillingRunOptions,
  progress: RunProgress,
  counts: "handled" | "issued" = "handled"
) {
  const drainer = Effect.gen(function*() {
    let total = 0
    for (;;) {
      const handled = yield* runBatch(options.batch ?? 250)
      if (handled <= 0) return total
      total += handled
      progress.handled += handled
      if (counts === "issued") progress.issued += handled
    }
  })
  const totals = yield* Effect.all(Array.from({ length: Math.max(1, options.concurrency ?? 3) }, () => drainer), { concurrency: "unbounded" })
  return totals.reduce((sum, n) => sum + n, 0)
})

/** What one run of every time-driven job handled, by job. */
export interface BillingRunTotals {
  readonly paymentsConfirmed: number
  readonly periodsEnded: number
  readonly issued: number
  readonly retried: number
  readonly resumed: number
  /** One-off card charges claimed to be asked about an unknown outcome (`resolveCardOutcomes`). */
  readonly cardOutcomes: number
  readonly overdue: number
  readonly dunningEnded: number
  readonly expired: number
  readonly receivablesSettled: number
  readonly withdrawalsPaidOut: number
  readonly refundsAnswered: number
  readonly notasEmitted: number
  readonly notasAnswered: number
}

/**
 * Runs every time-driven job of `scope` at the clock's time until none has
 * work left: sandbox payments, cancels at period end (before issuing, so an
 * ending subscription's next cycle is never billed), issues, retries,
 * overdue marks, dunning ends, one-off card charges whose outcome was
 * unknown (before expiry), charge expiries, receivables whose day came,
 * withdrawals to pay out, refunds to ask about, fiscal notes due and notes
 * the city has not answered, in rounds, since one job's
 * work can make another's due (a card refused on issue, a cycle issued past
 * its due date). What `billing run --until` and a test clock's advance run;
 * the worker runs the same jobs, each on its own fiber.
 */
export const runBillingJobs = Effect.fn("BillingRun.runAll")(function*(scope: RunScope, options: BillingRunOptions = {}) {
  const totals = {
    paymentsConfirmed: 0,
    periodsEnded: 0,
    issued: 0,
    retried: 0,
    resumed: 0,
    cardOutcomes: 0,
    overdue: 0,
    dunningEnded: 0,
    expired: 0,
    receivablesSettled: 0,
    withdrawalsPaidOut: 0,
    refundsAnswered: 0,
    notasEmitted: 0,
    notasAnswered: 0
  }
  const progress: RunProgress = { handled: 0, issued: 0 }
  const reporter = yield* Effect.forkChild(reportProgress(progress, scope))
  return yield* runRounds(scope, options, totals, progress).pipe(Effect.ensuring(Fiber.interrupt(reporter)))
})

/** Every `PROGRESS_INTERVAL` of a long run: rows handled, their rate, and the cycles still due to be issued. */
const PROGRESS_INTERVAL = "5 seconds"

/**
 * Logs a long run's progress. The cycles left are counted once, at the first
 * line (counting a million due rows takes the database a second), and then
 * follow the cycles issued.
 */
const reportProgress = Effect.fnUntraced(function*(progress: RunProgress, scope: RunScope) {
  const started = yield* Clock.currentTimeMillis
  yield* Effect.sleep(PROGRESS_INTERVAL)
  const due = progress.issued + (yield* (yield* Subscriptions).countDue("issue", scope, yield* claimClock))
  for (;;) {
    const now = yield* Clock.currentTimeMillis
    const remaining = Math.max(0, due - progress.issued)
    const perSecond = Math.round(progress.handled / Math.max(1, (now - started) / 1000))
    yield* Effect.logInfo(`billing run: ${progress.handled} rows handled, ${perSecond} rows/s, ${remaining} cycles left to issue`).pipe(
      Effect.annotateLogs({ handled: progress.handled, perSecond, remaining })
    )
    yield* Effect.sleep(PROGRESS_INTERVAL)
  }
})

const runRounds = Effect.fnUntraced(function*(
  scope: RunScope,
  options: BillingRunOptions,
  totals: { -readonly [K in keyof BillingRunTotals]: number },
  progress: RunProgress
) {
  for (;;) {
    const round: BillingRunTotals = {
      paymentsConfirmed: yield* drainAll((n) => confirmSandboxPayments(n, scope), options, progress),
      periodsEnded: yield* drainAll((n) => endPeriods(n, scope), options, progress),
      issued: yield* drainAll((n) => issueDueCycles(n, scope), options, progress, "issued"),
      retried: yield* drainAll((n) => retryDueCycles(n, scope), options, progress),
      resumed: yield* drainAll((n) => resumeStalledCards(n, scope), options, progress),
      overdue: yield* drainAll((n) => markOverdueCycles(n, scope), options, progress),
      dunningEnded: yield* drainAll((n) => endDunning(n, scope), options, progress),
      // Before expiry: a card charge the acquirer answered is settled, not expired.
      cardOutcomes: yield* drainAll((n) => resolveCardOutcomes(n, scope), options, progress),
      expired: yield* drainAll((n) => expireDueCharges(n, scope), options, progress),
      receivablesSettled: yield* drainAll((n) => settleDueReceivables(n, scope), options, progress),
      withdrawalsPaidOut: yield* drainAll((n) => payOutWithdrawals(n, scope), options, progress),
      refundsAnswered: yield* drainAll((n) => completeRefunds(n, scope), options, progress),
      notasEmitted: yield* drainAll((n) => emitDueNotas(n, scope), options, progress),
      notasAnswered: yield* drainAll((n) => answerProcessingNotas(n, scope), options, progress)
    }
    for (const key of Object.keys(totals) as Array<keyof BillingRunTotals>) totals[key] += round[key]
    if (Object.values(round).every((n) => n === 0)) return totals as BillingRunTotals
  }
})

/**
 * The scheduler worker: every periodic job of the core (outbox fan-out,
 * webhook delivery, charge expiry, sandbox payment confirmation, card
 * charges whose outcome was unknown, e-mail
 * notifications, the billing run's cycles, retries, overdue marks, period
 * and dunning ends, the wallet's receivables, payouts and refunds, the
 * onboarding of sub-account proposals; later fiscal timing) runs the
 * claimable loop of `ClaimableJob.ts` on its own fiber. Any number of workers
 * may run against one PostgreSQL: every job claims its rows with `SKIP LOCKED`
 * or a lease, so no two workers take the same one.
 */
import { Billing } from "@billing/core"
import { type Duration, Effect, Layer } from "effect"
import { type ClaimableJob, drain, forkJobs } from "./ClaimableJob.ts"
import { DEFAULT_DISPATCHER, type DispatcherOptions, runDispatcher } from "./Dispatcher.ts"

/** The worker's claimable jobs, by the name used in `WorkerOptions.jobs` and in logs; webhook delivery is the dispatcher's. */
export type JobName =
  | "fanOut"
  | "expiry"
  | "sandboxPayments"
  | "cardOutcomes"
  | "notifications"
  | "periodEnd"
  | "issueCycles"
  | "retryCycles"
  | "stalledCards"
  | "overdueCycles"
  | "dunningEnd"
  | "receivables"
  | "payouts"
  | "refunds"
  | "onboarding"
  | "notasDue"
  | "notasAnswered"

/** Tuning of one job; anything left out takes the worker-wide value or the default. */
export interface JobOptions {
  /** Rows claimed per batch. */
  readonly batch?: number
  /** Pause after an idle (or failed) tick. */
  readonly pollInterval?: Duration.Input
}

/** Tuning of `WorkerLive`; every field is optional and has a default. */
export interface WorkerOptions {
  /** Pause after an idle tick, for every job without its own `pollInterval`. */
  readonly pollInterval?: Duration.Input
  /** Events fanned out per transaction (same as `jobs.fanOut.batch`, which wins). */
  readonly fanOutBatch?: number
  /** Deliveries leased per query (same as `dispatcher.leaseBatch`, which wins). */
  readonly deliveryBatch?: number
  /** Per-job batch size and poll interval. */
  readonly jobs?: { readonly [K in JobName]?: JobOptions }
  /** Webhook delivery: concurrency, per-registration limit, batches. */
  readonly dispatcher?: DispatcherOptions
}

/** Polling every quarter second keeps a webhook or an e-mail well under a second behind its cause. */
const DEFAULT_POLL_INTERVAL: Duration.Input = "250 millis"

const defaultBatch: Record<JobName, number> = {
  // Each event fans out to its registrations in one statement.
  fanOut: 500,
  expiry: 100,
  sandboxPayments: 100,
  // Each charge is a call to the acquirer.
  cardOutcomes: 50,
  notifications: 100,
  periodEnd: 100,
  issueCycles: 100,
  retryCycles: 50,
  stalledCards: 50,
  overdueCycles: 100,
  dunningEnd: 100,
  receivables: 250,
  // Each payout and each refund is a call to a provider.
  payouts: 50,
  refunds: 50,
  // Each stage is a call to the KYC provider.
  onboarding: 50,
  // Each note is a call to the city.
  notasDue: 25,
  notasAnswered: 25
}

const runBatchOf = {
  fanOut: (limit: number) => Billing.fanOut(limit),
  expiry: (limit: number) => Billing.expireDueCharges(limit),
  sandboxPayments: (limit: number) => Billing.confirmSandboxPayments(limit),
  cardOutcomes: (limit: number) => Billing.resolveCardOutcomes(limit),
  notifications: (limit: number) => Billing.sendPendingNotifications(limit),
  periodEnd: (limit: number) => Billing.endPeriods(limit),
  issueCycles: (limit: number) => Billing.issueDueCycles(limit),
  retryCycles: (limit: number) => Billing.retryDueCycles(limit),
  stalledCards: (limit: number) => Billing.resumeStalledCards(limit),
  overdueCycles: (limit: number) => Billing.markOverdueCycles(limit),
  dunningEnd: (limit: number) => Billing.endDunning(limit),
  receivables: (limit: number) => Billing.settleDueReceivables(limit),
  payouts: (limit: number) => Billing.payOutWithdrawals(limit),
  refunds: (limit: number) => Billing.completeRefunds(limit),
  onboarding: (limit: number) => Billing.onboardProposals(limit),
  notasDue: (limit: number) => Billing.emitDueNotas(limit),
  notasAnswered: (limit: number) => Billing.answerProcessingNotas(limit)
} as const

type BillingBatch = ReturnType<(typeof runBatchOf)[JobName]>
type BillingJob = ClaimableJob<Effect.Error<BillingBatch>, Effect.Services<BillingBatch>>

const legacyBatch = (name: JobName, options: WorkerOptions) => name === "fanOut" ? options.fanOutBatch : undefined

/** The job `name` as configured by `options`. */
export const workerJob = (name: JobName, options: WorkerOptions = {}): BillingJob => ({
  name,
  batchSize: options.jobs?.[name]?.batch ?? legacyBatch(name, options) ?? defaultBatch[name],
  pollInterval: options.jobs?.[name]?.pollInterval ?? options.pollInterval ?? DEFAULT_POLL_INTERVAL,
  runBatch: runBatchOf[name]
})

/**
 * Every job of the worker, as configured by `options`. Confirmation and
 * card outcomes come before expiry and fan-out before delivery only in this
 * list: at run time each has its own fiber and none waits for another.
 */
export const workerJobs = (options: WorkerOptions = {}): ReadonlyArray<BillingJob> =>
  ([
    "fanOut",
    "sandboxPayments",
    "cardOutcomes",
    "expiry",
    "notifications",
    "periodEnd",
    "issueCycles",
    "retryCycles",
    "stalledCards",
    "overdueCycles",
    "dunningEnd",
    "receivables",
    "payouts",
    "refunds",
    "onboarding",
    "notasDue",
    "notasAnswered"
  ] as const).map((name) => workerJob(name, options))

/** The dispatcher's settings under `options`: its own, then the worker-wide ones it shares. */
export const dispatcherOptions = (options: WorkerOptions = {}): DispatcherOptions => ({
  ...(options.deliveryBatch === undefined ? {} : { leaseBatch: options.deliveryBatch }),
  ...(options.pollInterval === undefined ? {} : { pollInterval: options.pollInterval }),
  ...options.dispatcher
})

/**
 * One pass of webhook work, as one caller drives it (tests, scripts): fan out
 * every committed event, then send what is due, round after round (one
 * subscription's or charge's events go one at a time, in order), until
 * nothing is.
 */
export const deliveryPass = Effect.fn("Worker.deliveryPass")(function*(options: WorkerOptions = {}) {
  const fanned = yield* drain(workerJob("fanOut", options))
  let sent = 0
  for (;;) {
    const round = yield* Billing.deliverDue(options.deliveryBatch ?? DEFAULT_DISPATCHER.leaseBatch)
    if (round === 0) return { fanned, sent }
    sent += round
  }
})

/**
 * One pass of charge work, as one caller drives it (tests, scripts): confirm
 * requested sandbox payments, expire what is due, send the e-mails recorded;
 * each drained in that order.
 */
export const chargesPass = Effect.fn("Worker.chargesPass")(function*(options: { readonly batch?: number } = {}) {
  const tuned = { jobs: { sandboxPayments: options, expiry: options, notifications: options } }
  const paid = yield* drain(workerJob("sandboxPayments", tuned))
  const expired = yield* drain(workerJob("expiry", tuned))
  const mailed = yield* drain(workerJob("notifications", tuned))
  return { paid, expired, mailed }
})

/**
 * Runs every job of the worker, each on its own fiber, for as long as the
 * layer lives. Used by `billing serve` and `billing worker`.
 */
export const WorkerLive = (options: WorkerOptions = {}) =>
  Layer.effectDiscard(Effect.gen(function*() {
    yield* forkJobs(workerJobs(options))
    yield* Effect.forkScoped(runDispatcher(dispatcherOptions(options)))
  }))

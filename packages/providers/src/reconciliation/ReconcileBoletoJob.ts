/**
 * The boleto poll as a job of the worker, in the shape of its
 * `ClaimableJob` (matched structurally, as `ReconcilePixJob`). Every five
 * minutes by default: the bank's callback is the fast way, and the poll
 * only catches what a callback missed; a list of five days every five
 * minutes stays far below Inter's 120 calls a minute.
 */
import { type Duration, Effect } from "effect"
import { type BoletoPollReport, DEFAULT_BOLETO_POLL_DAYS, pollBoletoPayments } from "./PollBoletoPayments.ts"

export interface ReconcileBoletoOptions {
  /** How many São Paulo days back each poll looks, today included (default five). */
  readonly days?: number
  /** How often it polls (default five minutes). */
  readonly every?: Duration.Input
}

/** Says what a poll confirmed: each such boleto is one a callback missed. */
const logReport = (report: BoletoPollReport) =>
  report.outcomes.confirmed === 0
    ? Effect.void
    : Effect.logInfo(`boleto poll: ${report.outcomes.confirmed} boletos confirmed that no callback had brought`).pipe(Effect.annotateLogs({ ...report.outcomes }))

/** The job: `runBatch` polls once and answers 0 whatever it confirmed (a poll is not a queue: see `reconcilePixJob`). */
export const reconcileBoletoJob = (options: ReconcileBoletoOptions = {}) => ({
  name: "reconcile-boleto",
  batchSize: 1,
  pollInterval: options.every ?? "5 minutes",
  runBatch: (_limit: number) => pollBoletoPayments(options.days ?? DEFAULT_BOLETO_POLL_DAYS).pipe(Effect.tap(logReport), Effect.as(0))
})

/** With the defaults: every five minutes, over the last five days. */
export const ReconcileBoletoJob = reconcileBoletoJob()

/**
 * The reconciliation poll as a job of the worker, in the shape of its
 * `ClaimableJob` (`packages/worker/src/ClaimableJob.ts`, matched
 * structurally: the worker does not import the providers, the CLI hands the
 * job over). Every minute by default, over the last ten minutes.
 */
import { type Duration, Effect } from "effect"
import { DEFAULT_POLL_WINDOW, pollReceivedPix, type PollReport } from "./PollReceivedPix.ts"

export interface ReconcilePixOptions {
  /** How far back each poll looks (default ten minutes). */
  readonly window?: Duration.Input
  /** How often it polls (default a minute). */
  readonly every?: Duration.Input
}

/** Says what a poll confirmed: each such Pix is one a callback missed. */
const logReport = (report: PollReport) =>
  report.outcomes.confirmed === 0
    ? Effect.void
    : Effect.logInfo(`reconciliation: ${report.outcomes.confirmed} Pix confirmed that no callback had brought`).pipe(
      Effect.annotateLogs({ ...report.outcomes, notOurs: report.notOurs })
    )

/**
 * The job: `runBatch` polls once and answers 0 whatever it confirmed, since a
 * poll is not a queue: the worker's drain runs batches until one answers 0,
 * and answering more would poll again at once instead of after `pollInterval`.
 */
export const reconcilePixJob = (options: ReconcilePixOptions = {}) => ({
  name: "reconcile-pix",
  batchSize: 1,
  pollInterval: options.every ?? "1 minute",
  runBatch: (_limit: number) => pollReceivedPix(options.window ?? DEFAULT_POLL_WINDOW).pipe(Effect.tap(logReport), Effect.as(0))
})

/** With the defaults: every minute, over the last ten minutes. */
export const ReconcilePixJob = reconcilePixJob()

/**
 * The one loop every periodic job of the worker runs: claim a batch, process
 * it, mark it, and go again while there is work; sleep when there is none.
 *
 * The definition lives in the worker, not in the core: the core's use cases
 * already have the claimable shape (`(limit) => Effect<number>`, claiming
 * with `SKIP LOCKED` or a lease and marking in their own transaction), which
 * is all the core has to promise. How often to poll, how many rows to take
 * and on which fiber is scheduling policy, and the worker is the only package
 * that schedules (DESIGN: `cli -> {adapters, worker} -> core`).
 */
import { Cause, Clock, type Duration, Effect, Metric } from "effect"

/**
 * A periodic job over a claimable queue.
 *
 * `runBatch(limit)` must claim at most `limit` rows (with `SKIP LOCKED` or a
 * lease, so any number of workers may run it at once), process them and mark
 * them in its own transaction, and return how many it handled. A batch that
 * returns 0 means the queue looked empty: the loop then sleeps `pollInterval`.
 */
export interface ClaimableJob<E = never, R = never> {
  /** Names the job in logs and spans. */
  readonly name: string
  /** Rows claimed per batch (per transaction). */
  readonly batchSize: number
  /** Pause after the queue came back empty, or after a failing batch. */
  readonly pollInterval: Duration.Input
  /** Claims, processes and marks up to `limit` rows in one transaction; returns how many it handled. */
  readonly runBatch: (limit: number) => Effect.Effect<number, E, R>
}

/**
 * Runs batches until one handles nothing; returns how many rows they handled.
 * Continuing on any non-empty batch (not only a full one) keeps draining when a
 * use case counts fewer rows than it claimed (say payments of charges that
 * expired meanwhile); the price is one empty query per busy tick.
 */
export const drain = Effect.fn("Worker.drain")(function*<E, R>(job: ClaimableJob<E, R>) {
  let total = 0
  for (;;) {
    const handled = yield* job.runBatch(job.batchSize)
    if (handled <= 0) return total
    total += handled
  }
})

const jobRows = Metric.counter("billing_job_rows_total", { description: "Rows the worker's jobs handled, by job", incremental: true })

const jobDrains = Metric.histogram("billing_job_drain_duration_seconds", {
  description: "Time a job took to drain what it could claim, by job (drains that handled rows)",
  boundaries: Metric.exponentialBoundaries({ start: 0.005, factor: 2, count: 14 })
})

/**
 * Drains `job` once and logs the progress of a drain that handled rows (at
 * `Debug`: a busy job drains every poll interval, and idle polls say nothing);
 * counts its rows and times it in the metrics.
 */
export const drainLogged = Effect.fn("Worker.drainLogged")(function*<E, R>(job: ClaimableJob<E, R>) {
  const started = yield* Clock.currentTimeMillis
  const rows = yield* drain(job)
  if (rows > 0) {
    const durationMs = (yield* Clock.currentTimeMillis) - started
    yield* Metric.update(Metric.withAttributes(jobRows, { job: job.name }), rows)
    yield* Metric.update(Metric.withAttributes(jobDrains, { job: job.name }), durationMs / 1000)
    yield* Effect.logDebug(`${job.name}: ${rows} rows in ${durationMs}ms`).pipe(
      Effect.annotateLogs({ job: job.name, rows, durationMs })
    )
  }
  return rows
})

/**
 * Drains `job` now, then again `pollInterval` after each tick, for as long as
 * the fiber lives; interrupt the fiber to stop it (a batch in
 * flight is interrupted, and its transaction rolls back). A failing batch, say
 * while the database restarts, is logged and tried again at the next tick: one
 * bad row or outage must never stop the job for good.
 */
export const runJob = Effect.fn("Worker.runJob")(function*<E, R>(job: ClaimableJob<E, R>) {
  const tick = drainLogged(job).pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logError(`${job.name} batch failed`, cause)
    )
  )
  return yield* tick.pipe(
    Effect.andThen(Effect.sleep(job.pollInterval)),
    Effect.forever,
    Effect.annotateLogs({ job: job.name })
  )
})

/**
 * Forks every job on its own fiber in the current scope, so a long job (a
 * backlog of expiries, a slow receiver) never delays another; closing the
 * scope interrupts them all.
 *
 * Untraced: a job polls every quarter second, and traced its idle ticks
 * alone were some 300 spans a second of nothing (measured on an idle
 * `serve`), drowning the requests' traces at the collector. The jobs are
 * measured instead (`billing_job_*`, `billing_backlog`); requests and
 * `billing run` are traced.
 */
export const forkJobs = Effect.fn("Worker.forkJobs")(function*<E, R>(jobs: ReadonlyArray<ClaimableJob<E, R>>) {
  for (const job of jobs) yield* Effect.forkScoped(runJob(job).pipe(Effect.withTracerEnabled(false)))
})

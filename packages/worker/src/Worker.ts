/**
 * The scheduler worker: loops over the core's periodic work. In this version,
 * outbox fan-out and webhook delivery; later loops (cycles, expiries,
 * overdue marks, retries, fiscal timing) join the same schedule. Any number
 * of workers may run against one PostgreSQL: every loop claims its rows with
 * `SKIP LOCKED`, so no two workers take the same one.
 */
import { Billing } from "@billing/core"
import { Cause, Duration, Effect, Layer, Schedule } from "effect"

export interface WorkerOptions {
  /** Pause between passes when there was nothing to do. */
  readonly pollInterval?: Duration.Input
  /** Events fanned out per transaction. */
  readonly fanOutBatch?: number
  /** Deliveries leased per pass. */
  readonly deliveryBatch?: number
}

/** One pass of webhook work: fan out every committed event, then send what is due. */
export const deliveryPass = (options: WorkerOptions = {}) =>
  Effect.gen(function*() {
    let fanned = 0
    for (;;) {
      const n = yield* Billing.fanOut(options.fanOutBatch ?? 100)
      fanned += n
      if (n === 0) break
    }
    const sent = yield* Billing.deliverDue(options.deliveryBatch ?? 50)
    return { fanned, sent }
  })

const forever = <A, E, R>(name: string, pass: Effect.Effect<A, E, R>, interval: Duration.Input) =>
  pass.pipe(
    // A failing pass (say the database restarting) is logged and tried again
    // on the next tick; it must never stop the worker.
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : Effect.logError(`${name} pass failed`, cause)
    ),
    Effect.repeat(Schedule.spaced(interval)),
    Effect.withSpan(`Worker.${name}`)
  )

/** Runs the worker loops for as long as the layer lives. */
export const WorkerLive = (options: WorkerOptions = {}) =>
  Layer.effectDiscard(
    Effect.forkScoped(forever("delivery", deliveryPass(options), options.pollInterval ?? "250 millis"))
  )

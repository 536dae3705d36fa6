/**
 * The scheduler worker: loops over the core's periodic work: outbox fan-out
 * and webhook delivery, charge expiry and sandbox payment confirmation;
 * later loops (cycles, overdue marks, retries, fiscal timing) join them. Any number
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

/** One pass of charge work: confirm requested sandbox payments, expire what is due, send the e-mails recorded. */
export const chargesPass = (options: { readonly batch?: number } = {}) =>
  Effect.gen(function*() {
    let paid = 0
    let expired = 0
    for (;;) {
      const n = yield* Billing.confirmSandboxPayments(options.batch ?? 100)
      paid += n
      if (n === 0) break
    }
    for (;;) {
      const n = yield* Billing.expireDueCharges(options.batch ?? 100)
      expired += n
      if (n === 0) break
    }
    let mailed = 0
    for (;;) {
      const n = yield* Billing.sendPendingNotifications(options.batch ?? 100)
      mailed += n
      if (n === 0) break
    }
    return { paid, expired, mailed }
  })

/** Runs the worker loops for as long as the layer lives. */
export const WorkerLive = (options: WorkerOptions = {}) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const interval = options.pollInterval ?? "250 millis"
    yield* Effect.forkScoped(forever("delivery", deliveryPass(options), interval))
    yield* Effect.forkScoped(forever("charges", chargesPass(), interval))
  }))

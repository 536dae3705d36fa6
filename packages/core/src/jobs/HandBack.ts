/**
 * Rows a worker claimed with a lease are its own until the lease runs out,
 * so that a worker that dies mid-batch never blocks them for good. A worker
 * that is stopped (SIGTERM, a deploy) need not make the others wait that
 * long: interrupted, a batch ends its claims at once, and the rows it had not
 * finished go to the next worker's claim as if the lease had run out, which
 * every job is already written to survive (providers are asked again by the
 * same reference; nothing is done twice).
 */
import { Clock, type Duration, Effect } from "effect"

/** How long a stopping worker tries to hand its claims back. */
const HAND_BACK_DEADLINE: Duration.Input = "3 seconds"

/**
 * `work` over rows claimed until `leaseUntil`, whose claims `expire` ends
 * when it is interrupted. Only while that lease holds: no other worker can
 * have claimed the rows since, so every claim on them at or past
 * `leaseUntil` is this batch's (its own renewals included, such as a card
 * attempt's). Once the lease ran out the rows may be another's: left alone.
 */
export const handingBackOnInterrupt = (leaseUntil: Date, expire: (leaseUntil: Date, at: Date) => Effect.Effect<void>) =>
<A, E, R>(work: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.onInterrupt(work, () =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => (now < leaseUntil.getTime() ? expire(leaseUntil, new Date(now)) : Effect.void)).pipe(
      // A database that is going away too (the embedded one of a stopping `serve`) must not hold the stop: the lease ends by itself.
      // Interruptible, inside a finalizer, so that the deadline can cut a statement that never answers.
      Effect.interruptible,
      Effect.timeoutOrElse({ duration: HAND_BACK_DEADLINE, orElse: () => Effect.logWarning("claims not handed back in time: they return when their lease ends") })
    ))

/**
 * Rows a worker claimed with a lease are its own until the lease runs out,
 * so that a worker that dies mid-batch never blocks them for good. A worker
 * that is stopped (SIGTERM, a deploy) need not make the others wait that
 * long: interrupted, a batch ends its claims at once, and the rows it had not
 * finished go to the next worker's claim as if the lease had run out, which
 * every job is already written to survive (providers are asked again by the
 * same reference; nothing is done twice).
 */
import { Clock, Effect } from "effect"

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
    Effect.flatMap(Clock.currentTimeMillis, (now) => (now < leaseUntil.getTime() ? expire(leaseUntil, new Date(now)) : Effect.void)))

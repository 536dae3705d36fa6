/**
 * Read-through caches for the reference data that nearly every request reads:
 * the caller's account (authentication) and its fee schedules (charge
 * creation). Without them, a Pix charge costs three statements instead of
 * one, and the two reads are a third of the server's work per request.
 *
 * Neither changes through the API today (accounts are made by the CLI and
 * never edited; fee schedules are set in the database), so a per-process
 * cache with a short time-to-live is safe: an out-of-band change is seen
 * within `REFERENCE_DATA_TTL` by every process. A route that comes to edit
 * either must invalidate here, and other processes still see the change
 * only after the TTL.
 */
import { Cache, Duration, Effect, Exit, Option } from "effect"
import type { SqlClient } from "effect/sql"

export const REFERENCE_DATA_TTL = Duration.seconds(30)

/**
 * `lookup` behind a cache of `REFERENCE_DATA_TTL`. An empty result is cached
 * only with `cacheEmpty` (a fee schedule that is not set is the common case;
 * an account that does not exist yet may be created the next moment).
 * Inside a transaction the lookup goes to the database, so a transaction
 * always reads its own writes and its own snapshot. Keys compare by value
 * (Effect's structural equality), so a tuple of ids is a key.
 */
export const readThrough = <K, A>(
  sql: SqlClient.SqlClient,
  lookup: (key: K) => Effect.Effect<Option.Option<A>>,
  options: { readonly cacheEmpty: boolean; readonly capacity?: number }
) =>
  Effect.map(
    Cache.makeWith(lookup, {
      capacity: options.capacity ?? 10_000,
      timeToLive: (exit) =>
        Exit.isSuccess(exit) && (options.cacheEmpty || Option.isSome(exit.value)) ? REFERENCE_DATA_TTL : Duration.zero
    }),
    (cache) => ({
      get: (key: K): Effect.Effect<Option.Option<A>> =>
        Effect.flatMap(Effect.serviceOption(sql.transactionService), (tx) => (Option.isSome(tx) ? lookup(key) : Cache.get(cache, key))),
      invalidate: (key: K) => Cache.invalidate(cache, key)
    })
  )

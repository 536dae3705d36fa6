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

/** True when the calling fiber runs inside a transaction of `sql`. */
export const inTransaction = (sql: SqlClient.SqlClient): Effect.Effect<boolean> =>
  Effect.map(Effect.serviceOption(sql.transactionService), Option.isSome)

// Joins the string arguments of a lookup into one key; ids and codes never hold a NUL.
const SEPARATOR = "\u0000"

/**
 * `lookup` behind a cache of `REFERENCE_DATA_TTL`, keyed by its string
 * arguments. An empty result is cached only with `cacheEmpty` (a fee
 * schedule that is not set is the common case; an account that does not
 * exist yet may be created the next moment). Inside a transaction the lookup
 * goes to the database, so a transaction always reads its own writes and its
 * own snapshot.
 */
export const readThrough = <const Parts extends ReadonlyArray<string>, A>(
  sql: SqlClient.SqlClient,
  lookup: (...parts: Parts) => Effect.Effect<Option.Option<A>>,
  options: { readonly cacheEmpty: boolean; readonly capacity?: number }
) =>
  Effect.map(
    // Keyed by one string: a tuple key would hash and compare by value on
    // every hit, several times what the rest of a cache hit costs.
    Cache.makeWith((key: string) => lookup(...(key.split(SEPARATOR) as unknown as Parts)), {
      capacity: options.capacity ?? 10_000,
      timeToLive: (exit) =>
        Exit.isSuccess(exit) && (options.cacheEmpty || Option.isSome(exit.value)) ? REFERENCE_DATA_TTL : Duration.zero
    }),
    (cache) => ({
      get: (...parts: Parts): Effect.Effect<Option.Option<A>> =>
        Effect.flatMap(inTransaction(sql), (tx) => (tx ? lookup(...parts) : Cache.get(cache, parts.join(SEPARATOR)))),
      invalidate: (...parts: Parts) => Cache.invalidate(cache, parts.join(SEPARATOR))
    })
  )

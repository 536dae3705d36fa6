/**
 * Throttle counters on `effect/sql`. Each hit is one upsert per key, atomic
 * in PostgreSQL, so every server of an installation counts into the same
 * row; windows end by the Clock's instant passed in, never `now()`.
 */
import { AttemptCounters } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { orDie } from "./Statements.ts"

// Rows of finished windows are deleted a few at a time on each hit, so the
// table holds about the keys of the current window without a separate job.
const SWEEP_BATCH = 100

export const AttemptCountersStorageLive = Layer.effect(AttemptCounters, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const hitOne = (key: string, at: Date, restartBefore: Date) =>
    orDie(sql<{ attempts: number; windowStart: Date }>`
      INSERT INTO attempt_counters AS c (key, attempts, window_start) VALUES (${key}, 1, ${at})
      ON CONFLICT (key) DO UPDATE SET
        attempts = CASE WHEN c.window_start < ${restartBefore} THEN 1 ELSE c.attempts + 1 END,
        window_start = CASE WHEN c.window_start < ${restartBefore} THEN ${at} ELSE c.window_start END
      RETURNING attempts, window_start AS "windowStart"`).pipe(
      Effect.map((rows) => ({ key, attempts: Number(rows[0]!.attempts), windowStart: new Date(rows[0]!.windowStart) }))
    )
  return AttemptCounters.of({
    hit: (keys, at, restartBefore) =>
      Effect.forEach(keys, (key) => hitOne(key, at, restartBefore)).pipe(
        Effect.tap(() =>
          // The outer condition is checked again on rows another process
          // has just counted into, so a live window is never swept away.
          orDie(sql`DELETE FROM attempt_counters WHERE window_start < ${restartBefore} AND key IN (
            SELECT key FROM attempt_counters WHERE window_start < ${restartBefore} LIMIT ${SWEEP_BATCH})`)
        )
      ),
    peek: (keys, restartBefore) =>
      keys.length === 0 ? Effect.succeed([]) : orDie(sql<{ key: string; attempts: number; windowStart: Date }>`
        SELECT key, attempts, window_start AS "windowStart" FROM attempt_counters
        WHERE key IN ${sql.in(keys)} AND window_start >= ${restartBefore} AND attempts > 0`).pipe(
          Effect.map((rows) =>
            rows.map((row) => ({ key: row.key, attempts: Number(row.attempts), windowStart: new Date(row.windowStart) }))
          )
        ),
    forgive: (reset, release) =>
      Effect.andThen(
        reset.length === 0 ? Effect.void : orDie(sql`DELETE FROM attempt_counters WHERE key IN ${sql.in(reset)}`),
        release.length === 0
          ? Effect.void
          : orDie(sql`UPDATE attempt_counters SET attempts = attempts - 1 WHERE key IN ${sql.in(release)} AND attempts > 0`)
      )
  })
}))

import { Readiness, type ReadinessCheck } from "@billing/core"
import { Duration, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { migrations } from "./migrations/index.ts"

/** How long the database may take to answer a readiness probe (probes come every few seconds). */
const DEADLINE = Duration.seconds(2)

const ready = (name: string): ReadinessCheck => ({ name, ready: true, problem: null })
const notReady = (name: string, problem: string): ReadinessCheck => ({ name, ready: false, problem })

const Applied = Schema.Array(Schema.Struct({ latest: Schema.NullOr(Schema.Number) }))

/**
 * The database answers `SELECT 1` within the deadline, and the latest
 * migration applied is the latest this code knows (`effect_sql_migrations`,
 * the Migrator's table).
 */
export const ReadinessStorageLive = Layer.effect(
  Readiness,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const known = Math.max(...(yield* Effect.orDie(migrations)).map(([id]) => id))
    const database = sql`SELECT 1`.pipe(
      Effect.timeout(DEADLINE),
      Effect.as(ready("database")),
      Effect.catchCause(() => Effect.succeed(notReady("database", `no answer within ${Duration.format(DEADLINE)}`)))
    )
    const schema = sql`SELECT max(migration_id)::int AS latest FROM effect_sql_migrations`.pipe(
      Effect.flatMap(Schema.decodeUnknownEffect(Applied)),
      Effect.timeout(DEADLINE),
      Effect.map(([row]) =>
        row?.latest === known ? ready("migrations") : notReady("migrations", `applied up to ${row?.latest ?? "none"}, this code has ${known}`)
      ),
      Effect.catchCause(() => Effect.succeed(notReady("migrations", "the migrations table cannot be read")))
    )
    return Readiness.of({ checks: Effect.all([database, schema], { concurrency: "unbounded" }) })
  })
)

/** Installation-wide settings on `effect/sql`: the first writer of a key wins. */
import { Settings } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { orDie } from "./Statements.ts"

export const SettingsStorageLive = Layer.effect(Settings, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Settings.of({
    getOrInsert: (key, candidate) =>
      orDie(sql`INSERT INTO settings (key, value) VALUES (${key}, ${candidate}) ON CONFLICT (key) DO NOTHING`).pipe(
        Effect.andThen(orDie(sql<{ value: string }>`SELECT value FROM settings WHERE key = ${key}`)),
        Effect.map((rows) => rows[0]!.value)
      ),
    replace: (key, expected, next) =>
      orDie(sql<{ key: string }>`UPDATE settings SET value = ${next} WHERE key = ${key} AND value = ${expected} RETURNING key`).pipe(
        Effect.map((rows) => rows.length === 1)
      )
  })
}))

/**
 * Fee schedules on `effect/sql`, read through the reference cache: every
 * charge reads one, and "none configured" is the common answer, so it is
 * cached too.
 */
import { cents, FeeSchedules } from "@billing/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { readThrough } from "./ReadThrough.ts"
import { run } from "./Statements.ts"

export const FeeSchedulesStorageLive = Layer.effect(FeeSchedules, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const feeSchedule = yield* readThrough(sql, (accountId: string, method: string) =>
    run(sql<{ fixed_cents: string; percent_hundredths: number }>`SELECT fixed_cents::text AS fixed_cents, percent_hundredths
      FROM account_fees WHERE account_id = ${accountId} AND payment_method = ${method}`).pipe(
      Effect.map((rows) =>
        Option.map(Option.fromNullishOr(rows[0]), (r) => ({ fixed: cents(Number(r.fixed_cents)), percentHundredths: Number(r.percent_hundredths) }))
      )
    ), { cacheEmpty: true })
  return FeeSchedules.of({ find: feeSchedule.get })
}))

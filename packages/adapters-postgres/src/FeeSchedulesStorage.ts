/**
 * Fee schedules on `effect/sql`, read through the reference cache: every
 * charge reads one, and "none configured" is the common answer, so it is
 * cached too.
 */
import { FeeSchedules } from "@billing/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { readThrough } from "./ReadThrough.ts"
import { CentsColumn, decodeRows } from "./Rows.ts"
import { firstOf, orDie } from "./Statements.ts"

const decodeFeeSchedules = decodeRows(Schema.Struct({ fixed: CentsColumn, percentHundredths: Schema.Int }))

export const FeeSchedulesStorageLive = Layer.effect(FeeSchedules, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const feeSchedule = yield* readThrough(sql, (accountId: string, method: string) =>
    orDie(sql`SELECT fixed_cents AS fixed, percent_hundredths AS "percentHundredths"
      FROM account_fees WHERE account_id = ${accountId} AND payment_method = ${method}`).pipe(
      Effect.flatMap(firstOf(decodeFeeSchedules))
    ), { cacheEmpty: true })
  return FeeSchedules.of({ find: feeSchedule.get })
}))

/** The sandbox Pix provider's statement on `effect/sql`. */
import { SandboxPsp } from "@billing/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { CentsColumn, decodeRows } from "./Rows.ts"
import { orDie } from "./Statements.ts"

const decodeEntries = decodeRows(Schema.Struct({
  endToEndId: Schema.String,
  direction: Schema.Literals(["CREDIT", "DEBIT"]),
  amount: CentsColumn,
  at: Schema.Date
}))

export const SandboxPspStorageLive = Layer.effect(SandboxPsp, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return SandboxPsp.of({
    record: (accountId, e) =>
      orDie(sql`INSERT INTO sandbox_psp_entries (account_id, end_to_end_id, direction, amount_cents, at)
        VALUES (${accountId}, ${e.endToEndId}, ${e.direction}, ${e.amount}, ${e.at})`),
    recordOnce: (accountId, reference, e) =>
      orDie(sql`INSERT INTO sandbox_psp_entries (account_id, end_to_end_id, direction, amount_cents, at, reference)
        VALUES (${accountId}, ${e.endToEndId}, ${e.direction}, ${e.amount}, ${e.at}, ${reference})
        ON CONFLICT (account_id, reference) WHERE reference IS NOT NULL DO NOTHING`).pipe(
        Effect.andThen(orDie(sql`SELECT end_to_end_id AS "endToEndId", direction, amount_cents AS amount, at FROM sandbox_psp_entries
          WHERE account_id = ${accountId} AND reference = ${reference}`)),
        Effect.flatMap(decodeEntries),
        Effect.map((rows) => rows[0]!)
      ),
    statement: (accountId, from, to) =>
      orDie(sql`SELECT end_to_end_id AS "endToEndId", direction, amount_cents AS amount, at FROM sandbox_psp_entries
        WHERE account_id = ${accountId} AND at >= ${from} AND at < ${to} ORDER BY at, id`).pipe(Effect.flatMap(decodeEntries))
  })
}))

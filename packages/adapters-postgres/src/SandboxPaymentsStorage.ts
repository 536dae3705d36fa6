/** The queue of sandbox payments on `effect/sql`, claimed with `FOR UPDATE SKIP LOCKED`. */
import { AccountId, ChargeId, SandboxPayments } from "@billing/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { inScope, orDie } from "./Statements.ts"

const decodePending = decodeRows(Schema.Struct({ chargeId: ChargeId, accountId: AccountId }))

export const SandboxPaymentsStorageLive = Layer.effect(SandboxPayments, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return SandboxPayments.of({
    enqueue: (chargeId, accountId, at) =>
      orDie(sql`INSERT INTO sandbox_payments (charge_id, account_id, requested_at) VALUES (${chargeId}, ${accountId}, ${at})
        ON CONFLICT (charge_id) DO NOTHING`),
    claimPending: (limit, scope) =>
      orDie(sql`SELECT charge_id AS "chargeId", account_id AS "accountId" FROM sandbox_payments
        WHERE processed_at IS NULL AND ${inScope(sql, scope, sql`sandbox_payments.account_id`)} ORDER BY requested_at, charge_id LIMIT ${limit} FOR UPDATE SKIP LOCKED`).pipe(
        Effect.flatMap(decodePending)
      ),
    markProcessed: (chargeId, at) => orDie(sql`UPDATE sandbox_payments SET processed_at = ${at} WHERE charge_id = ${chargeId}`),
    backlog: (cap) =>
      orDie(sql<{ due: string; oldest: Date | null }>`SELECT
        (SELECT count(*) FROM (SELECT 1 FROM sandbox_payments WHERE processed_at IS NULL LIMIT ${cap}) t)::text AS due,
        (SELECT min(requested_at) FROM sandbox_payments WHERE processed_at IS NULL) AS oldest`).pipe(
        Effect.map(([row]) => ({ due: Number(row!.due), oldest: row!.oldest?.toISOString() ?? null }))
      )
  })
}))

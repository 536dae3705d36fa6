/** Card disputes on `effect/sql`; a decision is a move of `DisputeTransitions`. */
import { Dispute, Disputes } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { CentsColumn, decodeRows } from "./Rows.ts"
import { constants, firstOf, orDie } from "./Statements.ts"

const columns = (sql: SqlClient.SqlClient) =>
  sql`id, account_id AS "accountId", charge_id AS "chargeId", amount_cents AS amount, reason, status, refund_id AS "refundId",
    created_at AS "createdAt", updated_at AS "updatedAt"`

const decodeDisputes = decodeRows(Dispute.mapFields((fields) => ({ ...fields, amount: CentsColumn })))

export const DisputesStorageLive = Layer.effect(Disputes, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const firstDispute = (statement: Statement.Statement<unknown>) => orDie(statement).pipe(Effect.flatMap(firstOf(decodeDisputes)))
  return Disputes.of({
    insert: (d) =>
      orDie(sql`INSERT INTO disputes (id, account_id, charge_id, amount_cents, reason, status, refund_id, created_at, updated_at)
        VALUES (${d.id}, ${d.accountId}, ${d.chargeId}, ${d.amount}, ${d.reason}, ${d.status}, ${d.refundId}, ${d.createdAt}, ${d.updatedAt})`),
    lock: (accountId, id) => firstDispute(sql`SELECT ${columns(sql)} FROM disputes WHERE account_id = ${accountId} AND id = ${id} FOR UPDATE`),
    find: (accountId, id) => firstDispute(sql`SELECT ${columns(sql)} FROM disputes WHERE account_id = ${accountId} AND id = ${id}`),
    decide: (id, transition, refundId, at) =>
      firstDispute(sql`UPDATE disputes SET status = ${transition.to}, refund_id = ${refundId}, updated_at = ${at}
        WHERE id = ${id} AND status IN ${constants(sql, transition.from)} RETURNING ${columns(sql)}`)
  })
}))

/** MED infractions on `effect/sql`; a decision is a move of `MedTransitions`. */
import { cents, MedInfraction, MedInfractions, OPEN_MED_STATUSES } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { CentsColumn, decodeRows } from "./Rows.ts"
import { constants, firstOf, orDie } from "./Statements.ts"

const columns = (sql: SqlClient.SqlClient) =>
  sql`id, account_id AS "accountId", charge_id AS "chargeId", end_to_end_id AS "endToEndId", amount_cents AS amount,
    blocked_cents AS blocked, reason, status, refund_id AS "refundId", created_at AS "createdAt", updated_at AS "updatedAt"`

const decodeInfractions = decodeRows(MedInfraction.mapFields((fields) => ({ ...fields, amount: CentsColumn, blocked: CentsColumn })))

export const MedInfractionsStorageLive = Layer.effect(MedInfractions, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const firstInfraction = (statement: Statement.Statement<unknown>) => orDie(statement).pipe(Effect.flatMap(firstOf(decodeInfractions)))
  return MedInfractions.of({
    insert: (m) =>
      orDie(sql`INSERT INTO med_infractions (id, account_id, charge_id, end_to_end_id, amount_cents, blocked_cents, reason, status, refund_id,
        created_at, updated_at)
        VALUES (${m.id}, ${m.accountId}, ${m.chargeId}, ${m.endToEndId}, ${m.amount}, ${m.blocked}, ${m.reason}, ${m.status}, ${m.refundId},
        ${m.createdAt}, ${m.updatedAt})`),
    lock: (accountId, id) => firstInfraction(sql`SELECT ${columns(sql)} FROM med_infractions WHERE account_id = ${accountId} AND id = ${id} FOR UPDATE`),
    blockedOf: (chargeId) =>
      orDie(sql<{ blocked: string }>`SELECT coalesce(sum(blocked_cents), 0)::text AS blocked FROM med_infractions
        WHERE charge_id = ${chargeId} AND status IN ${constants(sql, OPEN_MED_STATUSES)}`).pipe(Effect.map((rows) => cents(Number(rows[0]!.blocked)))),
    find: (accountId, id) => firstInfraction(sql`SELECT ${columns(sql)} FROM med_infractions WHERE account_id = ${accountId} AND id = ${id}`),
    decide: (id, transition, refundId, at) =>
      firstInfraction(sql`UPDATE med_infractions SET status = ${transition.to}, refund_id = ${refundId}, updated_at = ${at}
        WHERE id = ${id} AND status IN ${constants(sql, transition.from)} RETURNING ${columns(sql)}`)
  })
}))

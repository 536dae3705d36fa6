/**
 * Refunds and split debts on `effect/sql`; the worker claims refunds in
 * flight with a lease and `SKIP LOCKED`. Statuses come from the rules'
 * tables (`RefundTransitions`, `DebtTransitions`), written in as constants:
 * the partial indexes of migration 0015 name them.
 */
import {
  AccountId,
  cents,
  CONFIRMED_REFUND_STATUSES,
  COUNTED_REFUND_STATUSES,
  debtCategory,
  DebtId,
  debtPayment,
  debtReasonOf,
  DebtReasons,
  DebtTransitions,
  IN_FLIGHT_REFUND_STATUSES,
  NEW_DEBT_STATUS,
  OWED_DEBT_STATUSES,
  OwnerDebt,
  ReceivableTaken,
  Refund,
  RefundId,
  RefundRecordReason,
  Refunds,
  SplitReversal
} from "@billing/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { CentsColumn, decodeRows, jsonColumn, withoutSeq, withSeq } from "./Rows.ts"
import { constants, expireClaimsById, first, inScope, orDie } from "./Statements.ts"

const columns = (sql: SqlClient.SqlClient) =>
  sql`seq::text AS seq, id, account_id AS "accountId", charge_id AS "chargeId", payment_type AS "paymentType",
    end_to_end_id AS "endToEndId", amount_cents AS amount, reason, status, return_identification AS "returnIdentification",
    provider_charge_id AS "providerChargeId",
    error, split_reversals AS "splitReversals", receivables_taken AS "receivablesTaken", owner_debt AS "ownerDebt", created_at AS "createdAt", updated_at AS "updatedAt"`

const decodeRefunds = decodeRows(withSeq({
  ...Refund.fields,
  amount: CentsColumn,
  splitReversals: Schema.fromJsonString(Schema.Array(SplitReversal)),
  receivablesTaken: Schema.fromJsonString(Schema.Array(ReceivableTaken)),
  ownerDebt: jsonColumn(OwnerDebt)
}))
const encodeReversals = Schema.encodeSync(Schema.fromJsonString(Schema.Array(SplitReversal)))
const encodeTaken = Schema.encodeSync(Schema.fromJsonString(Schema.Array(ReceivableTaken)))
const encodeOwnerDebt = Schema.encodeSync(jsonColumn(OwnerDebt))

const DebtRow = {
  id: DebtId,
  holder: AccountId,
  refundId: Schema.NullOr(RefundId),
  amount: CentsColumn,
  remaining: CentsColumn
}
const decodeDebts = decodeRows(Schema.Struct(DebtRow))
/** An owed debt with what its statement category is read from: its reason, and the reason of the refund that left it. */
const decodeOwedDebts = decodeRows(Schema.Struct({ ...DebtRow, reason: Schema.Literals(DebtReasons), refundReason: Schema.NullOr(RefundRecordReason) }))
const debtColumns = (sql: SqlClient.SqlClient) =>
  sql`id, holder, refund_id AS "refundId", amount_cents AS amount, remaining_cents AS remaining`

export const RefundsStorageLive = Layer.effect(Refunds, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const select = (where: Statement.Fragment) =>
    orDie(sql`SELECT ${columns(sql)} FROM refunds WHERE ${where}`).pipe(Effect.flatMap(decodeRefunds), Effect.map(withoutSeq))
  const updated = (statement: Statement.Statement<unknown>) =>
    orDie(statement).pipe(Effect.flatMap(decodeRefunds), Effect.map(withoutSeq))
  return Refunds.of({
    insert: (r) =>
      orDie(sql`INSERT INTO refunds (id, account_id, charge_id, payment_type, end_to_end_id, amount_cents, reason, status,
        return_identification, provider_charge_id, error, split_reversals, receivables_taken, owner_debt, created_at, updated_at)
        VALUES (${r.id}, ${r.accountId}, ${r.chargeId}, ${r.paymentType}, ${r.endToEndId}, ${r.amount}, ${r.reason}, ${r.status},
        ${r.returnIdentification}, ${r.providerChargeId}, ${r.error}, ${encodeReversals(r.splitReversals)}, ${encodeTaken(r.receivablesTaken)}, ${encodeOwnerDebt(r.ownerDebt)}, ${r.createdAt}, ${r.updatedAt})`),
    refundedOf: (chargeId, options) =>
      orDie(sql<{ total: string }>`SELECT coalesce(sum(amount_cents), 0)::text AS total FROM refunds
        WHERE charge_id = ${chargeId} AND status IN ${constants(sql, options?.confirmedOnly ? CONFIRMED_REFUND_STATUSES : COUNTED_REFUND_STATUSES)}`).pipe(
        Effect.map((rows) => cents(Number(rows[0]!.total)))
      ),
    find: (accountId, id) => select(sql`account_id = ${accountId} AND id = ${id}`).pipe(Effect.map(first)),
    list: (accountId, query) =>
      Effect.gen(function*() {
        const where = sql`account_id = ${accountId}
          ${query.from === null ? sql`` : sql`AND created_at >= ${query.from}`}
          ${query.to === null ? sql`` : sql`AND created_at <= ${query.to}`}`
        const rows = yield* orDie(sql`SELECT ${columns(sql)} FROM refunds WHERE ${where} ${beforeCursor(sql, query.lastKey)}
          ORDER BY seq DESC LIMIT ${query.limit + 1}`).pipe(Effect.flatMap(decodeRefunds))
        const total = yield* orDie(sql<{ total: string }>`SELECT count(*)::text AS total FROM refunds WHERE ${where}`)
        const page = rows.slice(0, query.limit)
        return { items: withoutSeq(page), total: Number(total[0]!.total), lastKey: rows.length > query.limit ? page[page.length - 1]!.seq : null }
      }),
    expireClaims: expireClaimsById(sql, "refunds"),
    claimProcessing: (limit, scope, at, leaseMillis) =>
      updated(sql`WITH claimable AS (
          SELECT id AS claimed_id FROM refunds WHERE status IN ${constants(sql, IN_FLIGHT_REFUND_STATUSES)} AND (claimed_until IS NULL OR claimed_until < ${at})
            AND ${inScope(sql, scope, sql`refunds.account_id`)}
          ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        UPDATE refunds SET claimed_until = ${new Date(at.getTime() + leaseMillis)} FROM claimable WHERE refunds.id = claimable.claimed_id
        RETURNING ${columns(sql)}`),
    settle: (id, transition, changes, at) =>
      updated(sql`UPDATE refunds SET status = ${transition.to}, return_identification = ${changes.returnIdentification},
        provider_charge_id = ${changes.providerChargeId},
        error = ${changes.error}, claimed_until = NULL, updated_at = ${at}
        WHERE id = ${id} AND status IN ${constants(sql, transition.from)} RETURNING ${columns(sql)}`).pipe(Effect.map(first)),
    insertDebts: (debts, at) =>
      debts.length === 0 ? Effect.void : orDie(sql`INSERT INTO split_debts (id, holder, refund_id, reason, amount_cents, remaining_cents, status, created_at, updated_at)
        VALUES ${sql.csv(debts.map((d) => sql`(${d.id}, ${d.holder}, ${d.refundId}, ${debtReasonOf(d.refundId)}, ${d.amount}, ${d.amount},
          ${NEW_DEBT_STATUS}, ${at}, ${at})`))}`),
    lockPendingDebts: (holders) =>
      holders.length === 0 ? Effect.succeed([]) : orDie(sql`SELECT ${debtColumns(sql)}, d.reason,
          (SELECT r.reason FROM refunds r WHERE r.id = d.refund_id) AS "refundReason"
        FROM split_debts d
        WHERE holder IN ${sql.in([...holders])} AND status IN ${constants(sql, OWED_DEBT_STATUSES)} ORDER BY holder, created_at, id FOR UPDATE OF d`).pipe(
        Effect.flatMap(decodeOwedDebts),
        Effect.map((rows) => rows.map(({ reason, refundReason, ...debt }) => ({ ...debt, category: debtCategory(reason, refundReason) })))
      ),
    // Each payment moves its debt by its own transition (`debtPayment`: paid off, or still owed), an owed debt only.
    payDebts: (payments, at) =>
      payments.length === 0 ? Effect.void : orDie(sql`UPDATE split_debts SET remaining_cents = v.remaining, status = v.status, updated_at = ${at}
        FROM (VALUES ${sql.csv(payments.map((p) => sql`(${p.id}, ${p.remaining}::bigint, ${debtPayment(p.remaining).to}::text)`))}) AS v (id, remaining, status)
        WHERE split_debts.id = v.id AND split_debts.status IN ${constants(sql, OWED_DEBT_STATUSES)}`),
    cancelDebts: (refundId, at) =>
      orDie(sql`UPDATE split_debts SET status = ${DebtTransitions.canceled.to}, updated_at = ${at}
        WHERE refund_id = ${refundId} AND status IN ${constants(sql, DebtTransitions.canceled.from)}
        RETURNING ${debtColumns(sql)}`).pipe(Effect.flatMap(decodeDebts))
  })
}))

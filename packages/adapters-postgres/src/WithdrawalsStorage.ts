/**
 * Pix withdrawals on `effect/sql`; the worker claims the ones in flight
 * with a lease and `SKIP LOCKED`. Statuses come from `WithdrawalTransitions`.
 */
import { cents, Counterparty, IN_FLIGHT_WITHDRAWAL_STATUSES, LIMIT_COUNTED_WITHDRAWAL_STATUSES, Withdrawal, Withdrawals } from "@billing/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { CentsColumn, decodeRows, jsonColumn, withoutSeq, withSeq } from "./Rows.ts"
import { constants, expireClaimsById, first, inScope, orDie } from "./Statements.ts"

const columns = (sql: SqlClient.SqlClient) =>
  sql`w.seq::text AS seq, w.id, w.kind, w.account_id AS "accountId", a.number AS "accountNumber", w.amount_cents AS amount, w.fee_cents AS fee,
    w.pix_key AS "pixKey", w.pix_key_type AS "pixKeyType", w.status, w.receiver, w.description, w.end_to_end_id AS "endToEndId",
    w.failure_reason AS "failureReason", to_char(w.sao_paulo_day, 'YYYY-MM-DD') AS day, w.created_at AS "createdAt", w.updated_at AS "updatedAt"`

const decodeWithdrawals = decodeRows(withSeq({ ...Withdrawal.fields, amount: CentsColumn, fee: CentsColumn, receiver: jsonColumn(Counterparty) }))

const encodeReceiver = Schema.encodeSync(Schema.fromJsonString(Counterparty))

const decodeLimits = decodeRows(Schema.Struct({ accountId: Schema.String, dailyLimit: CentsColumn, fee: CentsColumn }))

export const WithdrawalsStorageLive = Layer.effect(Withdrawals, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const select = (where: Statement.Fragment) =>
    orDie(sql`SELECT ${columns(sql)} FROM withdrawals w JOIN accounts a ON a.id = w.account_id WHERE ${where}`).pipe(
      Effect.flatMap(decodeWithdrawals),
      Effect.map(withoutSeq)
    )
  return Withdrawals.of({
    limits: (accountIds) =>
      accountIds.length === 0 ? Effect.succeed(new Map()) : orDie(sql`SELECT account_id AS "accountId", daily_transfer_limit_cents AS "dailyLimit",
        transfer_fee_cents AS fee FROM wallet_limits WHERE account_id IN ${sql.in([...accountIds])}`).pipe(
        Effect.flatMap(decodeLimits),
        Effect.map((rows) => new Map(rows.map(({ accountId, ...limits }) => [accountId, limits])))
      ),
    insert: (w) =>
      orDie(sql`INSERT INTO withdrawals (id, kind, account_id, amount_cents, fee_cents, pix_key, pix_key_type, status, receiver, description,
        end_to_end_id, failure_reason, sao_paulo_day, created_at, updated_at)
        VALUES (${w.id}, ${w.kind}, ${w.accountId}, ${w.amount}, ${w.fee}, ${w.pixKey}, ${w.pixKeyType}, ${w.status},
        ${w.receiver === null ? null : encodeReceiver(w.receiver)}, ${w.description}, ${w.endToEndId}, ${w.failureReason}, ${w.day}::date,
        ${w.createdAt}, ${w.updatedAt})`),
    dayTotal: (accountId, day) =>
      orDie(sql<{ total: string }>`SELECT coalesce(sum(amount_cents), 0)::text AS total FROM withdrawals
        WHERE account_id = ${accountId} AND sao_paulo_day = ${day}::date AND status IN ${constants(sql, LIMIT_COUNTED_WITHDRAWAL_STATUSES)}`).pipe(
        Effect.map((rows) => cents(Number(rows[0]!.total)))
      ),
    list: (accountId, query) =>
      Effect.gen(function*() {
        const rows = yield* orDie(sql`SELECT ${columns(sql)} FROM withdrawals w JOIN accounts a ON a.id = w.account_id
          WHERE w.account_id = ${accountId} ${beforeCursor(sql, query.lastKey, sql`w.seq`)}
          ORDER BY w.seq DESC LIMIT ${query.limit + 1}`).pipe(Effect.flatMap(decodeWithdrawals))
        const total = yield* orDie(sql<{ total: string }>`SELECT count(*)::text AS total FROM withdrawals WHERE account_id = ${accountId}`)
        const page = rows.slice(0, query.limit)
        return {
          items: withoutSeq(page),
          total: Number(total[0]!.total),
          lastKey: rows.length > query.limit ? page[page.length - 1]!.seq : null
        }
      }),
    expireClaims: expireClaimsById(sql, "withdrawals"),
    claimProcessing: (limit, scope, at, leaseMillis) =>
      orDie(sql`WITH claimable AS (
          SELECT id FROM withdrawals WHERE status IN ${constants(sql, IN_FLIGHT_WITHDRAWAL_STATUSES)} AND (claimed_until IS NULL OR claimed_until < ${at})
            AND ${inScope(sql, scope, sql`withdrawals.account_id`)}
          ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        UPDATE withdrawals w SET claimed_until = ${new Date(at.getTime() + leaseMillis)} FROM claimable, accounts a
        WHERE w.id = claimable.id AND a.id = w.account_id
        RETURNING ${columns(sql)}`).pipe(Effect.flatMap(decodeWithdrawals), Effect.map(withoutSeq)),
    settle: (id, transition, changes, at) =>
      orDie(sql`UPDATE withdrawals w SET status = ${transition.to}, end_to_end_id = ${changes.endToEndId},
        failure_reason = ${changes.failureReason}, claimed_until = NULL, updated_at = ${at}
        FROM accounts a WHERE w.id = ${id} AND w.status IN ${constants(sql, transition.from)} AND a.id = w.account_id
        RETURNING ${columns(sql)}`).pipe(Effect.flatMap(decodeWithdrawals), Effect.map((rows) => first(withoutSeq(rows)))),
    find: (accountId, id) => select(sql`w.account_id = ${accountId} AND w.id = ${id}`).pipe(Effect.map(first))
  })
}))

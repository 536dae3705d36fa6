/**
 * Accounts on `effect/sql`. The account behind a token and the seller of an
 * `X-Sub-Account` are read on nearly every request, so they go through the
 * read-through cache (see ReadThrough.ts).
 */
import { AccountBooks, Account, Accounts } from "@billing/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { readThrough } from "./ReadThrough.ts"
import { decodeRows } from "./Rows.ts"
import { firstOf, orDie } from "./Statements.ts"

const decodeAccounts = decodeRows(Account)

export const AccountsStorageLive = Layer.effect(Accounts, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const accountColumns = sql`id, number, name, document, person_type AS "personType", sandbox, parent_id AS "parentId",
    pix_key AS "pixKey", city, email, internal, created_at AS "createdAt"`
  const oneAccount = firstOf(decodeAccounts)
  const accountById = yield* readThrough(sql, (id: string) =>
    orDie(sql`SELECT ${accountColumns} FROM accounts WHERE id = ${id}`).pipe(Effect.flatMap(oneAccount)), { cacheEmpty: false })
  // Keyed by master and number: the `X-Sub-Account` of every seller request.
  const subAccount = yield* readThrough(sql, (parentId: string, number: string) =>
    orDie(sql`SELECT ${accountColumns} FROM accounts WHERE parent_id = ${parentId} AND number = ${number}`).pipe(
      Effect.flatMap(oneAccount)
    ), { cacheEmpty: false })
  // Read on every request of a sandbox account; most have no clock, so an absent one is cached too.
  const clockOffset = yield* readThrough(sql, (accountId: string) =>
    orDie(sql<{ offset: string }>`SELECT offset_ms::text AS offset FROM account_clocks WHERE account_id = ${accountId}`).pipe(
      Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => Number(row.offset)))
    ), { cacheEmpty: true })

  return Accounts.of({
    insert: (a) =>
      Effect.andThen(
        orDie(sql`INSERT INTO accounts (id, number, name, document, person_type, sandbox, parent_id, pix_key, city, email, internal, created_at)
          VALUES (${a.id}, ${a.number}, ${a.name}, ${a.document}, ${a.personType}, ${a.sandbox}, ${a.parentId}, ${a.pixKey}, ${a.city}, ${a.email},
            ${a.internal}, ${a.createdAt})`),
        // The account's books, at zero: every movement of its money locks and moves one of them.
        orDie(sql`INSERT INTO ledger_balances (holder, book, balance_cents)
          SELECT ${a.id}, book, 0 FROM unnest(ARRAY[${sql.csv(AccountBooks.map((book) => sql`${book}`))}]) AS b (book)`)
      ),
    findById: accountById.get,
    findSubAccount: subAccount.get,
    findSubAccountByDocument: (parentId, document) =>
      orDie(sql`SELECT ${accountColumns} FROM accounts WHERE parent_id = ${parentId} AND document = ${document}`).pipe(Effect.flatMap(oneAccount)),
    findOwnByDocument: (masterId, document) =>
      orDie(sql`SELECT ${accountColumns} FROM accounts WHERE (id = ${masterId} OR parent_id = ${masterId}) AND document = ${document}
        ORDER BY parent_id NULLS FIRST, created_at LIMIT 1`).pipe(Effect.flatMap(oneAccount)),
    listSubAccounts: (parentId, query) =>
      Effect.gen(function*() {
        const where = sql`parent_id = ${parentId}
          ${query.from === null ? sql`` : sql`AND created_at >= ${query.from}`}
          ${query.to === null ? sql`` : sql`AND created_at <= ${query.to}`}`
        const items = yield* orDie(sql`SELECT ${accountColumns} FROM accounts WHERE ${where} ORDER BY created_at, number
          LIMIT ${query.limit} OFFSET ${query.offset}`).pipe(Effect.flatMap(decodeAccounts))
        const total = yield* orDie(sql<{ total: string }>`SELECT count(*)::text AS total FROM accounts WHERE ${where}`)
        return { items, total: Number(total[0]!.total) }
      }),
    findByNumber: (number) =>
      orDie(sql`SELECT ${accountColumns} FROM accounts WHERE number = ${number}`).pipe(Effect.flatMap(oneAccount)),
    numberExists: (number) =>
      orDie(sql<{ n: number }>`SELECT 1 AS n FROM accounts WHERE number = ${number}`).pipe(Effect.map((rows) => rows.length > 0)),
    nextNumber: orDie(sql<{ n: string }>`SELECT nextval('account_number_seq')::text AS n`).pipe(Effect.map((rows) => rows[0]!.n)),
    clockOffset: clockOffset.get,
    setClockOffset: (accountId, offsetMillis, at) =>
      orDie(sql`INSERT INTO account_clocks (account_id, offset_ms, updated_at) VALUES (${accountId}, ${Math.round(offsetMillis)}, ${at})
        ON CONFLICT (account_id) DO UPDATE SET offset_ms = excluded.offset_ms, updated_at = excluded.updated_at`).pipe(
        Effect.andThen(clockOffset.invalidate(accountId))
      )
  })
}))

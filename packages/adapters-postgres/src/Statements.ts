/**
 * What every storage module shares: a failed statement is a defect (a use
 * case cannot handle a lost database; the edge answers 500 and logs the
 * cause), instants come from Effect's Clock, and single rows are options.
 */
import type { RunScope } from "@billing/core"
import { Clock, Effect, Option } from "effect"
import type { SqlClient, Statement } from "effect/sql"

/**
 * A statement whose failure is a defect: storage answers what the port
 * promises, and a database that cannot is not a case a use case handles.
 */
export const orDie = <A>(statement: Effect.Effect<A, unknown>): Effect.Effect<A> => Effect.orDie(statement)

/** The instant of Effect's Clock, for the rows a statement stamps (never the database's `now()`). */
export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The first of `rows`, if any. */
export const first = <A>(rows: ReadonlyArray<A>): Option.Option<A> => Option.fromNullishOr(rows[0])

/** Decodes rows with `decode` and keeps the first. */
export const firstOf = <A>(decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>>) => (rows: ReadonlyArray<unknown>) =>
  Effect.map(decode(rows), first)

/**
 * A list of a rule table's statuses (or payment methods) for `IN`, written
 * into the statement as constants, not parameters: the planner then matches
 * partial indexes whose predicates name them (the billing run's, migration
 * 0014) whatever plan it keeps for the statement. Only for the core's closed
 * sets, never for a value from a request.
 */
export const constants = (sql: SqlClient.SqlClient, values: ReadonlyArray<string>): Statement.Fragment =>
  sql.literal(values.length === 0 ? "(NULL)" : `(${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", ")})`)

/** An `ILIKE` pattern matching `search` anywhere, its `%`, `_` and `\` taken literally. */
export const containsPattern = (search: string): string => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * The condition that keeps a job's rows within `scope`, on the account id in
 * `column`: the one account, or every account without a test clock. Qualify
 * the column with its table: a bare `account_id` would name the subquery's
 * own (`account_clocks.account_id`), and one clock would stop every account.
 */
export const inScope = (sql: SqlClient.SqlClient, scope: RunScope, column: Statement.Fragment) =>
  scope.accountId === null
    ? sql`NOT EXISTS (SELECT 1 FROM account_clocks k WHERE k.account_id = ${column})`
    : sql`${column} = ${scope.accountId}`

/**
 * JSON text of `rows` that PostgreSQL reads back exactly: `JSON.stringify`
 * writes a lone UTF-16 surrogate as a `\uXXXX` escape, which PostgreSQL
 * refuses, so each becomes U+FFFD, as the driver's UTF-8 turns one in a
 * parameter. (Any `\uD800`-`\uDFFF` escape it writes is a lone one: pairs are
 * written as the character; the lookbehind leaves an escaped backslash
 * followed by the letters `ud800` alone.)
 */
const wellFormedJson = (rows: ReadonlyArray<object>): string => {
  const text = JSON.stringify(rows)
  // Nearly every batch has no `\ud` at all: a native scan spares it the expression's walk.
  return text.includes("\\ud") ? text.replace(/(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g, "$1\\ufffd") : text
}

/**
 * Inserts `rows` into `table` with one statement of one parameter, read back
 * as records of the table's own row type (`json_populate_recordset`). Each
 * row is keyed by column name, all with the keys of the first (one function
 * builds them); a `Date` is written as its instant, a column left out gets
 * its default. Rows are inserted in their order (an outbox's ids follow
 * it). A VALUES list instead takes a parameter per field, thousands for a
 * batch, for the driver to encode and the server to parse. No rows insert
 * nothing.
 */
export const insertRecords = (sql: SqlClient.SqlClient, table: string, rows: ReadonlyArray<Record<string, unknown>>) => {
  if (rows[0] === undefined) return sql`SELECT 1 WHERE false`
  const list = sql.literal(Object.keys(rows[0]).join(", "))
  return sql`INSERT INTO ${sql.literal(table)} (${list})
    SELECT ${list} FROM json_populate_recordset(NULL::${sql.literal(table)}, ${wellFormedJson(rows)}::json) WITH ORDINALITY AS r
    ORDER BY r.ordinality`
}

/**
 * Ends now (`at`) the claims of `table`'s rows `ids` made until `leaseUntil`
 * or later (a claim holds `claimed_until`; the caller's lease still holds, so
 * they are its own): the `expireClaims` of the ports whose rows a worker
 * claims by id.
 */
export const expireClaimsById = (sql: SqlClient.SqlClient, table: "refunds" | "withdrawals" | "proposals") =>
  (ids: ReadonlyArray<string>, leaseUntil: Date, at: Date): Effect.Effect<void> =>
    ids.length === 0 ? Effect.void : orDie(sql`UPDATE ${sql(table)} SET claimed_until = ${at}
      WHERE id IN ${sql.in([...ids])} AND claimed_until >= ${leaseUntil}`).pipe(Effect.asVoid)

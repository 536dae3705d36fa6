/**
 * What every storage module shares: a failed statement is a defect (a use
 * case cannot handle a lost database; the edge answers 500 and logs the
 * cause), instants come from Effect's Clock, and single rows are options.
 */
import type { RunScope } from "@billing/core"
import { Clock, Effect, Option } from "effect"
import type { SqlClient, Statement } from "effect/sql"

/** Runs a statement; its failure becomes a defect. */
export const run = <A>(effect: Effect.Effect<A, unknown>): Effect.Effect<A> => Effect.orDie(effect)

/** The instant of Effect's Clock, for the rows a statement stamps (never the database's `now()`). */
export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The first of `rows`, if any. */
export const first = <A>(rows: ReadonlyArray<A>): Option.Option<A> => Option.fromNullishOr(rows[0])

/** Decodes rows with `decode` and keeps the first. */
export const firstOf = <A>(decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>>) => (rows: ReadonlyArray<unknown>) =>
  Effect.map(decode(rows), first)

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

import type { SqlClient, Statement } from "effect/sql"

/**
 * The condition of a keyset page: rows before the cursor, which is the `seq`
 * of the last row of the previous page. A cursor that is not one (edited by
 * a client) selects nothing rather than failing.
 */
export const beforeCursor = (sql: SqlClient.SqlClient, after: string | null, column: Statement.Fragment = sql`seq`) =>
  after === null ? sql`` : /^\d{1,18}$/.test(after) ? sql`AND ${column} < ${BigInt(after)}` : sql`AND false`

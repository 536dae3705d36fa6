import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The operator's own accounts (`billing accounts create --internal`), which
 * the spec exempts from Pix Automático's PJ-only rule. Every existing
 * account is a merchant's.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN internal boolean NOT NULL DEFAULT false`
})

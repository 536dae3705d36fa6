import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The merchant's e-mail, where `new.sale` notices go. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN email text`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A deleted fiscal configuration is kept, marked: the notes issued under it
 * are still canceled, printed and asked about with its certificate. It no
 * longer answers the configuration routes, nor serves a new note.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE nfse_configs ADD COLUMN removed_at timestamptz`
})

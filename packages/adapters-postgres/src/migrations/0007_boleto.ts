import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The boleto of a boleto charge (bank, our number, barcode, line, due date, instructions) and its payer's address. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE charges ADD COLUMN boleto text`
  yield* sql`ALTER TABLE charges ADD COLUMN address text`
})

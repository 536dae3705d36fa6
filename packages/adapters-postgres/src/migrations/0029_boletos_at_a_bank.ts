import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Boletos registered at a bank: its callback and its list of payments name a
 * boleto by its "nosso número" alone (the charge's txid), so boleto charges
 * are found by txid through an index, as Pix charges are (migration 0026).
 * Not unique: two banks may each give a number the other gave.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX charges_boleto_txid_idx ON charges (txid) WHERE payment_type = 'BOLETO'`
})

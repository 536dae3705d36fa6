import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Pix from a PSP: its callback and the reconciliation poll name a charge by
 * its txid alone (they know nothing of accounts), so a Pix charge is found
 * by txid, and two Pix charges never share one (the engine draws them at
 * random: 96 bits). A charge records the PSP that holds it, for its refunds
 * and polls to go there.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE charges ADD COLUMN psp text`
  yield* sql`CREATE UNIQUE INDEX charges_pix_txid_idx ON charges (txid) WHERE payment_type = 'PIX'`
})

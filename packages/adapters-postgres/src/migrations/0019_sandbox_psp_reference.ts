import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The sandbox PSP answers a payout or return asked twice with the first one
 * (as the Pix provider port promises): its entries keep the engine's
 * reference of what they paid, once per account.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE sandbox_psp_entries ADD COLUMN reference text`
  yield* sql`CREATE UNIQUE INDEX sandbox_psp_entries_reference_idx ON sandbox_psp_entries (account_id, reference) WHERE reference IS NOT NULL`
})

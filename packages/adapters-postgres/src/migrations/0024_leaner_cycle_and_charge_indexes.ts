import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Two index entries every billing run wrote for nothing, measured on its
 * million (docs/decisions.md, "Time-ordered ids"):
 *
 * - `billing_cycles_due_idx` (status, issue_date) covered every cycle, and a
 *   cycle is written three times by a run (claimed, issued, its next one
 *   scheduled), each a new entry; every job reads its own partial index
 *   (`scheduled`, `retry`, `unpaid`, `processing`), and none reads this one.
 * - The uniqueness of `charges.end_to_end_id` indexed every charge's null
 *   until it is paid (a B-tree keeps nulls); the same uniqueness now holds over
 *   the charges that have one, and a lookup by end-to-end id reads it as before.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX billing_cycles_due_idx`
  yield* sql`ALTER TABLE charges DROP CONSTRAINT charges_end_to_end_id_key`
  yield* sql`CREATE UNIQUE INDEX charges_end_to_end_id_idx ON charges (end_to_end_id) WHERE end_to_end_id IS NOT NULL`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A coupon's redemptions found by what they were made for: a card charge the
 * card-outcome job finds refused releases its coupon use, and the charge
 * does not name its coupon.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX coupon_redemptions_reference_idx ON coupon_redemptions (reference)`
})

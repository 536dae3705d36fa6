import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Transparent checkout: the idempotency key of `POST /v1/charges` (unique per
 * account), the customer and card of a charge, and tokenized cards (`pm_`)
 * that keep only what may be kept: brand, first six, last four, expiry,
 * holder and the acquirer's token, never the number or the CVV.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE charges ADD COLUMN external_id text`
  yield* sql`ALTER TABLE charges ADD COLUMN customer_id text`
  yield* sql`ALTER TABLE charges ADD COLUMN card text`
  yield* sql`ALTER TABLE charges ADD COLUMN failure_reason text`
  yield* sql`CREATE UNIQUE INDEX charges_external_id_idx ON charges (account_id, external_id) WHERE external_id IS NOT NULL`
  yield* sql`
    CREATE TABLE payment_methods (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      acquirer_token text NOT NULL,
      brand text NOT NULL,
      first_six text NOT NULL,
      last_four text NOT NULL,
      exp_month integer NOT NULL,
      exp_year integer NOT NULL,
      holder_name text NOT NULL,
      created_at timestamptz NOT NULL
    )`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Hosted checkouts: reusable links (`pl_`) and single-use sessions (`cs_`)
 * with a pre-filled customer. Settings the hosted page will use (colors,
 * redirect URLs, order bumps) are kept as given.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE checkout_links (
      id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      kind text NOT NULL CHECK (kind IN ('link', 'session')),
      price_id text,
      product_id text,
      items text,
      allowed_payment_methods text NOT NULL,
      customer text,
      settings text NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX checkout_links_account_idx ON checkout_links (account_id, kind, seq DESC)`
})

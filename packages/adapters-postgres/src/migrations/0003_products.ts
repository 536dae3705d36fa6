import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Products and their prices (one-time or recurring). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE products (
      id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      name text NOT NULL,
      description text,
      type text NOT NULL CHECK (type IN ('RECURRING', 'ONE_TIME')),
      status text NOT NULL CHECK (status IN ('active', 'archived')),
      nf_config_id text,
      archived_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX products_account_idx ON products (account_id, seq DESC)`
  yield* sql`
    CREATE TABLE prices (
      id text PRIMARY KEY,
      product_id text NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      account_id text NOT NULL REFERENCES accounts (id),
      position integer NOT NULL,
      title text NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      recurrence_type text NOT NULL,
      recurrence_interval integer NOT NULL CHECK (recurrence_interval >= 1),
      trial_days integer NOT NULL CHECK (trial_days >= 0),
      statement_descriptor text CHECK (char_length(statement_descriptor) <= 22),
      is_active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX prices_product_idx ON prices (product_id, position)`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Customers of an account. A document is registered once among the
 * customers that are not deleted (partial unique index), so a deleted
 * customer's document can be registered again while its history stays.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE customers (
      id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      name text NOT NULL,
      document text NOT NULL,
      email text,
      phone text,
      status text NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE', 'BLOCKED')),
      address text,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE UNIQUE INDEX customers_document_idx ON customers (account_id, document) WHERE deleted_at IS NULL`
  yield* sql`CREATE INDEX customers_account_idx ON customers (account_id, seq DESC) WHERE deleted_at IS NULL`
})

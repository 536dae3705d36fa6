import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Accounts, API credentials, tokens, settings, webhook registrations, the
 * event outbox and webhook deliveries. Plain PostgreSQL 15 SQL that PGlite
 * runs unchanged.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE SEQUENCE account_number_seq START 100001`
  yield* sql`
    CREATE TABLE accounts (
      id text PRIMARY KEY,
      number text NOT NULL UNIQUE,
      name text NOT NULL,
      document text NOT NULL,
      person_type text NOT NULL CHECK (person_type IN ('PF', 'PJ')),
      sandbox boolean NOT NULL,
      parent_id text REFERENCES accounts (id),
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX accounts_parent_idx ON accounts (parent_id, number)`
  yield* sql`
    CREATE TABLE api_clients (
      client_id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      secret_hash text NOT NULL,
      scopes jsonb NOT NULL,
      created_at timestamptz NOT NULL
    )`
  yield* sql`
    CREATE TABLE access_tokens (
      token text PRIMARY KEY,
      client_id text NOT NULL REFERENCES api_clients (client_id) ON DELETE CASCADE,
      scope_key text NOT NULL,
      expires_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX access_tokens_reuse_idx ON access_tokens (client_id, scope_key, expires_at DESC)`
  yield* sql`
    CREATE TABLE settings (
      key text PRIMARY KEY,
      value text NOT NULL
    )`
  yield* sql`
    CREATE TABLE webhooks (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      url text NOT NULL,
      events jsonb NOT NULL,
      secret text NOT NULL,
      auth_token text,
      status text NOT NULL CHECK (status IN ('active', 'inactive')),
      created_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX webhooks_account_idx ON webhooks (account_id)`
  yield* sql`
    CREATE TABLE outbox (
      id bigserial PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      event text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      processed_at timestamptz
    )`
  // Only unprocessed rows are ever scanned by the worker.
  yield* sql`CREATE INDEX outbox_unprocessed_idx ON outbox (id) WHERE processed_at IS NULL`
  yield* sql`
    CREATE TABLE webhook_deliveries (
      id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      webhook_id text NOT NULL,
      event text NOT NULL,
      body text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
      attempt integer NOT NULL DEFAULT 0,
      lease_until timestamptz,
      response_status_code integer,
      error text,
      created_at timestamptz NOT NULL,
      delivered_at timestamptz
    )`
  yield* sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (seq) WHERE status IN ('pending', 'sending')`
  yield* sql`CREATE INDEX webhook_deliveries_account_idx ON webhook_deliveries (account_id, seq DESC)`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Charges (Pix first; boleto and card reuse the table), the sandbox payment
 * queue, per-account fee schedules, and the receiving data of accounts
 * (Pix key and city that go into their BR Codes).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN pix_key text`
  yield* sql`ALTER TABLE accounts ADD COLUMN city text NOT NULL DEFAULT 'SAO PAULO'`
  yield* sql`
    CREATE TABLE account_fees (
      account_id text NOT NULL REFERENCES accounts (id),
      payment_method text NOT NULL,
      fixed_cents bigint NOT NULL CHECK (fixed_cents >= 0),
      percent_hundredths integer NOT NULL CHECK (percent_hundredths >= 0),
      PRIMARY KEY (account_id, payment_method)
    )`
  yield* sql`
    CREATE TABLE charges (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      master_account_id text NOT NULL REFERENCES accounts (id),
      payment_type text NOT NULL CHECK (payment_type IN ('PIX', 'BOLETO', 'CREDIT_CARD')),
      status text NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
      fee_fixed_cents bigint NOT NULL,
      fee_percent_hundredths integer NOT NULL,
      net_cents bigint NOT NULL CHECK (net_cents >= 0 AND net_cents + fee_cents = amount_cents),
      txid text NOT NULL,
      emv text,
      external_txid text,
      description text,
      metadata text,
      customer text,
      split text,
      due_date date,
      expires_at timestamptz NOT NULL,
      paid_at timestamptz,
      end_to_end_id text UNIQUE,
      payer text,
      canceled_at timestamptz,
      archived_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX charges_account_created_idx ON charges (account_id, created_at DESC)`
  yield* sql`CREATE INDEX charges_master_created_idx ON charges (master_account_id, created_at DESC)`
  // The expiry loop scans only open charges, oldest deadline first.
  yield* sql`CREATE INDEX charges_open_expiry_idx ON charges (expires_at) WHERE status IN ('PENDING', 'PROCESSING', 'AWAITING_PAYMENT')`
  yield* sql`
    CREATE TABLE sandbox_payments (
      charge_id text PRIMARY KEY REFERENCES charges (id),
      account_id text NOT NULL REFERENCES accounts (id),
      requested_at timestamptz NOT NULL,
      processed_at timestamptz
    )`
  yield* sql`CREATE INDEX sandbox_payments_pending_idx ON sandbox_payments (requested_at) WHERE processed_at IS NULL`
})

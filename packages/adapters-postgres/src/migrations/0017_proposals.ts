import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Sub-account proposals and their onboarding (issue 15): the form as sent,
 * what it lacks, each analysis stage, and the sub-account it opened; the
 * opening fee a master charges its new sub-accounts; and debts that are not
 * a refund's (the opening fee, owed by a sub-account that has no money yet).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE proposals (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      type text NOT NULL CHECK (type IN ('PF', 'PJ')),
      document_number text NOT NULL,
      form text NOT NULL,
      form_status text NOT NULL CHECK (form_status IN ('UNFINISHED', 'FINISHED')),
      pending_fields text NOT NULL,
      background_check text NOT NULL CHECK (background_check IN ('PENDING', 'APPROVED', 'REPROVED')),
      documents_copy text NOT NULL CHECK (documents_copy IN ('PENDING', 'APPROVED', 'REPROVED')),
      proposal text NOT NULL CHECK (proposal IN ('PENDING', 'APPROVED', 'REPROVED')),
      account text NOT NULL CHECK (account IN ('PENDING', 'CONFIRMED')),
      reason text,
      onboarding_id text UNIQUE,
      documents_token text NOT NULL UNIQUE,
      documents_sent_at timestamptz,
      sub_account_id text UNIQUE REFERENCES accounts (id),
      webhook_id text,
      claimed_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((form_status = 'FINISHED') = (onboarding_id IS NOT NULL)),
      CHECK ((account = 'CONFIRMED') = (sub_account_id IS NOT NULL)),
      CHECK (account = 'PENDING' OR proposal = 'APPROVED')
    )`
  // One live proposal per master and document: a new one only after the last was reproved.
  yield* sql`CREATE UNIQUE INDEX proposals_live_idx ON proposals (account_id, document_number)
    WHERE background_check <> 'REPROVED' AND documents_copy <> 'REPROVED' AND proposal <> 'REPROVED'`
  // What the onboarding job scans: finished forms with a stage still to run.
  yield* sql`CREATE INDEX proposals_due_idx ON proposals (updated_at) WHERE form_status = 'FINISHED' AND account = 'PENDING'
    AND background_check <> 'REPROVED' AND documents_copy <> 'REPROVED' AND proposal <> 'REPROVED'`
  yield* sql`CREATE INDEX accounts_document_idx ON accounts (parent_id, document)`
  yield* sql`
    CREATE TABLE subaccount_fees (
      account_id text PRIMARY KEY REFERENCES accounts (id),
      opening_fee_cents bigint NOT NULL CHECK (opening_fee_cents >= 0)
    )`
  yield* sql`ALTER TABLE split_debts ALTER COLUMN refund_id DROP NOT NULL`
  yield* sql`ALTER TABLE split_debts ADD COLUMN reason text NOT NULL DEFAULT 'REFUND' CHECK (reason IN ('REFUND', 'OPENING_FEE'))`
  yield* sql`ALTER TABLE split_debts ADD CONSTRAINT split_debts_reason_refund CHECK ((reason = 'REFUND') = (refund_id IS NOT NULL))`
  yield* sql`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`
  yield* sql`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('PAYMENT', 'RECEIVABLE_SETTLED', 'PIX_SENT',
    'PIX_SENT_SETTLED', 'PIX_SENT_RETURNED', 'REFUND', 'REFUND_SETTLED', 'REFUND_RETURNED', 'DEBT_SETTLED', 'MED_BLOCK', 'MED_RELEASE', 'MED_RETURN',
    'OPENING_FEE'))`
})

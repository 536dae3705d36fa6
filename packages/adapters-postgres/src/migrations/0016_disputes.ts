import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Card disputes (issue 14): a dispute on a paid card charge, and the
 * chargeback that ends a lost one, a refund of reason `CHARGEBACK` whose
 * owner may owe what its balance lacked (`owner_debt`, a debt like a split
 * receiver's).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check`
  yield* sql`ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check
    CHECK (reason IN ('CUSTOMER_REQUEST', 'FRAUD', 'BANK_ERROR', 'PIX_CHANGE_ERROR', 'CHARGEBACK'))`
  yield* sql`ALTER TABLE refunds ADD COLUMN owner_debt text`
  yield* sql`ALTER TABLE ledger_lines DROP CONSTRAINT ledger_lines_category_check`
  yield* sql`ALTER TABLE ledger_lines ADD CONSTRAINT ledger_lines_category_check CHECK (category IN (
    'PAYMENT', 'PIX_IN', 'PIX_OUT', 'WITHDRAWAL', 'REFUND', 'FEE', 'TRANSFER', 'BOLETO_IN', 'CARD_IN',
    'MED_BLOCK', 'MED_RELEASE', 'MED_RETURN', 'CHARGEBACK'))`
  yield* sql`
    CREATE TABLE disputes (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      charge_id text NOT NULL REFERENCES charges (id),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      reason text NOT NULL,
      status text NOT NULL CHECK (status IN ('OPEN', 'WON', 'LOST')),
      refund_id text REFERENCES refunds (id),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((status = 'LOST') = (refund_id IS NOT NULL))
    )`
  // One open dispute per charge: the charge is DISPUTE while it lasts.
  yield* sql`CREATE UNIQUE INDEX disputes_open_idx ON disputes (charge_id) WHERE status = 'OPEN'`
})

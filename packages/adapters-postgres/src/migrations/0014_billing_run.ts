import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The billing run (issue 13): what its jobs claim and record on a cycle, and
 * the sandbox test clocks of accounts.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A job holds the cycles it claimed until `claimed_until`; a worker killed
  // mid-batch hands them to another once the lease ends. The conditional
  // status moves, not the lease, keep a cycle from being billed twice.
  yield* sql`ALTER TABLE billing_cycles ADD COLUMN claimed_until timestamptz`
  // Card attempts of the cycle (the first on the due date, then the retry
  // schedule) and the day of the next one, for RETRY_SCHEDULED and DUNNING.
  yield* sql`ALTER TABLE billing_cycles ADD COLUMN attempt_count integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0)`
  yield* sql`ALTER TABLE billing_cycles ADD COLUMN next_attempt_on date`
  // When `payment.overdue` was emitted for the cycle: once per cycle.
  yield* sql`ALTER TABLE billing_cycles ADD COLUMN overdue_at timestamptz`
  // A cycle whose amount fell outside the safety bounds waits here for review instead of being billed.
  yield* sql`ALTER TABLE billing_cycles ADD COLUMN held_reason text`
  // When the merchant approved a held cycle: it is billed as it is, bounds or not.
  yield* sql`ALTER TABLE billing_cycles ADD COLUMN approved_at timestamptz`
  yield* sql`ALTER TABLE billing_cycles ADD CONSTRAINT billing_cycles_retry_day
    CHECK (status NOT IN ('RETRY_SCHEDULED', 'DUNNING') OR next_attempt_on IS NOT NULL)`
  yield* sql`CREATE INDEX billing_cycles_scheduled_idx ON billing_cycles (issue_date) WHERE status = 'SCHEDULED' AND held_reason IS NULL`
  yield* sql`CREATE INDEX billing_cycles_unpaid_idx ON billing_cycles (due_date)
    WHERE status IN ('PENDING', 'AWAITING_PAYMENT', 'PROCESSING', 'RETRY_SCHEDULED', 'DUNNING') AND overdue_at IS NULL`
  yield* sql`CREATE INDEX billing_cycles_processing_idx ON billing_cycles (claimed_until) WHERE status = 'PROCESSING'`
  yield* sql`CREATE INDEX billing_cycles_retry_idx ON billing_cycles (next_attempt_on) WHERE status IN ('RETRY_SCHEDULED', 'DUNNING')`
  // The balance check of invoices looks up one invoice by key, always: its
  // plan is cached per session and, made while the tables were small, was a
  // sequential scan that stayed one as they grew (a billing run of 5,000
  // cycles read 140 million rows at commit). Without sequential scans the
  // cached plan is the index lookup it should be.
  yield* sql`ALTER FUNCTION invoice_balances() SET enable_seqscan = off`
  // A sandbox account's own clock: its now is the real now plus the offset.
  // Accounts with a clock are left out of the worker's runs: their time moves
  // only when the clock is advanced, which runs their jobs.
  yield* sql`
    CREATE TABLE account_clocks (
      account_id text PRIMARY KEY REFERENCES accounts (id),
      offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
      updated_at timestamptz NOT NULL
    )`
})

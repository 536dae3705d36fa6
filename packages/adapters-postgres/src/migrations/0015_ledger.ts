import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The wallet's double-entry ledger (issue 14). Money moves only as journal
 * entries whose lines sum to zero; lines are appended, never changed; each
 * account's book balance is kept by the database itself as lines arrive,
 * with the balance after each line, and never goes below zero.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One entry per thing that moved money: `(kind, reference_id)` is unique,
  // so a payment, a withdrawal or its return can never be posted twice.
  yield* sql`
    CREATE TABLE ledger_entries (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('PAYMENT', 'RECEIVABLE_SETTLED', 'WITHDRAWAL', 'WITHDRAWAL_SETTLED', 'WITHDRAWAL_RETURNED',
        'REFUND', 'REFUND_SETTLED', 'REFUND_RETURNED', 'DEBT_SETTLED')),
      reference_id text NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (kind, reference_id)
    )`
  // A line moves `amount_cents` into (positive) or out of (negative) one book
  // of one holder: an account, or the house (`HOUSE`) for the rails and our
  // fees. The lines of a merchant's `AVAILABLE` and `DEBT` books are its statement.
  yield* sql`
    CREATE TABLE ledger_lines (
      seq bigserial PRIMARY KEY,
      id text NOT NULL UNIQUE,
      entry_id text NOT NULL REFERENCES ledger_entries (id),
      holder text NOT NULL,
      book text NOT NULL CHECK (book IN ('AVAILABLE', 'RECEIVABLE', 'RETAINED', 'DEBT', 'CLEARING', 'FEES', 'PAYOUTS')),
      amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
      balance_after_cents bigint,
      category text NOT NULL CHECK (category IN (
        'PAYMENT', 'PIX_IN', 'PIX_OUT', 'WITHDRAWAL', 'REFUND', 'FEE', 'TRANSFER', 'BOLETO_IN', 'CARD_IN')),
      title text NOT NULL,
      description text,
      payment_method text CHECK (payment_method IN ('PIX', 'BOLETO', 'CREDIT_CARD')),
      charge_id text,
      subscription_id text,
      end_to_end_id text,
      counterparty jsonb,
      reference_id text,
      created_at timestamptz NOT NULL,
      CHECK ((holder = 'HOUSE') = (book IN ('CLEARING', 'FEES', 'PAYOUTS'))),
      CHECK ((holder = 'HOUSE') = (balance_after_cents IS NULL))
    )`
  yield* sql`CREATE INDEX ledger_lines_entry_idx ON ledger_lines (entry_id)`
  // An account's statement: its available and debt lines, newest first.
  yield* sql`CREATE INDEX ledger_lines_statement_idx ON ledger_lines (holder, seq) WHERE book IN ('AVAILABLE', 'DEBT')`
  // The running balance of each account's book: what a balance read returns
  // at once however long the history. The house has none: every payment
  // touches its books, and one hot row would serialize every payment. No
  // book of an account goes below zero; its DEBT book (what it owes for
  // split reversals it could not pay) never goes above.
  yield* sql`
    CREATE TABLE ledger_balances (
      holder text NOT NULL REFERENCES accounts (id),
      book text NOT NULL CHECK (book IN ('AVAILABLE', 'RECEIVABLE', 'RETAINED', 'DEBT')),
      balance_cents bigint NOT NULL,
      PRIMARY KEY (holder, book),
      CONSTRAINT ledger_balances_within_bounds CHECK (CASE WHEN book = 'DEBT' THEN balance_cents <= 0 ELSE balance_cents >= 0 END)
    )`
  // Each line moves its book's balance and records the balance after it, in
  // the order the lines are inserted; a line that would take a balance below
  // zero fails the CHECK above, and its whole transaction with it. The row
  // lock taken here serializes two movements of one book.
  yield* sql`
    CREATE FUNCTION ledger_line_moves_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.holder = 'HOUSE' THEN
        RETURN NEW;
      END IF;
      UPDATE ledger_balances SET balance_cents = balance_cents + NEW.amount_cents
        WHERE holder = NEW.holder AND book = NEW.book RETURNING balance_cents INTO NEW.balance_after_cents;
      IF NOT FOUND THEN
        -- The book's first line: open it at zero, then move it like any other
        -- (an upsert would check the line's amount, not the sum, against zero).
        INSERT INTO ledger_balances (holder, book, balance_cents) VALUES (NEW.holder, NEW.book, 0) ON CONFLICT DO NOTHING;
        UPDATE ledger_balances SET balance_cents = balance_cents + NEW.amount_cents
          WHERE holder = NEW.holder AND book = NEW.book RETURNING balance_cents INTO NEW.balance_after_cents;
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`CREATE TRIGGER ledger_lines_balance BEFORE INSERT ON ledger_lines FOR EACH ROW EXECUTE FUNCTION ledger_line_moves_balance()`
  // Balances move only with their lines: a direct change is refused.
  yield* sql`
    CREATE FUNCTION ledger_balances_follow_lines() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'ledger balances move only with ledger lines' USING ERRCODE = 'check_violation';
      END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$`
  yield* sql`CREATE TRIGGER ledger_balances_follow_lines BEFORE INSERT OR UPDATE OR DELETE ON ledger_balances
    FOR EACH ROW EXECUTE FUNCTION ledger_balances_follow_lines()`
  // Every entry a statement touched sums to zero, checked once per statement
  // over the lines it inserted: an entry's lines are written in one statement.
  yield* sql`
    CREATE FUNCTION ledger_entries_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      unbalanced text;
      total bigint;
    BEGIN
      SELECT l.entry_id, sum(l.amount_cents) INTO unbalanced, total
        FROM ledger_lines l WHERE l.entry_id IN (SELECT DISTINCT entry_id FROM inserted)
        GROUP BY l.entry_id HAVING sum(l.amount_cents) <> 0 LIMIT 1;
      IF unbalanced IS NOT NULL THEN
        RAISE EXCEPTION 'ledger entry % does not balance: its lines sum to %', unbalanced, total USING ERRCODE = 'check_violation';
      END IF;
      RETURN NULL;
    END $$`
  yield* sql`CREATE TRIGGER ledger_lines_balanced AFTER INSERT ON ledger_lines
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_balance()`
  // Appended, never edited: a correction is a new entry.
  yield* sql`
    CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'check_violation';
    END $$`
  yield* sql`CREATE TRIGGER ledger_lines_append_only BEFORE UPDATE OR DELETE ON ledger_lines FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`
  yield* sql`CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`
  yield* sql`CREATE TRIGGER ledger_lines_no_truncate BEFORE TRUNCATE ON ledger_lines EXECUTE FUNCTION ledger_append_only()`
  // The merchant's note on a statement line (`PATCH /v1/wallet/transactions/{id}`): beside the line, which never changes.
  yield* sql`
    CREATE TABLE ledger_line_notes (
      line_id text PRIMARY KEY REFERENCES ledger_lines (id),
      note text NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  // Money a holder will receive on a day (boleto and card credits): moved from
  // its RECEIVABLE book to AVAILABLE by the worker once the day comes.
  yield* sql`
    CREATE TABLE receivables (
      id text PRIMARY KEY,
      holder text NOT NULL REFERENCES accounts (id),
      charge_id text NOT NULL REFERENCES charges (id),
      installment integer NOT NULL CHECK (installment >= 1),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      payment_method text NOT NULL CHECK (payment_method IN ('BOLETO', 'CREDIT_CARD')),
      settles_on date NOT NULL,
      settled_at timestamptz,
      UNIQUE (holder, charge_id, installment)
    )`
  yield* sql`CREATE INDEX receivables_due_idx ON receivables (settles_on) WHERE settled_at IS NULL`
  yield* sql`CREATE INDEX receivables_holder_idx ON receivables (holder, settles_on) WHERE settled_at IS NULL`
  // Pix withdrawals: the money leaves the available book when requested and
  // waits in the house's PAYOUTS until the provider settles or returns it.
  yield* sql`
    CREATE TABLE withdrawals (
      id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
      pix_key text NOT NULL,
      pix_key_type text NOT NULL CHECK (pix_key_type IN ('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP')),
      status text NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
      end_to_end_id text,
      failure_reason text,
      sao_paulo_day date NOT NULL,
      claimed_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX withdrawals_account_idx ON withdrawals (account_id, seq)`
  yield* sql`CREATE INDEX withdrawals_processing_idx ON withdrawals (created_at) WHERE status = 'PROCESSING'`
  yield* sql`CREATE INDEX withdrawals_day_idx ON withdrawals (account_id, sao_paulo_day)`
  // Refunds: the money leaves the balances when requested (split receivers
  // returning their part, a debt for what a receiver lacks) and waits in the
  // house's PAYOUTS until the provider confirms or refuses the return.
  yield* sql`
    CREATE TABLE refunds (
      id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      charge_id text NOT NULL REFERENCES charges (id),
      payment_type text NOT NULL CHECK (payment_type IN ('PIX', 'CREDIT_CARD')),
      end_to_end_id text,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      reason text CHECK (reason IN ('CUSTOMER_REQUEST', 'FRAUD', 'BANK_ERROR', 'PIX_CHANGE_ERROR')),
      status text NOT NULL CHECK (status IN ('PROCESSING', 'CONFIRMED', 'ERROR')),
      return_identification text,
      provider_charge_id text,
      error text,
      split_reversals text NOT NULL,
      claimed_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX refunds_account_idx ON refunds (account_id, seq)`
  yield* sql`CREATE INDEX refunds_charge_idx ON refunds (charge_id)`
  yield* sql`CREATE INDEX refunds_processing_idx ON refunds (created_at) WHERE status = 'PROCESSING'`
  // Refunds never pass the amount paid: checked under the charge's lock, so
  // two refunds of one charge racing are counted one after the other.
  yield* sql`
    CREATE FUNCTION refunds_within_paid() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      paid bigint;
      refunded bigint;
    BEGIN
      SELECT amount_cents INTO paid FROM charges WHERE id = NEW.charge_id FOR UPDATE;
      SELECT coalesce(sum(amount_cents), 0) INTO refunded FROM refunds
        WHERE charge_id = NEW.charge_id AND status <> 'ERROR' AND id <> NEW.id;
      IF NEW.status <> 'ERROR' AND refunded + NEW.amount_cents > paid THEN
        RAISE EXCEPTION 'refunds of charge % would pass the amount paid: % + % > %', NEW.charge_id, refunded, NEW.amount_cents, paid
          USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`CREATE TRIGGER refunds_within_paid BEFORE INSERT OR UPDATE ON refunds FOR EACH ROW EXECUTE FUNCTION refunds_within_paid()`
  // What a split receiver owes for a reversal it could not pay: paid from its next credits.
  yield* sql`
    CREATE TABLE split_debts (
      id text PRIMARY KEY,
      holder text NOT NULL REFERENCES accounts (id),
      refund_id text NOT NULL REFERENCES refunds (id),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      remaining_cents bigint NOT NULL CHECK (remaining_cents >= 0 AND remaining_cents <= amount_cents),
      status text NOT NULL CHECK (status IN ('PENDING', 'PAID', 'CANCELED')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (status = 'CANCELED' OR (status = 'PAID') = (remaining_cents = 0))
    )`
  yield* sql`CREATE INDEX split_debts_pending_idx ON split_debts (holder, created_at) WHERE status = 'PENDING'`
  // Per-account wallet limits an operator set; an account without a row has the spec's defaults.
  yield* sql`
    CREATE TABLE wallet_limits (
      account_id text PRIMARY KEY REFERENCES accounts (id),
      daily_transfer_limit_cents bigint NOT NULL CHECK (daily_transfer_limit_cents >= 0),
      transfer_fee_cents bigint NOT NULL CHECK (transfer_fee_cents >= 0)
    )`
})

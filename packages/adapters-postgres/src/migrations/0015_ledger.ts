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
      account_id text NOT NULL REFERENCES accounts (id),
      kind text NOT NULL CHECK (kind IN ('PAYMENT', 'RECEIVABLE_SETTLED', 'PIX_SENT', 'PIX_SENT_SETTLED', 'PIX_SENT_RETURNED',
        'REFUND', 'REFUND_SETTLED', 'REFUND_RETURNED', 'DEBT_SETTLED', 'MED_BLOCK', 'MED_RELEASE', 'MED_RETURN')),
      reference_id text NOT NULL,
      created_at timestamptz NOT NULL,
      UNIQUE (kind, reference_id)
    )`
  // A line moves `amount_cents` into (positive) or out of (negative) one book
  // of one holder: an account, or the house (`HOUSE`) for the rails and our
  // fees. The lines of a merchant's `AVAILABLE`, `RETAINED` and `DEBT` books are its statement.
  yield* sql`
    CREATE TABLE ledger_lines (
      id text PRIMARY KEY,
      seq bigserial NOT NULL,
      entry_id text NOT NULL REFERENCES ledger_entries (id),
      holder text NOT NULL,
      book text NOT NULL CHECK (book IN ('AVAILABLE', 'RECEIVABLE', 'RETAINED', 'DEBT', 'CLEARING', 'FEES', 'PAYOUTS')),
      amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
      balance_after_cents bigint,
      category text NOT NULL CHECK (category IN (
        'PAYMENT', 'PIX_IN', 'PIX_OUT', 'WITHDRAWAL', 'REFUND', 'FEE', 'TRANSFER', 'BOLETO_IN', 'CARD_IN',
        'MED_BLOCK', 'MED_RELEASE', 'MED_RETURN')),
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
  yield* sql`CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, created_at)`
  // An account's statement: its available, retained and debt lines, newest first. No
  // other index orders lines by `seq`: given one, the planner walks it
  // backwards through every other account's lines to fill a page.
  yield* sql`CREATE INDEX ledger_lines_statement_idx ON ledger_lines (holder, seq) WHERE book IN ('AVAILABLE', 'RETAINED', 'DEBT')`
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
  // Balances move only with their lines (the statement trigger below); the
  // one direct change allowed is opening an account's books at zero.
  yield* sql`
    CREATE FUNCTION ledger_balances_follow_lines() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF pg_trigger_depth() < 2 AND NOT (TG_OP = 'INSERT' AND NEW.balance_cents = 0) THEN
        RAISE EXCEPTION 'ledger balances move only with ledger lines' USING ERRCODE = 'check_violation';
      END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$`
  yield* sql`CREATE TRIGGER ledger_balances_follow_lines BEFORE INSERT OR UPDATE OR DELETE ON ledger_balances
    FOR EACH ROW EXECUTE FUNCTION ledger_balances_follow_lines()`
  // Every account has its books from the start (AccountsStorage opens them).
  yield* sql`INSERT INTO ledger_balances (holder, book, balance_cents)
    SELECT a.id, b.book, 0 FROM accounts a, unnest(ARRAY['AVAILABLE', 'RECEIVABLE', 'RETAINED', 'DEBT']) AS b (book)`
  // What the lines one INSERT statement wrote must satisfy, checked once per
  // statement over those lines alone (its cost is the statement's rows, never
  // the ledger's size), before the balances move by their sums:
  // - each entry's lines sum to zero (by induction, every entry balances,
  //   whichever statements wrote it);
  // - each account line's balance_after is its book's balance before the
  //   statement plus the lines up to it in seq order, the book's lock held
  //   (so in seq order a book's lines chain exactly);
  // - no account book passes zero at any line (DEBT never above, the others never below).
  // The writer computes balance_after under the same locks (LedgerStorage);
  // one that gets it wrong is refused, never trusted.
  yield* sql`
    CREATE FUNCTION ledger_lines_checked() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      bad record;
    BEGIN
      SELECT entry_id, sum(amount_cents) AS total INTO bad FROM inserted GROUP BY entry_id HAVING sum(amount_cents) <> 0 LIMIT 1;
      IF FOUND THEN
        RAISE EXCEPTION 'ledger entry % does not balance: its lines sum to %', bad.entry_id, bad.total USING ERRCODE = 'check_violation';
      END IF;
      PERFORM 1 FROM ledger_balances b WHERE (b.holder, b.book) IN (SELECT holder, book FROM inserted WHERE holder <> 'HOUSE')
        ORDER BY b.holder, b.book FOR UPDATE;
      SELECT i.id, i.book, i.balance_after_cents, i.expected INTO bad FROM (
        SELECT l.id, l.book, l.balance_after_cents,
          b.balance_cents + sum(l.amount_cents) OVER (PARTITION BY l.holder, l.book ORDER BY l.seq) AS expected
        FROM inserted l LEFT JOIN ledger_balances b ON b.holder = l.holder AND b.book = l.book
        WHERE l.holder <> 'HOUSE') i
      WHERE i.expected IS NULL OR i.balance_after_cents IS DISTINCT FROM i.expected
        OR (i.book = 'DEBT' AND i.expected > 0) OR (i.book <> 'DEBT' AND i.expected < 0)
      LIMIT 1;
      IF FOUND AND (bad.expected IS NULL OR bad.balance_after_cents IS DISTINCT FROM bad.expected) THEN
        RAISE EXCEPTION 'ledger line % does not follow its book: balance_after % where % is due', bad.id, bad.balance_after_cents, bad.expected
          USING ERRCODE = 'check_violation';
      END IF;
      IF FOUND THEN
        RAISE EXCEPTION 'ledger line % takes its % book past zero, to % (ledger_balances_within_bounds)', bad.id, bad.book, bad.expected
          USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_balances_within_bounds';
      END IF;
      UPDATE ledger_balances b SET balance_cents = b.balance_cents + t.total
        FROM (SELECT holder, book, sum(amount_cents) AS total FROM inserted WHERE holder <> 'HOUSE' GROUP BY holder, book) t
        WHERE b.holder = t.holder AND b.book = t.book;
      RETURN NULL;
    END $$`
  yield* sql`CREATE TRIGGER ledger_lines_checked AFTER INSERT ON ledger_lines
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_checked()`
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
      -- What refunds took of it before it settled: it settles the rest.
      refunded_cents bigint NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0 AND refunded_cents <= amount_cents),
      payment_method text NOT NULL CHECK (payment_method IN ('BOLETO', 'CREDIT_CARD')),
      settles_on date NOT NULL,
      settled_at timestamptz,
      UNIQUE (holder, charge_id, installment)
    )`
  yield* sql`CREATE INDEX receivables_due_idx ON receivables (settles_on) WHERE settled_at IS NULL`
  yield* sql`CREATE INDEX receivables_holder_idx ON receivables (holder, settles_on) WHERE settled_at IS NULL`
  // Pix sent out of an account, withdrawals to the holder's own key and
  // transfers to a third party's: the money leaves the available book when
  // requested and waits in the house's PAYOUTS until the provider settles or
  // returns it.
  yield* sql`
    CREATE TABLE withdrawals (
      id text PRIMARY KEY,
      seq bigserial NOT NULL,
      kind text NOT NULL CHECK (kind IN ('WITHDRAWAL', 'PIX_TRANSFER')),
      account_id text NOT NULL REFERENCES accounts (id),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
      pix_key text NOT NULL,
      pix_key_type text NOT NULL CHECK (pix_key_type IN ('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP')),
      status text NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
      receiver text,
      description text,
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
      seq bigserial NOT NULL,
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
      receivables_taken text NOT NULL,
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
  // MED infractions (the Pix special return mechanism): the amount in
  // question blocked in the account's RETAINED book until it is released or
  // returned to the payer.
  yield* sql`
    CREATE TABLE med_infractions (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      charge_id text NOT NULL REFERENCES charges (id),
      end_to_end_id text NOT NULL,
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      blocked_cents bigint NOT NULL CHECK (blocked_cents >= 0 AND blocked_cents <= amount_cents),
      reason text NOT NULL,
      status text NOT NULL CHECK (status IN ('OPEN', 'RELEASED', 'RETURNED')),
      refund_id text REFERENCES refunds (id),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((status = 'RETURNED' AND blocked_cents > 0) = (refund_id IS NOT NULL))
    )`
  yield* sql`CREATE INDEX med_infractions_charge_idx ON med_infractions (charge_id)`
  // The sandbox Pix provider's own statement of each account's Pix in and
  // out: what reconciliation compares the ledger with (a production
  // provider answers it from its API).
  yield* sql`
    CREATE TABLE sandbox_psp_entries (
      id bigserial PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      end_to_end_id text NOT NULL,
      direction text NOT NULL CHECK (direction IN ('CREDIT', 'DEBIT')),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX sandbox_psp_entries_account_idx ON sandbox_psp_entries (account_id, at)`
  // Pix key portability claims: a key registered elsewhere, claimed for the
  // account; one open claim per key at a time.
  yield* sql`
    CREATE TABLE pix_claims (
      id text PRIMARY KEY,
      seq bigserial NOT NULL,
      account_id text NOT NULL REFERENCES accounts (id),
      pix_key text NOT NULL,
      pix_key_type text NOT NULL CHECK (pix_key_type IN ('CPF', 'CNPJ', 'EMAIL', 'PHONE')),
      status text NOT NULL CHECK (status IN ('OPEN', 'COMPLETED', 'CANCELED')),
      resolution_deadline timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE UNIQUE INDEX pix_claims_open_key_idx ON pix_claims (pix_key) WHERE status = 'OPEN'`
  yield* sql`CREATE INDEX pix_claims_account_idx ON pix_claims (account_id, seq)`
  // Per-account wallet limits an operator set; an account without a row has the spec's defaults.
  yield* sql`
    CREATE TABLE wallet_limits (
      account_id text PRIMARY KEY REFERENCES accounts (id),
      daily_transfer_limit_cents bigint NOT NULL CHECK (daily_transfer_limit_cents >= 0),
      transfer_fee_cents bigint NOT NULL CHECK (transfer_fee_cents >= 0)
    )`
})

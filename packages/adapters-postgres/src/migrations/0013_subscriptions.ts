import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Subscriptions, their items, one billing cycle per (subscription, number),
 * the invoice of each issued cycle and its lines. The invariants money
 * depends on are the database's: a cycle number is billed once; a cycle has
 * at most one open charge; an invoice's lines less its discount are its
 * total (checked when the transaction commits, so lines can be written after
 * their invoice); a price is an active recurring item of a subscription once.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE subscriptions (
      id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      master_account_id text NOT NULL REFERENCES accounts (id),
      customer_id text NOT NULL REFERENCES customers (id),
      checkout_id text,
      cart_id text,
      status text NOT NULL CHECK (status IN (
        'PENDING', 'TRIALING', 'ACTIVE', 'PAST_DUE', 'DEFAULT', 'EXPIRED', 'CANCELED', 'COMPLETED', 'ARCHIVED')),
      interval text NOT NULL CHECK (interval IN ('DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'YEARLY')),
      interval_count integer NOT NULL CHECK (interval_count >= 1),
      billing_day integer NOT NULL CHECK (billing_day BETWEEN 1 AND 31),
      payment_method text NOT NULL CHECK (payment_method IN ('pix', 'creditcard', 'boleto', 'pix_automatico')),
      payment_method_id text,
      card text,
      allowed_payment_methods text NOT NULL,
      pass_fees_to_customer boolean NOT NULL,
      name text NOT NULL,
      email text NOT NULL,
      document text NOT NULL,
      phone text,
      additional_emails text NOT NULL,
      current_cycle_number integer NOT NULL CHECK (current_cycle_number >= 1),
      cancel_at_period_end boolean NOT NULL,
      canceled_at timestamptz,
      cancel_reason text,
      split_rules text,
      boleto_instructions text,
      pix_instructions text,
      issue_days_before_due integer NOT NULL CHECK (issue_days_before_due BETWEEN 0 AND 60),
      expiration_after_due_date integer NOT NULL CHECK (expiration_after_due_date BETWEEN 0 AND 60),
      nf_config_id text,
      coupon text,
      discounts text NOT NULL,
      anchor_date date NOT NULL,
      anchor_cycle integer NOT NULL CHECK (anchor_cycle >= 1),
      trial_ends_on date,
      primary_item_id text NOT NULL,
      pix_recurrency_id text UNIQUE,
      pix_recurrence_status text CHECK (pix_recurrence_status IN ('PENDING', 'AUTHORIZED', 'REJECTED')),
      archived_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX subscriptions_account_idx ON subscriptions (account_id, seq DESC)`
  yield* sql`CREATE INDEX subscriptions_customer_idx ON subscriptions (customer_id)`
  yield* sql`
    CREATE TABLE subscription_items (
      id text PRIMARY KEY,
      subscription_id text NOT NULL REFERENCES subscriptions (id),
      position integer NOT NULL,
      price_id text NOT NULL REFERENCES prices (id),
      product_id text NOT NULL REFERENCES products (id),
      name text NOT NULL,
      product_name text NOT NULL,
      product_type text NOT NULL CHECK (product_type IN ('RECURRING', 'ONE_TIME')),
      statement_descriptor text,
      unit_amount_cents bigint NOT NULL CHECK (unit_amount_cents >= 0),
      quantity integer NOT NULL CHECK (quantity >= 1),
      type text NOT NULL CHECK (type IN ('RECURRING', 'ONE_TIME')),
      recurrence_type text NOT NULL,
      recurrence_interval integer NOT NULL CHECK (recurrence_interval >= 1),
      trial_days integer NOT NULL CHECK (trial_days >= 0),
      status text NOT NULL CHECK (status IN (
        'PENDING', 'TRIALING', 'AWAITING_PAYMENT', 'ACTIVE', 'CHARGED', 'FAILED', 'CANCELED', 'PENDING_UPGRADE', 'DEFAULT')),
      origin text NOT NULL CHECK (origin IN ('CHECKOUT', 'ORDER_BUMP', 'ADD_ON', 'PRORATA_ADJUSTMENT')),
      upgraded_from_item_id text REFERENCES subscription_items (id),
      upgraded_to_item_id text REFERENCES subscription_items (id),
      charge_id text REFERENCES charges (id) DEFERRABLE INITIALLY DEFERRED,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (subscription_id, position)
    )`
  // A price is one live recurring item of a subscription; a second unit is
  // `quantity`, not a second row. A replacement waiting for its payment or
  // for the next cycle (it names the item it replaces) is not live yet: the
  // change that activates it ends the old one first.
  yield* sql`CREATE UNIQUE INDEX subscription_items_live_price_idx ON subscription_items (subscription_id, price_id)
    WHERE type = 'RECURRING' AND (status IN ('TRIALING', 'AWAITING_PAYMENT', 'ACTIVE', 'DEFAULT')
      OR (status = 'PENDING' AND upgraded_from_item_id IS NULL))`
  // One change of an item waits at a time, and a price waits to start once.
  yield* sql`CREATE UNIQUE INDEX subscription_items_one_waiting_change_idx ON subscription_items (upgraded_from_item_id)
    WHERE status IN ('PENDING', 'PENDING_UPGRADE') AND upgraded_from_item_id IS NOT NULL`
  yield* sql`CREATE UNIQUE INDEX subscription_items_waiting_price_idx ON subscription_items (subscription_id, price_id)
    WHERE status = 'PENDING_UPGRADE' OR (status = 'PENDING' AND upgraded_from_item_id IS NOT NULL)`
  yield* sql`CREATE INDEX subscription_items_price_idx ON subscription_items (price_id)`
  yield* sql`CREATE INDEX subscription_items_charge_idx ON subscription_items (charge_id) WHERE charge_id IS NOT NULL`
  yield* sql`
    CREATE TABLE billing_cycles (
      subscription_id text NOT NULL REFERENCES subscriptions (id),
      cycle_number integer NOT NULL CHECK (cycle_number >= 1),
      status text NOT NULL CHECK (status IN (
        'SCHEDULED', 'PENDING', 'AWAITING_PAYMENT', 'PROCESSING', 'RETRY_SCHEDULED', 'DUNNING', 'PAID', 'FAILED', 'EXPIRED', 'CANCELED')),
      amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
      discount_cents bigint NOT NULL CHECK (discount_cents >= 0),
      credit_cents bigint NOT NULL CHECK (credit_cents >= 0),
      adjustment_cents bigint NOT NULL,
      period_start date NOT NULL,
      due_date date NOT NULL,
      issue_date date NOT NULL CHECK (issue_date <= due_date),
      payment_method text NOT NULL CHECK (payment_method IN ('pix', 'creditcard', 'boleto', 'pix_automatico')),
      charge_id text REFERENCES charges (id) DEFERRABLE INITIALLY DEFERRED,
      split_rules text,
      ruler_history text NOT NULL,
      manual_retry_count integer NOT NULL CHECK (manual_retry_count >= 0),
      last_manual_retry_at timestamptz,
      pix_auto_scheduled_end_to_end_id text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (subscription_id, cycle_number)
    )`
  yield* sql`CREATE INDEX billing_cycles_due_idx ON billing_cycles (status, issue_date)`
  yield* sql`ALTER TABLE charges ADD COLUMN subscription_id text REFERENCES subscriptions (id) DEFERRABLE INITIALLY DEFERRED`
  yield* sql`ALTER TABLE charges ADD COLUMN cycle_number integer`
  yield* sql`ALTER TABLE charges ADD CONSTRAINT charges_cycle_fk FOREIGN KEY (subscription_id, cycle_number)
    REFERENCES billing_cycles (subscription_id, cycle_number) DEFERRABLE INITIALLY DEFERRED`
  // At most one open charge per cycle: a second attempt waits until the first is settled.
  yield* sql`CREATE UNIQUE INDEX charges_open_cycle_idx ON charges (subscription_id, cycle_number)
    WHERE cycle_number IS NOT NULL AND status IN ('PENDING', 'PROCESSING', 'AWAITING_PAYMENT')`
  yield* sql`CREATE INDEX charges_subscription_idx ON charges (subscription_id) WHERE subscription_id IS NOT NULL`
  yield* sql`
    CREATE TABLE invoices (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      subscription_id text NOT NULL,
      cycle_number integer NOT NULL,
      invoice_number bigint NOT NULL,
      status text NOT NULL CHECK (status IN ('PENDING', 'AWAITING_PAYMENT', 'OVERDUE', 'PAID', 'CANCELED', 'EXPIRED', 'UNCOLLECTIBLE')),
      payment_type text NOT NULL CHECK (payment_type IN ('PIX', 'BOLETO', 'CREDIT_CARD')),
      due_date date NOT NULL,
      paid_at timestamptz,
      canceled_at timestamptz,
      discount_cents bigint NOT NULL CHECK (discount_cents >= 0),
      total_cents bigint NOT NULL CHECK (total_cents >= 0),
      charge_id text REFERENCES charges (id) DEFERRABLE INITIALLY DEFERRED,
      created_at timestamptz NOT NULL,
      FOREIGN KEY (subscription_id, cycle_number) REFERENCES billing_cycles (subscription_id, cycle_number),
      UNIQUE (account_id, invoice_number)
    )`
  // Histories of a subscription (plan, payment method, due date changes): appended, never edited.
  yield* sql`
    CREATE TABLE subscription_changes (
      subscription_id text NOT NULL REFERENCES subscriptions (id),
      position integer NOT NULL,
      kind text NOT NULL CHECK (kind IN ('PLAN', 'PAYMENT_METHOD', 'DUE_DATE')),
      body text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (subscription_id, position)
    )`
  // Invoice numbers run per account; the counter row serializes the numbering of one account only.
  yield* sql`CREATE TABLE invoice_counters (account_id text PRIMARY KEY REFERENCES accounts (id), last_number bigint NOT NULL)`
  yield* sql`CREATE INDEX invoices_cycle_idx ON invoices (subscription_id, cycle_number)`
  yield* sql`
    CREATE TABLE invoice_lines (
      invoice_id text NOT NULL REFERENCES invoices (id),
      position integer NOT NULL CHECK (position >= 0),
      name text NOT NULL,
      product_name text,
      plan_name text,
      type text NOT NULL CHECK (type IN ('RECURRING', 'ONE_TIME', 'PRORATA', 'PRORATA_UPGRADE', 'CREDIT')),
      origin text NOT NULL,
      unit_amount_cents bigint NOT NULL,
      quantity integer NOT NULL CHECK (quantity >= 1),
      net_amount_cents bigint NOT NULL CHECK ((type = 'CREDIT') = (net_amount_cents < 0) OR net_amount_cents = 0),
      price_id text,
      product_id text,
      PRIMARY KEY (invoice_id, position)
    )`
  // An invoice balances: its lines less its discount are its total. Checked at
  // commit, once the invoice and all its lines are written, for every invoice
  // an insert or change touched.
  yield* sql`
    CREATE FUNCTION invoice_balances() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      target text := to_jsonb(NEW) ->> TG_ARGV[0];
      lines bigint;
      expected bigint;
    BEGIN
      SELECT coalesce(sum(net_amount_cents), 0) INTO lines FROM invoice_lines WHERE invoice_id = target;
      SELECT total_cents + discount_cents INTO expected FROM invoices WHERE id = target;
      IF expected IS DISTINCT FROM lines THEN
        RAISE EXCEPTION 'invoice % does not balance: lines % against total plus discount %', target, lines, expected
          USING ERRCODE = 'check_violation';
      END IF;
      RETURN NULL;
    END $$`
  yield* sql`CREATE CONSTRAINT TRIGGER invoices_balance AFTER INSERT OR UPDATE ON invoices
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION invoice_balances('id')`
  yield* sql`CREATE CONSTRAINT TRIGGER invoice_lines_balance AFTER INSERT OR UPDATE ON invoice_lines
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION invoice_balances('invoice_id')`
  // Lines are written once with their invoice: never changed (a move to another invoice would unbalance the first) nor deleted.
  yield* sql`CREATE FUNCTION invoice_lines_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'invoice lines are never changed or deleted' USING ERRCODE = 'check_violation';
    END $$`
  yield* sql`CREATE TRIGGER invoice_lines_frozen BEFORE UPDATE OR DELETE ON invoice_lines FOR EACH ROW EXECUTE FUNCTION invoice_lines_frozen()`
})

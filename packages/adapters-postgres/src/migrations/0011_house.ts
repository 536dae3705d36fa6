import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The database enforces the states the core's schemas allow: a `CHECK` on
 * every status and kind column that had none. Split parts of a charge move
 * from a JSON text column into rows with foreign keys to the charge and to
 * the receiving account, so a split can never name an account that does not
 * exist. The outbox's `created_at` loses its `now()` default: the engine
 * writes the instant of its Clock.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE charges ADD CONSTRAINT charges_status_check CHECK (status IN (
    'PENDING', 'PROCESSING', 'AWAITING_PAYMENT', 'PAID', 'FAILED', 'EXPIRED', 'CANCELED', 'ARCHIVED',
    'DISPUTE', 'REFUNDED', 'PARTIALLY_REFUNDED', 'CHARGED_BACK'))`
  yield* sql`ALTER TABLE prices ADD CONSTRAINT prices_recurrence_type_check CHECK (recurrence_type IN (
    'ONE_TIME', 'DAILY', 'WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'YEARLY'))`
  yield* sql`ALTER TABLE checkout_links ADD CONSTRAINT checkout_links_status_check CHECK (
    (kind = 'link' AND status IN ('ACTIVE', 'INACTIVE')) OR (kind = 'session' AND status IN ('PENDING', 'completed')))`
  yield* sql`ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN (
    'oneoff.pix.generated', 'oneoff.payment.success', 'oneoff.payment.failed', 'new.sale'))`
  yield* sql`ALTER TABLE outbox ALTER COLUMN created_at DROP DEFAULT`
  yield* sql`
    CREATE TABLE charge_splits (
      charge_id text NOT NULL REFERENCES charges (id),
      position integer NOT NULL CHECK (position >= 0),
      account_id text NOT NULL REFERENCES accounts (id),
      account_number text NOT NULL,
      type text NOT NULL CHECK (type IN ('fixed', 'percentage')),
      value bigint NOT NULL CHECK (value > 0),
      amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
      PRIMARY KEY (charge_id, position)
    )`
  yield* sql`CREATE INDEX charge_splits_account_idx ON charge_splits (account_id)`
  yield* sql`
    INSERT INTO charge_splits (charge_id, position, account_id, account_number, type, value, amount_cents)
    SELECT c.id, p.ordinality - 1, p.part->>'accountId', p.part->>'accountNumber', p.part->>'type',
      (p.part->>'value')::bigint, (p.part->>'amount')::bigint
    FROM charges c, jsonb_array_elements(c.split::jsonb) WITH ORDINALITY AS p (part, ordinality)
    WHERE c.split IS NOT NULL`
  yield* sql`ALTER TABLE charges DROP COLUMN split`
})

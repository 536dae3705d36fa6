import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Coupons and their redemptions. `current_redemptions` only grows through a
 * conditional UPDATE, and the CHECK keeps it within `max_redemptions` even if
 * some caller forgot the condition.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE coupons (
      id text PRIMARY KEY,
      seq bigserial NOT NULL UNIQUE,
      account_id text NOT NULL REFERENCES accounts (id),
      code text NOT NULL,
      name text NOT NULL,
      description text,
      discount_type text NOT NULL CHECK (discount_type IN ('PERCENTAGE', 'FIXED', 'EXTRA_PERIOD')),
      discount_value bigint NOT NULL CHECK (discount_value > 0),
      extra_period_unit text CHECK (extra_period_unit IN ('DAYS', 'MONTHS')),
      max_cycles integer,
      max_redemptions integer,
      current_redemptions integer NOT NULL DEFAULT 0,
      min_amount_cents bigint,
      max_discount_cents bigint,
      valid_from timestamptz,
      valid_until timestamptz,
      product_ids text NOT NULL,
      first_time_only boolean NOT NULL,
      applies_to text CHECK (applies_to IN ('RECURRING', 'ONE_TIME')),
      status text NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED', 'INACTIVE')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (max_redemptions IS NULL OR current_redemptions <= max_redemptions)
    )`
  yield* sql`CREATE UNIQUE INDEX coupons_code_idx ON coupons (account_id, upper(code))`
  yield* sql`CREATE INDEX coupons_code_lookup_idx ON coupons (upper(code))`
  yield* sql`
    CREATE TABLE coupon_redemptions (
      coupon_id text NOT NULL REFERENCES coupons (id),
      customer_document text,
      reference text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (coupon_id, reference)
    )`
  yield* sql`CREATE INDEX coupon_redemptions_customer_idx ON coupon_redemptions (coupon_id, customer_document)`
})

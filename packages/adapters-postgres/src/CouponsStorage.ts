/** Coupons and redemptions on `effect/sql`; redemption is a conditional increment. */
import { Coupon, Coupons } from "@billing/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { accountIdsOf, CentsColumn, decodeRows, EpochMillisColumn, Int8, withoutSeq, withSeq } from "./Rows.ts"
import { containsPattern, orDie } from "./Statements.ts"

/** A coupon row: the entity with its centavos as `bigint`, its validity as instants and its price ids as JSON text; `seq` is the cursor. */
const CouponRow = withSeq({
  ...Coupon.fields,
  discountValue: Int8,
  minAmount: Schema.NullOr(CentsColumn),
  maxDiscount: Schema.NullOr(CentsColumn),
  validFrom: Schema.NullOr(EpochMillisColumn),
  validUntil: Schema.NullOr(EpochMillisColumn),
  productIds: Schema.fromJsonString(Coupon.fields.productIds)
})
const decodeCoupons = decodeRows(CouponRow)

export const CouponsStorageLive = Layer.effect(Coupons, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql`id, seq::text AS seq, account_id AS "accountId", code, name, description, discount_type AS "discountType",
    discount_value AS "discountValue", extra_period_unit AS "extraPeriodUnit", max_cycles AS "maxCycles", max_redemptions AS "maxRedemptions",
    current_redemptions AS "currentRedemptions", min_amount_cents AS "minAmount", max_discount_cents AS "maxDiscount",
    valid_from AS "validFrom", valid_until AS "validUntil", product_ids AS "productIds", first_time_only AS "firstTimeOnly",
    applies_to AS "appliesTo", status, created_at AS "createdAt", updated_at AS "updatedAt"`
  const date = (ms: number | null) => (ms === null ? null : new Date(ms))
  // A code taken by another coupon of the account is an answer, not a failure: the
  // statements skip the row instead of raising, so the transaction stays usable.
  const changed = (rows: ReadonlyArray<unknown>) => rows.length > 0

  return Coupons.of({
    insert: (c) =>
      orDie(sql`INSERT INTO coupons (id, account_id, code, name, description, discount_type, discount_value, extra_period_unit,
          max_cycles, max_redemptions, current_redemptions, min_amount_cents, max_discount_cents, valid_from, valid_until, product_ids,
          first_time_only, applies_to, status, created_at, updated_at)
        VALUES (${c.id}, ${c.accountId}, ${c.code}, ${c.name}, ${c.description}, ${c.discountType}, ${c.discountValue}, ${c.extraPeriodUnit},
          ${c.maxCycles}, ${c.maxRedemptions}, ${c.currentRedemptions}, ${c.minAmount}, ${c.maxDiscount}, ${date(c.validFrom)},
          ${date(c.validUntil)}, ${JSON.stringify(c.productIds)}, ${c.firstTimeOnly}, ${c.appliesTo}, ${c.status}, ${c.createdAt}, ${c.updatedAt})
        ON CONFLICT (account_id, upper(code)) DO NOTHING RETURNING id`).pipe(Effect.map(changed)),
    update: (c) =>
      orDie(sql`UPDATE coupons SET code = ${c.code}, name = ${c.name}, description = ${c.description},
          discount_type = ${c.discountType}, discount_value = ${c.discountValue}, extra_period_unit = ${c.extraPeriodUnit},
          max_cycles = ${c.maxCycles}, max_redemptions = ${c.maxRedemptions}, min_amount_cents = ${c.minAmount},
          max_discount_cents = ${c.maxDiscount}, valid_from = ${date(c.validFrom)}, valid_until = ${date(c.validUntil)},
          product_ids = ${JSON.stringify(c.productIds)}, first_time_only = ${c.firstTimeOnly}, applies_to = ${c.appliesTo},
          status = ${c.status}, updated_at = ${c.updatedAt}
        WHERE account_id = ${c.accountId} AND id = ${c.id}
          AND NOT EXISTS (SELECT 1 FROM coupons other WHERE other.account_id = ${c.accountId} AND upper(other.code) = upper(${c.code}) AND other.id <> ${c.id})
        RETURNING id`).pipe(Effect.map(changed)),
    find: (accountId, id) =>
      orDie(sql`SELECT ${columns} FROM coupons WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.flatMap(decodeCoupons),
        Effect.map((rows) => Option.fromNullishOr(withoutSeq(rows)[0]))
      ),
    findByCode: (accountId, code) =>
      orDie(sql`SELECT ${columns} FROM coupons WHERE account_id = ${accountId} AND upper(code) = upper(${code}) LIMIT 2`).pipe(Effect.flatMap(decodeCoupons), Effect.map(withoutSeq)),
    accountsWithCode: (code) =>
      orDie(sql`SELECT DISTINCT account_id AS "accountId" FROM coupons WHERE upper(code) = upper(${code}) LIMIT 2`).pipe(Effect.flatMap(accountIdsOf)),
    list: (accountId, q) =>
      Effect.gen(function*() {
        const pattern = q.search === null ? null : containsPattern(q.search)
        const filters = sql`account_id = ${accountId}
          ${q.status === null ? sql`` : sql`AND status = ${q.status}`}
          ${pattern === null ? sql`` : sql`AND (name ILIKE ${pattern} OR code ILIKE ${pattern})`}`
        const cursor = beforeCursor(sql, q.after)
        const [count] = yield* orDie(sql<{ n: string }>`SELECT count(*)::text AS n FROM coupons WHERE ${filters}`)
        const rows = yield* decodeCoupons(yield* orDie(sql`SELECT ${columns} FROM coupons WHERE ${filters} ${cursor} ORDER BY seq DESC LIMIT ${q.limit + 1}`))
        const page = rows.slice(0, q.limit)
        return { items: withoutSeq(page), total: Number(count?.n ?? 0), lastKey: rows.length > q.limit ? page[page.length - 1]!.seq : null }
      }),
    remove: (accountId, id) => orDie(sql`DELETE FROM coupons WHERE account_id = ${accountId} AND id = ${id} AND current_redemptions = 0`),
    redeem: (couponId, r) =>
      sql.withTransaction(Effect.gen(function*() {
        const inserted = yield* sql<{ coupon_id: string }>`INSERT INTO coupon_redemptions (coupon_id, customer_document, reference, created_at)
          VALUES (${couponId}, ${r.customerDocument}, ${r.reference}, ${r.at}) ON CONFLICT DO NOTHING RETURNING coupon_id`
        if (inserted.length === 0) return false
        const counted = yield* sql<{ id: string }>`UPDATE coupons SET current_redemptions = current_redemptions + 1
          WHERE id = ${couponId} AND (max_redemptions IS NULL OR current_redemptions < max_redemptions) RETURNING id`
        // No room left: undo the redemption row with the rest of the transaction.
        if (counted.length === 0) return yield* Effect.fail("exhausted" as const)
        return true
      })).pipe(
        Effect.catch((e) => (e === "exhausted" ? Effect.succeed(false) : Effect.die(e)))
      ),
    release: (couponId, reference) =>
      orDie(sql`WITH gone AS (DELETE FROM coupon_redemptions WHERE coupon_id = ${couponId} AND reference = ${reference} RETURNING coupon_id)
        UPDATE coupons SET current_redemptions = current_redemptions - 1 WHERE id IN (SELECT coupon_id FROM gone)`),
    releaseFor: (reference) =>
      orDie(sql`WITH gone AS (DELETE FROM coupon_redemptions WHERE reference = ${reference} RETURNING coupon_id)
        UPDATE coupons SET current_redemptions = current_redemptions - (SELECT count(*) FROM gone WHERE gone.coupon_id = coupons.id)
        WHERE id IN (SELECT coupon_id FROM gone)`),
    hasRedeemed: (couponId, document) =>
      orDie(sql<{ n: number }>`SELECT 1 AS n FROM coupon_redemptions WHERE coupon_id = ${couponId} AND customer_document = ${document} LIMIT 1`).pipe(
        Effect.map((rows) => rows.length > 0)
      )
  })
}))

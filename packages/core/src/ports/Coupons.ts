import { Context, type Effect, type Option } from "effect"
import type { Coupon } from "../domain/Coupon.ts"
import type { AccountId, CouponId } from "../domain/Ids.ts"

/** Coupons of an account and their redemptions. */
export class Coupons extends Context.Service<Coupons, {
  /** Inserts the coupon; `false` when the account already has its code. */
  readonly insert: (coupon: Coupon) => Effect.Effect<boolean>
  /** Replaces the coupon's fields; `false` when another coupon of the account has the new code. */
  readonly update: (coupon: Coupon) => Effect.Effect<boolean>
  readonly find: (accountId: AccountId, id: CouponId) => Effect.Effect<Option.Option<Coupon>>
  /** The account's coupons with this code (case-insensitive; at most one, codes are unique per account). */
  readonly findByCode: (accountId: AccountId, code: string) => Effect.Effect<ReadonlyArray<Coupon>>
  /**
   * The accounts that have a coupon with this code (case-insensitive), at
   * most two: the public validation needs the one, or to know there are
   * several.
   */
  readonly accountsWithCode: (code: string) => Effect.Effect<ReadonlyArray<AccountId>>
  readonly list: (
    accountId: AccountId,
    query: { readonly limit: number; readonly after: string | null; readonly status: string | null; readonly search: string | null }
  ) => Effect.Effect<{ readonly items: ReadonlyArray<Coupon>; readonly total: number; readonly lastKey: string | null }>
  readonly remove: (accountId: AccountId, id: CouponId) => Effect.Effect<void>
  /**
   * Counts one redemption if the coupon still has room (a conditional
   * increment, so `maxRedemptions` holds under any concurrency); `false`
   * when it is exhausted or `reference` was already counted.
   */
  readonly redeem: (couponId: CouponId, redemption: { readonly customerDocument: string | null; readonly reference: string; readonly at: Date }) => Effect.Effect<boolean>
  /** Gives back the redemption of `reference` (a purchase that did not go through). */
  readonly release: (couponId: CouponId, reference: string) => Effect.Effect<void>
  /** Releases whatever coupon use was made for `reference` (a charge whose coupon its record does not name): none, or one. */
  readonly releaseFor: (reference: string) => Effect.Effect<void>
  readonly hasRedeemed: (couponId: CouponId, customerDocument: string) => Effect.Effect<boolean>
}>()("@billing/core/ports/Coupons") {}

/**
 * Coupon validation and discount (spec: Coupon, Coupons). One pure function
 * gives the answer of `POST /v1/coupons/validate` and the discount checkout
 * applies, so the two can never disagree.
 */
import type { Coupon } from "../domain/Coupon.ts"
import { type Cents, cents } from "../money/Money.ts"
import { percentOf, roundDown } from "../money/Rounding.ts"

export type CouponDiscountType = Coupon["discountType"]
export type CouponStatus = Coupon["status"]
export type ChargeType = NonNullable<Coupon["appliesTo"]>

/** What of a coupon the rules judge (see `domain/Coupon.ts` for the fields). */
export type CouponRules = Pick<
  Coupon,
  | "discountType"
  | "discountValue"
  | "maxDiscount"
  | "minAmount"
  | "maxRedemptions"
  | "currentRedemptions"
  | "validFrom"
  | "validUntil"
  | "productIds"
  | "firstTimeOnly"
  | "appliesTo"
  | "status"
>

export interface CouponRequest {
  readonly amount?: Cents | undefined
  readonly productIds?: ReadonlyArray<string> | undefined
  readonly chargeType?: ChargeType | undefined
  /** Whether this customer (by document) has already redeemed the coupon. */
  readonly alreadyUsedByCustomer?: boolean | undefined
}

export type CouponRefusal =
  | "COUPON_NOT_FOUND"
  | "COUPON_INACTIVE"
  | "COUPON_NOT_STARTED"
  | "COUPON_EXPIRED"
  | "COUPON_EXHAUSTED"
  | "COUPON_NOT_APPLICABLE"
  | "PRODUCT_NOT_ELIGIBLE"
  | "MIN_AMOUNT_NOT_MET"
  | "COUPON_ALREADY_USED"

export type CouponVerdict =
  | { readonly valid: true; readonly discount: Cents }
  | { readonly valid: false; readonly reason: CouponRefusal }

/**
 * Validates a coupon at instant `now`. Exactly one reason is given, in this
 * order of precedence: the coupon itself first (not found, not active —
 * `PAUSED` counts as inactive —, not started, expired, exhausted), then the
 * purchase (charge type, products, minimum amount), then the customer
 * (first-time only). A request that omits `amount` or `productIds` is not
 * checked against the rules that need them.
 */
export const validateCoupon = (coupon: CouponRules | undefined, request: CouponRequest, now: number): CouponVerdict => {
  const refuse = (reason: CouponRefusal): CouponVerdict => ({ valid: false, reason })
  if (coupon === undefined) return refuse("COUPON_NOT_FOUND")
  if (coupon.status !== "ACTIVE") return refuse("COUPON_INACTIVE")
  if (coupon.validFrom !== null && now < coupon.validFrom) return refuse("COUPON_NOT_STARTED")
  if (coupon.validUntil !== null && now > coupon.validUntil) return refuse("COUPON_EXPIRED")
  if (coupon.maxRedemptions !== null && coupon.currentRedemptions >= coupon.maxRedemptions) return refuse("COUPON_EXHAUSTED")
  const chargeType = request.chargeType ?? "RECURRING"
  if (coupon.appliesTo !== null && coupon.appliesTo !== chargeType) return refuse("COUPON_NOT_APPLICABLE")
  if (request.productIds !== undefined && coupon.productIds.length > 0) {
    // A request names prices as its client sent them, not yet known to be any price.
    const eligible: ReadonlySet<string> = new Set(coupon.productIds)
    if (!request.productIds.some((id) => eligible.has(id))) return refuse("PRODUCT_NOT_ELIGIBLE")
  }
  if (request.amount !== undefined && coupon.minAmount !== null && request.amount < coupon.minAmount) {
    return refuse("MIN_AMOUNT_NOT_MET")
  }
  if (coupon.firstTimeOnly && request.alreadyUsedByCustomer) return refuse("COUPON_ALREADY_USED")
  return { valid: true, discount: request.amount === undefined ? cents(0) : couponDiscount(coupon, request.amount) }
}

/**
 * The discount of a coupon on `amount`. Rounding point: a percentage is
 * rounded down. The discount never exceeds `maxDiscount`, and never takes the
 * amount below the minimum charge of 0.01. `EXTRA_PERIOD` gives no amount
 * discount: its effect is on the next charge.
 */
export const couponDiscount = (coupon: Pick<CouponRules, "discountType" | "discountValue" | "maxDiscount">, amount: Cents): Cents => {
  if (coupon.discountType === "EXTRA_PERIOD" || amount <= 1) return cents(0)
  let discount = coupon.discountType === "PERCENTAGE"
    ? percentOf(amount, coupon.discountValue, roundDown)
    : cents(coupon.discountValue)
  if (coupon.maxDiscount !== null) discount = cents(Math.min(discount, coupon.maxDiscount))
  return cents(Math.max(0, Math.min(discount, amount - 1)))
}

/**
 * `amount` with the coupon applied: the discount (`couponDiscount`) and what
 * is left to pay, which add up to `amount`.
 */
export const applyCoupon = (
  coupon: Pick<CouponRules, "discountType" | "discountValue" | "maxDiscount">,
  amount: Cents
): { readonly discount: Cents; readonly amount: Cents } => {
  const discount = couponDiscount(coupon, amount)
  return { discount, amount: cents(amount - discount) }
}

import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { PriceId } from "../../src/domain/Ids.ts"
import { cents } from "../../src/money/Money.ts"
import { applyCoupon, couponDiscount, type CouponRules, validateCoupon } from "../../src/rules/Coupons.ts"
import { applyDiscounts, discountApplies } from "../../src/rules/Discounts.ts"

const NOW = Date.UTC(2026, 10, 22)
const base: CouponRules = {
  discountType: "PERCENTAGE",
  discountValue: 1000, // 10%
  maxDiscount: null,
  minAmount: null,
  maxRedemptions: null,
  currentRedemptions: 0,
  validFrom: null,
  validUntil: null,
  productIds: [],
  firstTimeOnly: false,
  appliesTo: null,
  status: "ACTIVE"
}

describe("coupon validation", () => {
  it("gives the discount of a valid coupon: 10% of 200.00 is 20.00", () => {
    expect(validateCoupon(base, { amount: cents(20000) }, NOW)).toEqual({ valid: true, discount: 2000 })
  })

  it("answers each reason of the spec", () => {
    const cases: Array<[CouponRules | undefined, Parameters<typeof validateCoupon>[1], string]> = [
      [undefined, {}, "COUPON_NOT_FOUND"],
      [{ ...base, status: "INACTIVE" }, {}, "COUPON_INACTIVE"],
      [{ ...base, status: "PAUSED" }, {}, "COUPON_INACTIVE"],
      [{ ...base, validFrom: NOW + 1 }, {}, "COUPON_NOT_STARTED"],
      [{ ...base, validUntil: NOW - 1 }, {}, "COUPON_EXPIRED"],
      [{ ...base, maxRedemptions: 5, currentRedemptions: 5 }, {}, "COUPON_EXHAUSTED"],
      [{ ...base, appliesTo: "ONE_TIME" }, {}, "COUPON_NOT_APPLICABLE"], // chargeType defaults to RECURRING
      [{ ...base, productIds: [PriceId.make("price_a")] }, { productIds: ["price_b"] }, "PRODUCT_NOT_ELIGIBLE"],
      [{ ...base, minAmount: cents(5000) }, { amount: cents(4999) }, "MIN_AMOUNT_NOT_MET"],
      [{ ...base, firstTimeOnly: true }, { alreadyUsedByCustomer: true }, "COUPON_ALREADY_USED"]
    ]
    for (const [coupon, request, reason] of cases) expect(validateCoupon(coupon, request, NOW)).toEqual({ valid: false, reason })
  })

  it("answers the first reason in the documented order when several apply", () => {
    const everythingWrong: CouponRules = {
      ...base,
      status: "PAUSED",
      validUntil: NOW - 1,
      maxRedemptions: 1,
      currentRedemptions: 1,
      minAmount: cents(100_000)
    }
    expect(validateCoupon(everythingWrong, { amount: cents(1) }, NOW)).toEqual({ valid: false, reason: "COUPON_INACTIVE" })
    expect(validateCoupon({ ...everythingWrong, status: "ACTIVE" }, { amount: cents(1) }, NOW)).toEqual({ valid: false, reason: "COUPON_EXPIRED" })
  })

  it("is valid from its first instant to its last one, and before it runs out", () => {
    expect(validateCoupon({ ...base, validFrom: NOW }, {}, NOW)).toEqual({ valid: true, discount: 0 })
    expect(validateCoupon({ ...base, validFrom: NOW - 1 }, {}, NOW).valid).toBe(true)
    expect(validateCoupon({ ...base, validUntil: NOW }, {}, NOW).valid).toBe(true)
    expect(validateCoupon({ ...base, validUntil: NOW + 1 }, {}, NOW).valid).toBe(true)
    // 4 of 5 redemptions used: one left.
    expect(validateCoupon({ ...base, maxRedemptions: 5, currentRedemptions: 4 }, {}, NOW).valid).toBe(true)
  })

  it("applies to the charge type it names, recurring when the request names none", () => {
    expect(validateCoupon({ ...base, appliesTo: "RECURRING" }, {}, NOW).valid).toBe(true)
    expect(validateCoupon({ ...base, appliesTo: "ONE_TIME" }, { chargeType: "ONE_TIME" }, NOW).valid).toBe(true)
    expect(validateCoupon({ ...base, appliesTo: "RECURRING" }, { chargeType: "ONE_TIME" }, NOW)).toEqual({ valid: false, reason: "COUPON_NOT_APPLICABLE" })
  })

  it("takes one eligible product among others; a coupon without a product list takes any; a request without products is not checked", () => {
    const forA = { ...base, productIds: [PriceId.make("price_a"), PriceId.make("price_c")] }
    expect(validateCoupon(forA, { productIds: ["price_b", "price_a"] }, NOW).valid).toBe(true)
    expect(validateCoupon(base, { productIds: ["price_b"] }, NOW).valid).toBe(true)
    expect(validateCoupon(forA, {}, NOW).valid).toBe(true)
    expect(validateCoupon(forA, { productIds: [] }, NOW)).toEqual({ valid: false, reason: "PRODUCT_NOT_ELIGIBLE" })
  })

  it("accepts an amount equal to the minimum, and does not check a request without an amount", () => {
    // 10% of exactly the 50.00 minimum: 5.00.
    expect(validateCoupon({ ...base, minAmount: cents(5000) }, { amount: cents(5000) }, NOW)).toEqual({ valid: true, discount: 500 })
    expect(validateCoupon({ ...base, minAmount: cents(5000) }, {}, NOW)).toEqual({ valid: true, discount: 0 })
  })

  it("lets a returning customer use a coupon that is not for first purchases only, and a new one use one that is", () => {
    expect(validateCoupon(base, { alreadyUsedByCustomer: true }, NOW).valid).toBe(true)
    expect(validateCoupon({ ...base, firstTimeOnly: true }, { alreadyUsedByCustomer: false }, NOW).valid).toBe(true)
  })

  it("caps percentage coupons at maxDiscount, fixed ones at the amount minus 0.01; EXTRA_PERIOD gives none", () => {
    // 50% of 300.00 = 150.00, capped at 100.00.
    expect(couponDiscount({ discountType: "PERCENTAGE", discountValue: 5000, maxDiscount: cents(10000) }, cents(30000))).toBe(10000)
    // Fixed 50.00 on a 30.00 order leaves the minimum charge 0.01: discount 29.99.
    expect(couponDiscount({ discountType: "FIXED", discountValue: 5000, maxDiscount: null }, cents(3000))).toBe(2999)
    expect(couponDiscount({ discountType: "EXTRA_PERIOD", discountValue: 1, maxDiscount: null }, cents(3000))).toBe(0)
  })

  it("a percentage coupon never exceeds maxDiscount nor leaves less than 0.01 (law)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 10_000_000_000 }),
      fc.integer({ min: 1, max: 10_000 }),
      fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
      (amount, pct, max) => {
        const d = couponDiscount({ discountType: "PERCENTAGE", discountValue: pct, maxDiscount: max === null ? null : cents(max) }, cents(amount))
        expect(d).toBeGreaterThanOrEqual(0)
        if (max !== null) expect(d).toBeLessThanOrEqual(max)
        expect(d).toBeLessThanOrEqual(Math.floor((amount * pct) / 10_000))
        expect(amount - d).toBeGreaterThanOrEqual(1)
      }
    ))
  })
})

describe("coupon applied to an amount", () => {
  it("leaves the amount minus the discount: 10% off 180.00 is 162.00; fixed 10.00 off 162.00 is 152.00", () => {
    expect(applyCoupon({ discountType: "PERCENTAGE", discountValue: 1000, maxDiscount: null }, cents(18000))).toEqual({ discount: 1800, amount: 16200 })
    expect(applyCoupon({ discountType: "FIXED", discountValue: 1000, maxDiscount: null }, cents(16200))).toEqual({ discount: 1000, amount: 15200 })
    // Fixed 50.00 on 30.00: the buyer still pays the minimum charge, 0.01.
    expect(applyCoupon({ discountType: "FIXED", discountValue: 5000, maxDiscount: null }, cents(3000))).toEqual({ discount: 2999, amount: 1 })
  })

  it("discount + amount left = amount before, and what is left is at least 0.01 (law)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 10_000_000_000 }),
      fc.constantFrom("PERCENTAGE" as const, "FIXED" as const, "EXTRA_PERIOD" as const),
      fc.integer({ min: 0, max: 10_000 }),
      fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
      (amount, discountType, value, max) => {
        const applied = applyCoupon({ discountType, discountValue: value, maxDiscount: max === null ? null : cents(max) }, cents(amount))
        expect(applied.discount + applied.amount).toBe(amount)
        expect(applied.discount).toBeGreaterThanOrEqual(0)
        expect(applied.amount).toBeGreaterThanOrEqual(1)
      }
    ))
  })
})

describe("charge discounts", () => {
  it("applies entries by payment method and cycle range, on the original amount", () => {
    // 100.00, cycle 2 by pix: 10% (cycles 1-3) → 10.00 and fixed 5.00 (pix) → total 15.00; the boleto entry does not apply.
    const result = applyDiscounts(cents(10000), [
      { type: "percentage", value: 1000, fromCycle: 1, toCycle: 3 },
      { type: "fixed", value: 500, paymentMethod: "pix" },
      { type: "fixed", value: 700, paymentMethod: "boleto" }
    ], { cycle: 2, paymentMethod: "pix" })
    expect(result).toEqual({ discount: 1500, amount: 8500 })
    // durationMonths 2 from cycle 1 covers cycles 1 and 2 only.
    expect(applyDiscounts(cents(10000), [{ type: "percentage", value: 1000, durationMonths: 2 }], { cycle: 3, paymentMethod: "pix" }).discount).toBe(0)
  })

  it("takes a percentage of the amount and a fixed value in centavos: 10% of 50.00 is 5.00, fixed 10.00 is 10.00", () => {
    expect(applyDiscounts(cents(5000), [{ type: "percentage", value: 1000 }], { cycle: 1, paymentMethod: "pix" })).toEqual({ discount: 500, amount: 4500 })
    expect(applyDiscounts(cents(5000), [{ type: "fixed", value: 1000 }], { cycle: 1, paymentMethod: "pix" })).toEqual({ discount: 1000, amount: 4000 })
  })

  it("covers its cycle range, both ends included, and durationMonths cycles from fromCycle", () => {
    const covered = (discount: Parameters<typeof discountApplies>[0]) => [1, 2, 3, 4, 5, 6].filter((cycle) => discountApplies(discount, cycle, "pix"))
    expect(covered({ type: "fixed", value: 100, fromCycle: 2, toCycle: 4 })).toEqual([2, 3, 4])
    // From cycle 3 for 2 months: cycles 3 and 4.
    expect(covered({ type: "fixed", value: 100, fromCycle: 3, durationMonths: 2 })).toEqual([3, 4])
    expect(covered({ type: "fixed", value: 100, fromCycle: 5 })).toEqual([5, 6])
    // The method is compared without case: PIX is pix.
    expect(discountApplies({ type: "fixed", value: 100, paymentMethod: "PIX" }, 1, "pix")).toBe(true)
  })

  it("never takes the amount below 0.01 (law)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1_000_000 }),
      fc.array(fc.record({ type: fc.constantFrom("percentage" as const, "fixed" as const), value: fc.integer({ min: 0, max: 20_000 }) }), { maxLength: 5 }),
      (amount, discounts) => {
        const { discount, amount: left } = applyDiscounts(cents(amount), discounts.map((d) => ({ ...d, value: d.type === "percentage" ? Math.min(d.value, 10_000) : d.value })), { cycle: 1, paymentMethod: "pix" })
        expect(discount).toBeGreaterThanOrEqual(0)
        expect(left).toBeGreaterThanOrEqual(1)
        expect(discount + left).toBe(amount)
      }
    ))
  })
})

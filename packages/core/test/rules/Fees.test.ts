import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cents } from "../../src/money/Money.ts"
import { computeFees, DEFAULT_PIX_TRANSFER_FEE, DEFAULT_SUBACCOUNT_PIX_FEE, NO_FEES, SUBACCOUNT_OPENING_FEE } from "../../src/rules/Fees.ts"
import { DEFAULT_INSTALLMENT_SURCHARGE, planInstallments } from "../../src/rules/Installments.ts"
import { Result } from "effect"

describe("fees", () => {
  it("adds a fixed part and a percentage rounded half up", () => {
    // 100.00 at 0.49 + 3.99%: 3.99 + 0.49 = 4.48, net 95.52.
    const f = computeFees(cents(10000), { fixed: cents(49), percentHundredths: 399 })
    expect(f).toEqual({ gross: 10000, net: 9552, fees: { total: 448, fixed: 49, percentage: 399, percentageRate: 3.99 } })
    // Half up: 10.34 × 1.5% = 0.1551 → 0.16; 10.30 × 1.5% = 0.1545 → 0.15.
    expect(computeFees(cents(1034), { fixed: cents(0), percentHundredths: 150 }).fees.total).toBe(16)
    expect(computeFees(cents(1030), { fixed: cents(0), percentHundredths: 150 }).fees.total).toBe(15)
  })

  it("has the spec's defaults", () => {
    expect(DEFAULT_PIX_TRANSFER_FEE).toBe(47)
    expect(DEFAULT_SUBACCOUNT_PIX_FEE.fixed).toBe(67)
    expect(SUBACCOUNT_OPENING_FEE).toBe(1500)
  })

  it("charges nothing under a master account's default of no fees", () => {
    expect(computeFees(cents(10000), NO_FEES)).toEqual({ gross: 10000, net: 10000, fees: { total: 0, fixed: 0, percentage: 0, percentageRate: 0 } })
  })

  it("never makes the net negative: a 0.01 Pix with a 0.67 fee nets 0", () => {
    expect(computeFees(cents(1), DEFAULT_SUBACCOUNT_PIX_FEE)).toMatchObject({ net: 0, fees: { total: 1 } })
  })

  it("gross = fees + net, with 0 <= net <= gross (law)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), (gross, fixed, pct) => {
      const f = computeFees(cents(gross), { fixed: cents(fixed), percentHundredths: pct })
      expect(f.fees.total + f.net).toBe(gross)
      expect(f.fees.fixed + f.fees.percentage).toBe(f.fees.total)
      expect(f.net).toBeGreaterThanOrEqual(0)
    }))
  })
})

describe("installments", () => {
  it("interest-free: 100.00 in 3 is 33.34 + 33.33 + 33.33, the first taking the difference", () => {
    const plan = Result.getOrThrow(planInstallments({ amount: cents(10000), installments: 3 }))
    expect(plan).toEqual({ installments: 3, total: 10000, surcharge: 0, amounts: [3334, 3333, 3333] })
  })

  it("passes the surcharge to the buyer beyond the free installments", () => {
    // 100.00 in 3x, default 2 × 1.99% = 3.98% → 3.98; total 103.98 = 34.66 + 34.66 + 34.66.
    const plan = Result.getOrThrow(planInstallments({ amount: cents(10000), installments: 3, passFeesToCustomer: true }))
    expect(plan.total).toBe(10398)
    expect(plan.amounts).toEqual([3466, 3466, 3466])
    // Within 3 free installments the buyer pays no surcharge.
    const free = Result.getOrThrow(planInstallments({ amount: cents(10000), installments: 3, freeInstallments: 3, passFeesToCustomer: true }))
    expect(free.total).toBe(10000)
  })

  it("has the default surcharge table: 1.99% per installment beyond the first, 21.89% at 12x", () => {
    // 2x … 12x: 1 × 1.99 … 11 × 1.99.
    expect(DEFAULT_INSTALLMENT_SURCHARGE.slice(1)).toEqual([0, 199, 398, 597, 796, 995, 1194, 1393, 1592, 1791, 1990, 2189])
    // 100.00 in 12x with the surcharge: 21.89; 121.89 / 12 = 10.1575 → 10.15 × 11 and 10.24.
    const plan = Result.getOrThrow(planInstallments({ amount: cents(10000), installments: 12, passFeesToCustomer: true }))
    expect(plan).toEqual({ installments: 12, total: 12189, surcharge: 2189, amounts: [1024, ...Array(11).fill(1015)] })
  })

  it("charges the surcharge from the first installment beyond the free ones", () => {
    // 4x with 3 free: the buyer pays 3 × 1.99% = 5.97% of 100.00.
    expect(Result.getOrThrow(planInstallments({ amount: cents(10000), installments: 4, freeInstallments: 3, passFeesToCustomer: true })).surcharge).toBe(597)
    // Not passed to the buyer: the merchant absorbs it.
    expect(Result.getOrThrow(planInstallments({ amount: cents(10000), installments: 4 })).surcharge).toBe(0)
  })

  it("accepts installments of exactly 0.01: 0.06 in 6", () => {
    expect(Result.getOrThrow(planInstallments({ amount: cents(6), installments: 6 })).amounts).toEqual([1, 1, 1, 1, 1, 1])
  })

  it("names the field it refuses and why", () => {
    const refusal = (input: Parameters<typeof planInstallments>[0]) => {
      const result = planInstallments(input)
      return Result.isFailure(result) ? { code: result.failure._tag, message: result.failure.message, details: result.failure.details } : undefined
    }
    const installments = { code: "INVALID_DATA", message: "installments must be 1 to 12", details: { field: "installments" } }
    expect(refusal({ amount: cents(10000), installments: 0 })).toEqual(installments)
    expect(refusal({ amount: cents(10000), installments: 2.5 })).toEqual(installments)
    const free = { code: "INVALID_DATA", message: "freeInstallments must be 0 to 12", details: { field: "freeInstallments" } }
    expect(refusal({ amount: cents(10000), installments: 2, freeInstallments: -1 })).toEqual(free)
    expect(refusal({ amount: cents(10000), installments: 2, freeInstallments: 13 })).toEqual(free)
    expect(refusal({ amount: cents(10000), installments: 2, freeInstallments: 1.5 })).toEqual(free)
    expect(refusal({ amount: cents(10000), installments: 2, freeInstallments: 0 })).toBeUndefined()
    expect(refusal({ amount: cents(10000), installments: 2, freeInstallments: 12 })).toBeUndefined()
    expect(refusal({ amount: cents(5), installments: 6 })).toEqual({
      code: "INVALID_DATA", message: "each installment must be at least 0.01", details: { field: "installments" }
    })
  })

  it("refuses 0 or 13 installments and installments below 0.01", () => {
    expect(Result.isFailure(planInstallments({ amount: cents(10000), installments: 0 }))).toBe(true)
    expect(Result.isFailure(planInstallments({ amount: cents(10000), installments: 13 }))).toBe(true)
    expect(Result.isFailure(planInstallments({ amount: cents(5), installments: 6 }))).toBe(true)
  })

  it("installments add up exactly to the total, differ by the rounding only, and are each >= 0.01 (law)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 12, max: 10_000_000_000 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 0, max: 12 }),
      fc.boolean(),
      (amount, n, free, pass) => {
        const plan = Result.getOrThrow(planInstallments({ amount: cents(amount), installments: n, freeInstallments: free, passFeesToCustomer: pass }))
        expect(plan.amounts).toHaveLength(n)
        expect(plan.amounts.reduce((a, b) => a + b, 0)).toBe(plan.total)
        expect(plan.total).toBe(amount + plan.surcharge)
        expect(plan.amounts[0]! - plan.amounts[n - 1]!).toBeLessThan(n)
        for (const a of plan.amounts) expect(a).toBeGreaterThanOrEqual(1)
      }
    ))
  })
})

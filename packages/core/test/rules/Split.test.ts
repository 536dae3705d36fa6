import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cents } from "../../src/money/Money.ts"
import { computeSplit, type SplitReceiver, validateSplit } from "../../src/rules/Split.ts"

describe("split examples", () => {
  it("takes percentages of the net amount, rounded down, and leaves the rest to the owner", () => {
    // net 100.00: 12.5% → 12.50; 10% → 10.00; fixed 5.00; owner keeps 100.00 − 27.50 = 72.50.
    const result = Result.getOrThrow(computeSplit(cents(10000), [
      { type: "percentage", percentHundredths: 1250, account: "A" },
      { type: "percentage", percentHundredths: 1000, account: "B" },
      { type: "fixed", amount: cents(500), account: "C" }
    ]))
    expect(result.parts.map((p) => p.amount)).toEqual([1250, 1000, 500])
    expect(result.ownerAmount).toBe(7250)
  })

  it("rounds a fractional centavo down: 33.33% of 10.00 is 3.33", () => {
    // 1000 × 3333 / 10000 = 333.3 → 333.
    const result = Result.getOrThrow(computeSplit(cents(1000), [{ type: "percentage", percentHundredths: 3333, account: "A" }]))
    expect(result.parts[0]!.amount).toBe(333)
    expect(result.ownerAmount).toBe(667)
  })

  it("refuses parts above the net amount with SPLIT_EXCEEDS_NET_AMOUNT", () => {
    // net 9.33 (10.00 − 0.67 fee): fixed 9.00 + 5% (0.46) = 9.46 > 9.33.
    const result = computeSplit(cents(933), [
      { type: "fixed", amount: cents(900), account: "A" },
      { type: "percentage", percentHundredths: 500, account: "B" }
    ])
    expect(Result.isFailure(result) && result.failure._tag).toBe("SPLIT_EXCEEDS_NET_AMOUNT")
  })

  it("refuses more than 20 receivers, percentages above 100 in all, and amounts under 0.01", () => {
    const many = Array.from({ length: 21 }, () => ({ type: "fixed" as const, amount: cents(1), account: "A" }))
    expect(Result.isFailure(validateSplit(many))).toBe(true)
    expect(Result.isFailure(validateSplit([
      { type: "percentage", percentHundredths: 6000, account: "A" },
      { type: "percentage", percentHundredths: 4001, account: "B" }
    ]))).toBe(true)
    expect(Result.isFailure(validateSplit([{ type: "fixed", amount: cents(0), account: "A" }]))).toBe(true)
    expect(Result.isSuccess(validateSplit([{ type: "percentage", percentHundredths: 10000, account: undefined }]))).toBe(true)
  })
})

const receiver: fc.Arbitrary<SplitReceiver<string>> = fc.oneof(
  fc.record({ type: fc.constant("fixed" as const), amount: fc.integer({ min: 1, max: 100_000 }).map(cents), account: fc.string() }),
  fc.record({ type: fc.constant("percentage" as const), percentHundredths: fc.integer({ min: 1, max: 10_000 }), account: fc.string() })
)

describe("split laws", () => {
  it("parts + owner remainder = net, each part >= 0.01 and never above net, whenever the split is accepted", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.array(receiver, { minLength: 1, maxLength: 20 }), (net, receivers) => {
      fc.pre(Result.isSuccess(validateSplit(receivers)))
      const result = computeSplit(cents(net), receivers)
      // The parts as the rule states them, computed here independently.
      const expected = receivers.map((r) => (r.type === "fixed" ? r.amount : Math.floor((net * r.percentHundredths) / 10_000)))
      if (Result.isFailure(result)) {
        if (result.failure._tag === "SPLIT_EXCEEDS_NET_AMOUNT") expect(expected.reduce((a, b) => a + b, 0)).toBeGreaterThan(net)
        else expect(expected.some((part) => part < 1)).toBe(true)
        return
      }
      expect(result.success.parts.map((p) => p.amount)).toEqual(expected)
      const { parts, ownerAmount } = result.success
      expect(parts.reduce((a, p) => a + p.amount, 0) + ownerAmount).toBe(net)
      expect(ownerAmount).toBeGreaterThanOrEqual(0)
      for (const p of parts) {
        expect(p.amount).toBeGreaterThanOrEqual(1)
        expect(p.amount).toBeLessThanOrEqual(net)
      }
    }), { numRuns: 2000 })
  })

  it("percentage-only splits within 100% never exceed the net amount", () => {
    fc.assert(fc.property(
      fc.integer({ min: 10_000, max: 100_000_000 }),
      fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 20 }),
      (net, percents) => {
        const result = computeSplit(cents(net), percents.map((p) => ({ type: "percentage" as const, percentHundredths: p, account: "x" })))
        expect(Result.isSuccess(result)).toBe(true)
      }
    ))
  })
})

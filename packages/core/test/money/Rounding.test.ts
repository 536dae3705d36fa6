import { Decimal } from "decimal.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cents } from "../../src/money/Money.ts"
import { percentOf, roundDown, roundHalfUp } from "../../src/money/Rounding.ts"

// Enough digits that a quotient of these sizes is never rounded before the rule under test.
const Exact = Decimal.clone({ precision: 60 })

describe("rounding half up", () => {
  it("rounds a half away from zero, whatever the signs", () => {
    // 1.5 → 2, 1.4 → 1, 0.5 → 1; −1.5 → −2, −1.4 → −1, −0.5 → −1.
    expect(roundHalfUp(15n, 10n)).toBe(2)
    expect(roundHalfUp(14n, 10n)).toBe(1)
    expect(roundHalfUp(5n, 10n)).toBe(1)
    expect(roundHalfUp(-15n, 10n)).toBe(-2)
    expect(roundHalfUp(-14n, 10n)).toBe(-1)
    expect(roundHalfUp(-5n, 10n)).toBe(-1)
    expect(roundHalfUp(15n, -10n)).toBe(-2)
    expect(roundHalfUp(-15n, -10n)).toBe(2)
    expect(roundHalfUp(0n, 7n)).toBe(0)
  })

  it("is the nearest integer, halves away from zero, for any signs (law)", () => {
    fc.assert(fc.property(
      fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
      fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }).filter((d) => d !== 0n),
      (n, d) => {
        const expected = new Exact(n.toString()).div(d.toString()).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber()
        expect(roundHalfUp(n, d) + 0).toBe(expected + 0)
      }
    ))
  })
})

describe("rounding down", () => {
  it("drops the fraction towards zero", () => {
    expect(roundDown(19n, 10n)).toBe(1)
    expect(roundDown(-19n, 10n)).toBe(-1)
  })
})

describe("percentages of an amount", () => {
  it("takes hundredths of a percent of the amount by the rule given: 3.99% of 10.34 is 0.412566 → 0.41", () => {
    expect(percentOf(cents(1034), 399, roundHalfUp)).toBe(41)
    // 12.5% of 0.99 = 0.12375: half up 0.12, down 0.12; 50% of 0.03 = 0.015: half up 0.02, down 0.01.
    expect(percentOf(cents(99), 1250, roundHalfUp)).toBe(12)
    expect(percentOf(cents(3), 5000, roundHalfUp)).toBe(2)
    expect(percentOf(cents(3), 5000, roundDown)).toBe(1)
  })
})

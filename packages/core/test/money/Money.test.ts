import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { allocateByWeights, allocateEvenly } from "../../src/money/Allocation.ts"
import { cents, parseReais, Reais, toDecimalString, toJsonNumber } from "../../src/money/Money.ts"
import { parsePercent } from "../../src/money/Rounding.ts"

const value = (r: Result.Result<number, unknown>) => (Result.isSuccess(r) ? r.success : undefined)

describe("parsing reais", () => {
  it("reads numbers and strings exactly into centavos", () => {
    expect(value(parseReais(10))).toBe(1000)
    expect(value(parseReais(10.5))).toBe(1050)
    expect(value(parseReais(0.01))).toBe(1)
    expect(value(parseReais("1234.56"))).toBe(123456)
    expect(value(parseReais(" 7.1 "))).toBe(710)
    expect(value(parseReais(1.15))).toBe(115) // 1.15 * 100 is 114.99999999999999 in floating point
  })

  it("refuses more than two decimals, floats that are not, NaN, infinities, negatives and exponents", () => {
    for (const bad of [10.005, 0.1 + 0.2, Number.NaN, Infinity, -1, "1e3", 1e-7, 1e21, "", "10,00", null, true]) {
      expect(Result.isFailure(parseReais(bad)), String(bad)).toBe(true)
    }
    expect(value(parseReais(-1, { allowNegative: true }))).toBe(-100)
  })

  it("the wire schema refuses amounts under 0.01 and prints reais back", () => {
    const decode = Schema.decodeUnknownResult(Reais)
    expect(Result.isFailure(decode(0))).toBe(true)
    expect(Result.isFailure(decode("0.00"))).toBe(true)
    expect(Result.getOrThrow(decode("0.01"))).toBe(1)
    expect(Schema.encodeSync(Reais)(cents(1050))).toBe(10.5)
  })

  it("round-trips every amount through its decimal text (law)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (c) => {
      expect(value(parseReais(toDecimalString(cents(c))))).toBe(c)
    }))
  })

  it("refuses every input with three or more decimals (law)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 9 }), (units, third) => {
      expect(Result.isFailure(parseReais(`${units}.00${third}`))).toBe(true)
    }))
  })
})

describe("printing reais", () => {
  it("prints two decimals, also inside JSON", () => {
    expect(toDecimalString(cents(1000))).toBe("10.00")
    expect(toDecimalString(cents(5))).toBe("0.05")
    expect(toDecimalString(cents(-5))).toBe("-0.05")
    expect(JSON.stringify({ amount: toJsonNumber(cents(1000)), fee: toJsonNumber(cents(67)) })).toBe('{"amount":10.00,"fee":0.67}')
  })
})

describe("percent parsing", () => {
  it("reads up to two decimals into hundredths", () => {
    expect(parsePercent(12.5)).toBe(1250)
    expect(parsePercent("0.99")).toBe(99)
    expect(parsePercent(100)).toBe(10000)
    expect(parsePercent(1.234)).toBeUndefined()
    expect(parsePercent(-1)).toBeUndefined()
  })
})

describe("allocation", () => {
  it("splits 100.00 in three as 33.34 + 33.33 + 33.33", () => {
    expect(allocateEvenly(cents(10000), 3)).toEqual([3334, 3333, 3333])
  })

  it("gives leftover centavos to the largest remainders", () => {
    // 1.00 by weights 1:1:1:2 → exact 0.20, 0.20, 0.20, 0.40: no leftover.
    expect(allocateByWeights(cents(100), [1, 1, 1, 2])).toEqual([20, 20, 20, 40])
    // 0.10 by 1:2 → 3.33…, 6.66…: floors 3 + 6 = 9; the larger remainder (6.66) gets the centavo.
    expect(allocateByWeights(cents(10), [1, 2])).toEqual([3, 7])
  })

  it("parts always add up to the total and stay within one centavo of the exact share (law)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 10_000_000_000 }),
      fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 30 }).filter((w) => w.some((x) => x > 0)),
      (total, weights) => {
        const parts = allocateByWeights(cents(total), weights)
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
        const sum = weights.reduce((a, b) => a + b, 0)
        parts.forEach((p, i) => expect(Math.abs(p - (total * weights[i]!) / sum)).toBeLessThan(1.000001))
      }
    ))
  })
})

import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { allocateByWeights, allocateEvenly } from "../../src/money/Allocation.ts"
import { cents, parseReais, Reais, ReaisJson, reaisSchema, toDecimalString, toJsonNumber, toReais } from "../../src/money/Money.ts"
import { parsePercent } from "../../src/money/Rounding.ts"

const value = (r: Result.Result<number, unknown>) => (Result.isSuccess(r) ? r.success : undefined)
const refusal = (r: Result.Result<unknown, { readonly message: string }>) => (Result.isFailure(r) ? r.failure.message : undefined)

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

  it("tells the client why an amount is refused: too many decimals is not the same mistake as a malformed number", () => {
    const decimals = "amount must be a multiple of 0.01 (at most two decimals)"
    const malformed = "amount must be a decimal number such as 10.00"
    expect(refusal(parseReais("10.005"))).toBe(decimals)
    expect(refusal(parseReais(10.005))).toBe(decimals)
    expect(refusal(parseReais("-1.001", { allowNegative: true }))).toBe(decimals)
    // String(1e-7) is "1e-7": a fraction of a centavo written with an exponent.
    expect(refusal(parseReais(1e-7))).toBe(decimals)
    // Brazilian thousands separators and decimal commas are malformed, not "too many decimals".
    expect(refusal(parseReais("1.234.567"))).toBe(malformed)
    expect(refusal(parseReais("1.234,56"))).toBe(malformed)
    expect(refusal(parseReais("10,00"))).toBe(malformed)
    expect(refusal(parseReais("1e3"))).toBe(malformed)
    expect(refusal(parseReais(Number.NaN))).toBe("amount must be a finite number")
    expect(refusal(parseReais(-Infinity))).toBe("amount must be a finite number")
    expect(refusal(parseReais(null))).toBe("amount must be a number")
    expect(refusal(parseReais(true))).toBe("amount must be a number")
    expect(refusal(parseReais(-1))).toBe("amount must not be negative")
    expect(refusal(parseReais("-0.01"))).toBe("amount must not be negative")
  })

  it("reads amounts up to 2^53 − 1 centavos and refuses the first one past it", () => {
    // 90071992547409.91 reais = 9007199254740991 centavos = Number.MAX_SAFE_INTEGER.
    expect(value(parseReais("90071992547409.91"))).toBe(9_007_199_254_740_991)
    expect(refusal(parseReais("90071992547409.92"))).toBe("amount is too large")
  })

  it("reads minus zero as zero, not as a negative amount", () => {
    expect(value(parseReais("-0.00"))).toBe(0)
  })

  it("the wire schemas answer the parser's reason, and the minimum in reais", () => {
    expect(refusal(Schema.decodeUnknownResult(Reais)("10.005"))).toBe("amount must be a multiple of 0.01 (at most two decimals)")
    expect(refusal(Schema.decodeUnknownResult(Reais)(0))).toBe("amount must be at least 0.01")
    expect(refusal(Schema.decodeUnknownResult(reaisSchema({ min: 500 }))("4.99"))).toBe("amount must be at least 5.00")
    expect(Result.getOrThrow(Schema.decodeUnknownResult(reaisSchema({ min: 500 }))("5.00"))).toBe(500)
    // Negatives allowed and no minimum given: any amount, down to below zero.
    expect(Result.getOrThrow(Schema.decodeUnknownResult(reaisSchema({ allowNegative: true }))(-2.5))).toBe(-250)
  })

  it("the output schema reads any amount of reais back, negatives too, and prints two decimals", () => {
    const decode = Schema.decodeUnknownResult(ReaisJson)
    expect(Result.getOrThrow(decode(10.5))).toBe(1050)
    expect(Result.getOrThrow(decode("-5.00"))).toBe(-500)
    expect(refusal(decode("10,50"))).toBe("amount must be a decimal number such as 10.00")
    expect(JSON.stringify({ amount: Schema.encodeSync(ReaisJson)(cents(1000)) })).toBe('{"amount":10.00}')
  })

  it("names the request and response amounts as the components the OpenAPI document describes as numbers", () => {
    const document = Schema.toJsonSchemaDocument(Schema.Struct({ sent: Reais, answered: ReaisJson }))
    expect(document.schema).toMatchObject({ properties: { sent: { $ref: "#/$defs/AmountEncoded" }, answered: { $ref: "#/$defs/AmountJsonEncoded" } } })
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

  it("gives reais as a number where one is needed: 10.50 is 10.5", () => {
    expect(toReais(cents(1050))).toBe(10.5)
    expect(toReais(cents(-5))).toBe(-0.05)
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

  it("reads a percentage sent as text with spaces around it, as amounts are", () => {
    expect(parsePercent(" 12.5 ")).toBe(1250)
    expect(parsePercent(Infinity)).toBeUndefined()
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
    // 0.10 by 2:5 → 2.857…, 7.142…: floors 2 + 7 = 9; the centavo goes to the first part, whose
    // remainder (0.857) is the larger although its weight is the smaller.
    expect(allocateByWeights(cents(10), [2, 5])).toEqual([3, 7])
    // 0.10 by 5:2:3 → 5, 2, 3 exactly; 0.11 → 5.5, 2.2, 3.3: floors 10, the centavo to the 0.5.
    expect(allocateByWeights(cents(11), [5, 2, 3])).toEqual([6, 2, 3])
  })

  it("splits evenly with the extra centavos on the first parts, one each, at any count (law)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 100 }), (total, n) => {
      const floor = Math.floor(total / n)
      const extra = total - floor * n
      expect(allocateEvenly(cents(total), n)).toEqual(Array.from({ length: n }, (_, i) => (i < extra ? floor + 1 : floor)))
    }))
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

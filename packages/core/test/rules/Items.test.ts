import { Decimal } from "decimal.js"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cents } from "../../src/money/Money.ts"
import { itemsTotal, lineTotal } from "../../src/rules/Items.ts"

const line = (unitAmount: number, quantity: number) => ({ unitAmount: cents(unitAmount), quantity })

describe("item totals", () => {
  it("multiplies each unit price by its quantity and adds the lines", () => {
    // A 120.00 course and two 30.00 e-books: 120.00 + 60.00 = 180.00.
    expect(itemsTotal([line(12000, 1), line(3000, 2)])).toBe(18000)
    // 999 × 0.99 = 989.01.
    expect(itemsTotal([line(99, 999)])).toBe(98901)
    expect(itemsTotal([])).toBe(0)
  })

  it("gives one line's amount: three 2.50 items are 7.50", () => {
    expect(lineTotal(line(250, 3))).toBe(750)
  })

  it("refuses a total beyond the safe integers instead of approximating it", () => {
    expect(itemsTotal([line(Number.MAX_SAFE_INTEGER, 1)])).toBe(Number.MAX_SAFE_INTEGER)
    expect(itemsTotal([line(Number.MAX_SAFE_INTEGER, 2)])).toBeUndefined()
    expect(itemsTotal([line(Number.MAX_SAFE_INTEGER, 1), line(1, 1)])).toBeUndefined()
    // 2^53 = 9007199254740992 is the first unsafe integer: 4503599627370496 × 2 reaches it.
    expect(itemsTotal([line(4_503_599_627_370_496, 2)])).toBeUndefined()
  })

  it("the total is Σ price × quantity in reais, in any order, or undefined past 2^53 − 1 centavos (law)", () => {
    fc.assert(fc.property(
      fc.array(fc.record({ unit: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), quantity: fc.integer({ min: 1, max: 999 }) }), { maxLength: 20 }),
      (lines) => {
        // Worked out in reais with decimal.js, apart from the centavo arithmetic under test.
        const reais = lines.reduce((sum, l) => sum.plus(new Decimal(l.unit).div(100).times(l.quantity)), new Decimal(0))
        const expected = reais.times(100).lte(Number.MAX_SAFE_INTEGER) ? reais.times(100).toNumber() : undefined
        const items = lines.map((l) => line(l.unit, l.quantity))
        expect(itemsTotal(items)).toBe(expected)
        expect(itemsTotal([...items].reverse())).toBe(expected)
      }
    ))
  })

  it("a line of quantity q totals as q lines of quantity 1 (law)", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 1, max: 999 }), (unit, quantity) => {
      expect(itemsTotal([line(unit, quantity)])).toBe(itemsTotal(Array.from({ length: quantity }, () => line(unit, 1))))
    }))
  })
})

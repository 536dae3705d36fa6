import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cents, formatReais } from "../../src/money/Money.ts"

// The independent oracle: the runtime's own ICU formatting of Brazilian reais.
const intl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" })

describe("reais as a Brazilian reads them", () => {
  it("prints R$, dots between thousands, a comma before the centavos", () => {
    expect(formatReais(cents(123456))).toBe("R$\u00a01.234,56")
    expect(formatReais(cents(5))).toBe("R$\u00a00,05")
    expect(formatReais(cents(100000000))).toBe("R$\u00a01.000.000,00")
    expect(formatReais(cents(102656), " ")).toBe("R$ 1.026,56")
  })

  it("law: equals Intl.NumberFormat('pt-BR', BRL) for every amount up to a trillion reais, negatives included", () => {
    // Up to 10^14 centavos the float division below is exact to the centavo, so the oracle sees the intended amount.
    fc.assert(fc.property(fc.integer({ min: -1e14, max: 1e14 }), (n) => {
      expect(formatReais(cents(n))).toBe(intl.format(n / 100))
    }), { numRuns: 2000 })
  })
})

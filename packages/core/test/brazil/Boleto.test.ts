import { isValidBoleto } from "@brazilian-utils/brazilian-utils"
import boletoValidator from "boleto-brasileiro-validator"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays } from "../../src/brazil/CalendarDate.ts"
import { dateOfFactor, dueFactor, lineToBarcode, makeBoleto, parseBarcode, parseDigitableLine } from "../../src/brazil/Boleto.ts"

// The bank-boleto checks of the validator (its plain `boleto` also takes utility codes, which start with 8).
const theirBoleto = boletoValidator.boletoBancario

const ok = <A, E>(r: Result.Result<A, E>): A => {
  if (Result.isFailure(r)) throw new Error(`expected success, got ${JSON.stringify(r.failure)}`)
  return r.success
}

describe("boleto vector", () => {
  const line = "00190000090114971860168524522114675860000102656"
  const barcode = "00196758600001026560000001149718606852452211"

  it("turns the line into its barcode and parses both to the same boleto", () => {
    expect(lineToBarcode(line)).toBe(barcode)
    const fromLine = ok(parseDigitableLine(line, "2018-07-01"))
    const fromBarcode = ok(parseBarcode(barcode, "2018-07-01"))
    expect(fromLine).toEqual(fromBarcode)
    // Bank 001, factor 7586 = 1997-10-07 + 7586 days = 2018-07-15, amount 1026.56.
    expect(fromLine).toMatchObject({ bankCode: "001", dueDate: "2018-07-15", amountCents: 102656, digitableLine: line })
  })

  it("accepts the line with the usual dots and spaces", () => {
    expect(ok(parseDigitableLine("00190.00009 01149.718601 68524.522114 6 75860000102656", "2018-07-01")).barcode).toBe(barcode)
  })
})

describe("due-date factor", () => {
  it("restarted at 1000 on 2025-02-22 after 9999 on 2025-02-21", () => {
    expect(dueFactor("2025-02-21")).toBe(9999)
    expect(dueFactor("2025-02-22")).toBe(1000)
    expect(dueFactor("2000-07-03")).toBe(1000)
    expect(dueFactor("2000-07-02")).toBeUndefined()
    // 2026-11-22 is 638 days after 2025-02-22.
    expect(dueFactor("2026-11-22")).toBe(1638)
  })

  it("decodes to the date nearest the reference date", () => {
    expect(dateOfFactor(1000, "2001-01-01")).toBe("2000-07-03")
    expect(dateOfFactor(1000, "2025-03-01")).toBe("2025-02-22")
    expect(dateOfFactor(9999, "2025-03-01")).toBe("2025-02-21")
  })
})

const dateArb = fc.integer({ min: 0, max: 9000 * 2 }).map((d) => addDays("2000-07-03", d))
const boletoArb = fc.record({
  bankCode: fc.stringMatching(/^[0-79]\d{2}$/),
  dueDate: fc.option(dateArb, { nil: undefined }),
  amountCents: fc.integer({ min: 0, max: 9_999_999_999 }),
  freeField: fc.stringMatching(/^\d{25}$/)
})

describe("boleto properties", () => {
  it("every generated boleto is accepted by both independent validators and parses back to what was generated", () => {
    fc.assert(fc.property(boletoArb, (input) => {
      const made = ok(makeBoleto(input))
      expect(isValidBoleto(made.digitableLine)).toBe(true)
      expect(theirBoleto(made.digitableLine, true)).toBe(true)
      expect(theirBoleto(made.barcode, true)).toBe(true)
      // A reference within half a factor cycle of the due date decodes it exactly.
      const reference = input.dueDate ?? "2026-01-01"
      const parsed = ok(parseDigitableLine(made.digitableLine, addDays(reference, 100)))
      expect(parsed).toMatchObject({ ...input, barcode: made.barcode })
      expect(ok(parseBarcode(made.barcode, reference))).toEqual(parsed)
    }), { numRuns: 400 })
  })

  it("every single-digit corruption of a line or a barcode is rejected, unless the independent validators accept it too", () => {
    // The general digit maps remainders 0, 10 and 11 to 1, so a corruption of
    // the barcode can land on another valid code; then both validators must
    // agree. Line fields are mod 10, which catches every single-digit error.
    let collisions = 0
    fc.assert(fc.property(boletoArb, fc.nat(), fc.integer({ min: 1, max: 9 }), (input, at, delta) => {
      const made = ok(makeBoleto(input))
      const corrupt = (s: string) => {
        const i = at % s.length
        return s.slice(0, i) + String((Number(s[i]) + delta) % 10) + s.slice(i + 1)
      }
      const line = corrupt(made.digitableLine)
      const barcode = corrupt(made.barcode)
      const lineAccepted = theirBoleto(line, true) && isValidBoleto(line)
      // We only take boletos in reais (currency 9); the validator accepts any currency digit.
      const barcodeAccepted = theirBoleto(barcode, true) && barcode[3] === "9"
      expect(Result.isSuccess(parseDigitableLine(line, "2026-01-01"))).toBe(lineAccepted)
      expect(Result.isSuccess(parseBarcode(barcode, "2026-01-01"))).toBe(barcodeAccepted)
      if (lineAccepted || barcodeAccepted) collisions++
    }), { numRuns: 1000 })
    expect(collisions).toBeLessThan(1000 * 0.1)
  })
})

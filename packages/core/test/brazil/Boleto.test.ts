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
    // 2012-10-28 is 4500 days (half a cycle) from both 2000-07-03 and 2025-02-22; a tie goes to the later date.
    expect(dateOfFactor(1000, "2012-10-27")).toBe("2000-07-03")
    expect(dateOfFactor(1000, "2012-10-28")).toBe("2025-02-22")
    expect(dateOfFactor(1000, "2012-10-29")).toBe("2025-02-22")
  })

  it("reads factors below 1000 in the first cycle only", () => {
    expect(dateOfFactor(1, "2030-01-01")).toBe("1997-10-08")
    expect(dateOfFactor(999, "2030-01-01")).toBe("2000-07-02")
  })

  it("has no date for a reference that is not a date or a factor out of range", () => {
    expect(dateOfFactor(1000, "2025-02-30")).toBeUndefined()
    expect(dateOfFactor(0, "2025-03-01")).toBeUndefined()
    expect(dateOfFactor(10000, "2025-03-01")).toBeUndefined()
  })
})

describe("boleto errors", () => {
  const line = "00190000090114971860168524522114675860000102656"
  const failure = <A, E>(r: Result.Result<A, E>) => (Result.isFailure(r) ? r.failure : undefined)

  it("names the field whose check digit is wrong", () => {
    const wrongField2 = line.slice(0, 20) + ((Number(line[20]) + 1) % 10) + line.slice(21)
    expect(failure(parseDigitableLine(wrongField2, "2018-07-01"))).toMatchObject({ _tag: "BoletoCheckDigitMismatch", digit: "2" })
    const barcode = "00196758600001026560000001149718606852452211"
    expect(failure(parseBarcode(barcode.slice(0, 4) + "9" + barcode.slice(5), "2018-07-01")))
      .toMatchObject({ _tag: "BoletoCheckDigitMismatch", digit: "general", expected: "6", actual: "9" })
  })

  it("refuses utility codes, other currencies, wrong lengths and a reference date that is not a date", () => {
    expect(failure(parseBarcode("8".repeat(44), "2026-01-01"))?._tag).toBe("BoletoMalformed")
    expect(failure(parseDigitableLine(line.slice(0, 46), "2026-01-01"))?._tag).toBe("BoletoMalformed")
    expect(failure(parseDigitableLine(line, "01/07/2018"))).toMatchObject({ _tag: "BoletoInvalidInput", field: "referenceDate" })
    const made = ok(makeBoleto({ bankCode: "341", dueDate: undefined, amountCents: 100, freeField: "1".repeat(25) }))
    expect(failure(parseBarcode(made.barcode.slice(0, 3) + "0" + made.barcode.slice(4), "2026-01-01"))?._tag).toBe("BoletoMalformed")
  })

  it("refuses to make what it could not read back", () => {
    const base = { bankCode: "341", dueDate: "2026-05-10", amountCents: 100, freeField: "1".repeat(25) }
    expect(failure(makeBoleto({ ...base, bankCode: "818" }))).toMatchObject({ field: "bankCode" })
    expect(failure(makeBoleto({ ...base, freeField: "1".repeat(24) }))).toMatchObject({ field: "freeField" })
    expect(failure(makeBoleto({ ...base, amountCents: 10_000_000_000 }))).toMatchObject({ field: "amountCents" })
    expect(failure(makeBoleto({ ...base, amountCents: 1.5 }))).toMatchObject({ field: "amountCents" })
    expect(failure(makeBoleto({ ...base, dueDate: "2000-07-02" }))).toMatchObject({ field: "dueDate" })
    expect(failure(makeBoleto({ ...base, dueDate: "2026-02-30" }))).toMatchObject({ field: "dueDate" })
  })

  it("writes factor 0000 for no due date and reads it back as none", () => {
    const made = ok(makeBoleto({ bankCode: "237", dueDate: undefined, amountCents: 0, freeField: "0".repeat(25) }))
    expect(made.barcode.slice(5, 9)).toBe("0000")
    expect(ok(parseBarcode(made.barcode, "2026-01-01")).dueDate).toBeUndefined()
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
      // We only take bank boletos in reais (currency 9); the validator accepts any currency digit, and
      // a barcode whose first digit became 8 is a utility code (arrecadação), which we refuse by design.
      const barcodeAccepted = theirBoleto(barcode, true) && barcode[3] === "9" && barcode[0] !== "8"
      expect(Result.isSuccess(parseDigitableLine(line, "2026-01-01"))).toBe(lineAccepted)
      expect(Result.isSuccess(parseBarcode(barcode, "2026-01-01"))).toBe(barcodeAccepted)
      if (lineAccepted || barcodeAccepted) collisions++
    }), { numRuns: 1000 })
    expect(collisions).toBeLessThan(1000 * 0.1)
    // The counterexample that found the utility-code case: bank 504 corrupted to 804, landing on a valid general digit.
    const made = ok(makeBoleto({ bankCode: "504", dueDate: "2000-07-03", amountCents: 5, freeField: "0850000874068033273683709" }))
    const utility = `8${made.barcode.slice(1)}`
    expect(Result.isFailure(parseBarcode(utility, "2026-01-01"))).toBe(true)
  })

  it("every corruption of a line or a barcode by a character that is not a digit is rejected", () => {
    fc.assert(fc.property(boletoArb, fc.nat(), fc.constantFrom("A", "x", "-", "/", "#", "O", "l"), (input, at, c) => {
      const made = ok(makeBoleto(input))
      const corrupt = (s: string) => s.slice(0, at % s.length) + c + s.slice((at % s.length) + 1)
      expect(Result.isFailure(parseDigitableLine(corrupt(made.digitableLine), "2026-01-01"))).toBe(true)
      expect(Result.isFailure(parseBarcode(corrupt(made.barcode), "2026-01-01"))).toBe(true)
    }), { numRuns: 300 })
  })
})

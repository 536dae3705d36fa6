/**
 * FEBRABAN bank boletos: the 44-digit barcode and the 47-digit digitable
 * line ("linha digitável"), with their check digits and due-date factor.
 *
 * Barcode: bank (3) · currency `9` · general check digit · due factor (4) ·
 * amount in centavos (10) · free field (25). Line: three fields carrying
 * bank, currency and the free field, each closed by a mod-10 digit, then the
 * general check digit, then factor and amount.
 *
 * Utility and tax codes ("arrecadação", 48 digits, leading 8) are another
 * format and are refused. Dates are plain `YYYY-MM-DD` calendar dates.
 */
import { Result, Schema } from "effect"
import { fromDayNumber, toDayNumber } from "./CalendarDate.ts"

/** `makeBoleto` (or a parser's reference date) was given a value it cannot use; `field` names it. */
export class BoletoInvalidInput extends Schema.TaggedError<BoletoInvalidInput>()("BoletoInvalidInput", {
  field: Schema.String,
  message: Schema.String
}) {}

/** Not a bank boleto barcode or line: wrong length, characters, currency or segment. */
export class BoletoMalformed extends Schema.TaggedError<BoletoMalformed>()("BoletoMalformed", {
  message: Schema.String
}) {}

/** A check digit does not match its digits. */
export class BoletoCheckDigitMismatch extends Schema.TaggedError<BoletoCheckDigitMismatch>()("BoletoCheckDigitMismatch", {
  /** `general`, or the line field (1, 2, 3) whose digit is wrong. */
  digit: Schema.String,
  expected: Schema.String,
  actual: Schema.String
}) {}

export type BoletoError = BoletoMalformed | BoletoCheckDigitMismatch | BoletoInvalidInput

/** A bank boleto, as made or as read from its barcode or line. */
export interface Boleto {
  readonly bankCode: string
  /** `undefined` when the factor is `0000` (no due date). */
  readonly dueDate: string | undefined
  readonly amountCents: number
  readonly freeField: string
  readonly barcode: string
  readonly digitableLine: string
}

/** Mod 10 of a field of the line: weights 2, 1, 2, … from the right, product digits summed. */
export const mod10 = (digits: string): number => {
  let sum = 0
  let weight = 2
  for (let i = digits.length - 1; i >= 0; i--) {
    const p = Number(digits[i]) * weight
    sum += p > 9 ? p - 9 : p
    weight = weight === 2 ? 1 : 2
  }
  return (10 - (sum % 10)) % 10
}

/** General check digit: mod 11, weights 2 to 9 from the right; 0, 10 and 11 become 1. */
export const generalCheckDigit = (barcodeWithoutDigit: string): number => {
  let sum = 0
  let weight = 2
  for (let i = barcodeWithoutDigit.length - 1; i >= 0; i--) {
    sum += Number(barcodeWithoutDigit[i]) * weight
    weight = weight === 9 ? 2 : weight + 1
  }
  const dv = 11 - (sum % 11)
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv
}

// Factor 1000 was 2000-07-03; 9999 was 2025-02-21; on 2025-02-22 it restarted at
// 1000. So every factor f stands for 1997-10-07 + f + 9000·k days.
const BASE_DAY = toDayNumber("1997-10-07")!
const CYCLE = 9000

/**
 * The due factor (1000 to 9999) of a date from 2000-07-03 on; `undefined`
 * for earlier dates and for text that is not a `YYYY-MM-DD` date. The same
 * factor comes back every 9000 days (about 24.6 years).
 */
export const dueFactor = (date: string): number | undefined => {
  const day = toDayNumber(date)
  if (day === undefined) return undefined
  const offset = day - BASE_DAY
  if (offset < 1000) return undefined
  return ((offset - 1000) % CYCLE) + 1000
}

/**
 * The date of a factor: of the dates it can stand for, the one nearest
 * `referenceDate` (usually today; a boleto is paid within years of its due
 * date, the cycle is about 24.6 years). Factors below 1000 belong to the
 * first cycle only (1997 to 2000). `undefined` when `referenceDate` is not a
 * `YYYY-MM-DD` date or the factor is not a whole number from 1 to 9999.
 */
export const dateOfFactor = (factor: number, referenceDate: string): string | undefined => {
  const reference = toDayNumber(referenceDate)
  if (reference === undefined || !Number.isInteger(factor) || factor < 1 || factor > 9999) return undefined
  const first = BASE_DAY + factor
  const k = factor < 1000 ? 0 : Math.max(0, Math.round((reference - first) / CYCLE))
  return fromDayNumber(first + k * CYCLE)
}

/**
 * Builds barcode and line. The free field is the issuing bank's own layout
 * (25 digits: agreement, "nosso número", branch, account…); this module
 * does not look inside it. `dueDate` `undefined` writes factor 0000 (no due
 * date). Amounts are centavos, 0 to 9 999 999 999.
 */
export const makeBoleto = (input: {
  readonly bankCode: string
  readonly dueDate: string | undefined
  readonly amountCents: number
  readonly freeField: string
}): Result.Result<Boleto, BoletoInvalidInput> => {
  const invalid = (field: string, message: string) => Result.fail(new BoletoInvalidInput({ field, message }))
  // A leading 8 marks a utility ("arrecadação") code, not a bank boleto.
  if (!/^[0-79]\d{2}$/.test(input.bankCode)) return invalid("bankCode", "must be 3 digits, not starting with 8")
  if (!/^\d{25}$/.test(input.freeField)) return invalid("freeField", "must be 25 digits")
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 0 || input.amountCents > 99_999_999_99) {
    return invalid("amountCents", "must be 0 to 9999999999 centavos")
  }
  let factor = 0
  if (input.dueDate !== undefined) {
    const f = dueFactor(input.dueDate)
    if (f === undefined) return invalid("dueDate", "must be a date from 2000-07-03 on")
    factor = f
  }
  const tail = `${factor.toString().padStart(4, "0")}${input.amountCents.toString().padStart(10, "0")}${input.freeField}`
  const head = `${input.bankCode}9`
  const barcode = `${head}${generalCheckDigit(head + tail)}${tail}`
  return Result.succeed({
    bankCode: input.bankCode,
    dueDate: input.dueDate,
    amountCents: input.amountCents,
    freeField: input.freeField,
    barcode,
    digitableLine: barcodeToLine(barcode)
  })
}

/** The digitable line of a barcode; `barcode` must be 44 digits (no check here). */
export const barcodeToLine = (barcode: string): string => {
  const free = barcode.slice(19)
  const f1 = `${barcode.slice(0, 4)}${free.slice(0, 5)}`
  const f2 = free.slice(5, 15)
  const f3 = free.slice(15, 25)
  return `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${barcode[4]}${barcode.slice(5, 19)}`
}

/**
 * Parses a 44-digit barcode (spaces and dots allowed), checking the general
 * digit. The due date is the one its factor stands for nearest
 * `referenceDate` (see `dateOfFactor`).
 */
export const parseBarcode = (input: string, referenceDate: string): Result.Result<Boleto, BoletoError> => {
  if (toDayNumber(referenceDate) === undefined) {
    return Result.fail(new BoletoInvalidInput({ field: "referenceDate", message: "must be a YYYY-MM-DD date" }))
  }
  const barcode = input.replace(/\D/g, "")
  if (barcode.length !== 44 || /\D/.test(input.replace(/[\s.]/g, ""))) {
    return Result.fail(new BoletoMalformed({ message: "a barcode has 44 digits" }))
  }
  if (barcode[0] === "8") return Result.fail(new BoletoMalformed({ message: "a leading 8 marks a utility (arrecadação) code, not a bank boleto" }))
  if (barcode[3] !== "9") return Result.fail(new BoletoMalformed({ message: "currency code must be 9 (real)" }))
  const expected = generalCheckDigit(barcode.slice(0, 4) + barcode.slice(5))
  if (String(expected) !== barcode[4]) {
    return Result.fail(new BoletoCheckDigitMismatch({ digit: "general", expected: String(expected), actual: barcode[4]! }))
  }
  const factor = Number(barcode.slice(5, 9))
  return Result.succeed({
    bankCode: barcode.slice(0, 3),
    dueDate: factor === 0 ? undefined : dateOfFactor(factor, referenceDate)!,
    amountCents: Number(barcode.slice(9, 19)),
    freeField: barcode.slice(19),
    barcode,
    digitableLine: barcodeToLine(barcode)
  })
}

/**
 * Parses a 47-digit digitable line (dots and spaces allowed), checking the
 * three field digits and then the general digit of its barcode.
 */
export const parseDigitableLine = (input: string, referenceDate: string): Result.Result<Boleto, BoletoError> => {
  const compact = input.replace(/[\s.]/g, "")
  if (!/^\d{47}$/.test(compact)) return Result.fail(new BoletoMalformed({ message: "a digitable line has 47 digits" }))
  const fields: Array<[string, string, string]> = [
    ["1", compact.slice(0, 9), compact[9]!],
    ["2", compact.slice(10, 20), compact[20]!],
    ["3", compact.slice(21, 31), compact[31]!]
  ]
  for (const [name, digits, dv] of fields) {
    const expected = String(mod10(digits))
    if (expected !== dv) return Result.fail(new BoletoCheckDigitMismatch({ digit: name, expected, actual: dv }))
  }
  return parseBarcode(lineToBarcode(compact), referenceDate)
}

/** The barcode of a digitable line; `line` must be 47 digits without punctuation (no check here). */
export const lineToBarcode = (line: string): string =>
  `${line.slice(0, 4)}${line[32]}${line.slice(33, 47)}${line.slice(4, 9)}${line.slice(10, 20)}${line.slice(21, 31)}`

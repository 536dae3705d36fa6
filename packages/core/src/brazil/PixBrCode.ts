/**
 * Pix BR Code ("copia e cola"), the EMV QR Code Merchant-Presented Mode
 * payload of the BCB BR Code manual: a sequence of `ID(2) LENGTH(2) VALUE`
 * fields whose lengths count UTF-8 bytes, closed by the CRC-16 of field 63
 * over everything before it, `6304` included.
 *
 * Build with `buildBrCode`, read with `parseBrCode`; both return `Result`.
 */
import { Result, Schema } from "effect"
import { cents, parseReais, toDecimalString } from "../money/Money.ts"
import { crc16Hex } from "./Crc16.ts"
import { toBrCodeText } from "./Text.ts"

/** The GUI of the Pix merchant account template (field 26, sub-field 00). */
export const PIX_GUI = "br.gov.bcb.pix"

/** `buildBrCode` was given a value the manual does not allow; `field` names the input. */
export class BrCodeInvalidInput extends Schema.TaggedError<BrCodeInvalidInput>()("BrCodeInvalidInput", {
  field: Schema.String,
  message: Schema.String
}) {}

/** The text is not a well-formed Pix BR Code; `position` is the UTF-8 byte offset of the culprit. */
export class BrCodeMalformed extends Schema.TaggedError<BrCodeMalformed>()("BrCodeMalformed", {
  position: Schema.Number,
  message: Schema.String
}) {}

/** Field 63 does not hold the CRC of the code (`expected` is what it should hold). */
export class BrCodeCrcMismatch extends Schema.TaggedError<BrCodeCrcMismatch>()("BrCodeCrcMismatch", {
  expected: Schema.String,
  actual: Schema.String
}) {}

export type BrCodeError = BrCodeInvalidInput | BrCodeMalformed | BrCodeCrcMismatch

interface Common {
  /** Merchant name; accents are removed and it is cut to 25 characters. */
  readonly merchantName: string
  /** Merchant city; accents are removed and it is cut to 15 characters. */
  readonly merchantCity: string
  /** `***` (the default) or 1 to 25 letters and digits. */
  readonly txid?: string | undefined
}

/** A static code: the receiver's Pix key, an optional description and amount. */
export interface StaticBrCode extends Common {
  readonly kind: "static"
  readonly key: string
  readonly description?: string | undefined
  /** Fixed amount in centavos; absent lets the payer type it. */
  readonly amountCents?: number | undefined
}

/** A dynamic single-use code: the payload location (URL without scheme) of the PSP. */
export interface DynamicBrCode extends Common {
  readonly kind: "dynamic"
  readonly location: string
  /**
   * Location of a Pix Automático recurrence (template 80), for the composite
   * codes that offer a charge and a recurrence together.
   */
  readonly recurrenceLocation?: string | undefined
}

/** A Pix Automático code alone: the GUI without key or location in 26, the recurrence location in 80. */
export interface RecurrenceBrCode extends Common {
  readonly kind: "recurrence"
  readonly recurrenceLocation: string
}

export type BrCodeInput = StaticBrCode | DynamicBrCode | RecurrenceBrCode

/** What a parsed BR Code carries. */
export interface ParsedBrCode {
  readonly payloadFormatIndicator: string
  /** `"12"` for a single-use (dynamic) code, `"11"` or absent for a reusable one. */
  readonly pointOfInitiationMethod: string | undefined
  readonly gui: string
  readonly key: string | undefined
  readonly description: string | undefined
  readonly location: string | undefined
  /** Location of a Pix Automático recurrence (template 80), on composite codes. */
  readonly recurrenceLocation: string | undefined
  readonly merchantCategoryCode: string
  readonly currency: string
  readonly amountCents: number | undefined
  readonly countryCode: string
  readonly merchantName: string
  readonly merchantCity: string
  readonly postalCode: string | undefined
  readonly txid: string | undefined
  readonly crc: string
}

const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8", { fatal: true })
const byteLength = (s: string) => encoder.encode(s).length

const tlv = (id: string, value: string): string => {
  const length = byteLength(value)
  return `${id}${length.toString().padStart(2, "0")}${value}`
}

const TXID = /^(\*\*\*|[A-Za-z0-9]{1,25})$/

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i

/**
 * Builds the EMV text of a BR Code ("copia e cola"), CRC included.
 *
 * Merchant name and city are cleaned (accents removed, only characters bank
 * apps show reliably) and cut to 25 and 15 characters rather than refused;
 * everything else the manual does not allow is refused with
 * `BrCodeInvalidInput`: txid other than `***` or 1 to 25 letters and digits,
 * an empty key or one over 77 bytes, a location with a URL scheme, a field 26
 * over 99 bytes, an amount of 0 or one that is not a safe integer.
 */
export const buildBrCode = (input: BrCodeInput): Result.Result<string, BrCodeInvalidInput> => {
  const invalid = (field: string, message: string) => Result.fail(new BrCodeInvalidInput({ field, message }))
  // Names and cities come from account records and are often longer than the
  // manual allows: cutting them keeps the code valid and readable in bank apps.
  const name = toBrCodeText(input.merchantName).slice(0, 25).trim()
  const city = toBrCodeText(input.merchantCity).slice(0, 15).trim()
  if (name.length === 0) return invalid("merchantName", "must have at least one letter or digit")
  if (city.length === 0) return invalid("merchantCity", "must have at least one letter or digit")
  const txid = input.txid ?? "***"
  if (!TXID.test(txid)) return invalid("txid", "must be *** or 1 to 25 letters and digits")
  const checkLocation = (field: string, location: string) =>
    location.length === 0 ? invalid(field, "is required")
    : SCHEME.test(location) ? invalid(field, "must not carry the URL scheme")
    : byteLength(location) > 77 ? invalid(field, "must have at most 77 bytes")
    : undefined

  let account = tlv("00", PIX_GUI)
  let recurrence: string | undefined
  switch (input.kind) {
    case "static": {
      if (input.key.length === 0 || byteLength(input.key) > 77) return invalid("key", "must have 1 to 77 bytes")
      account += tlv("01", input.key)
      const description = input.description === undefined ? "" : toBrCodeText(input.description)
      if (description.length > 0) account += tlv("02", description)
      break
    }
    case "dynamic": {
      const bad = checkLocation("location", input.location)
      if (bad !== undefined) return bad
      account += tlv("25", input.location)
      recurrence = input.recurrenceLocation
      break
    }
    case "recurrence":
      recurrence = input.recurrenceLocation
      break
  }
  if (byteLength(account) > 99) return invalid(input.kind === "static" ? "description" : "location", "does not fit field 26")
  if (recurrence !== undefined) {
    const bad = checkLocation("recurrenceLocation", recurrence)
    if (bad !== undefined) return bad
  }

  let payload = tlv("00", "01")
  // Point of initiation 12 (single use) for dynamic codes; the BCB examples
  // of a recurrence alone leave the field out, as reusable codes may.
  if (input.kind === "dynamic") payload += tlv("01", "12")
  payload += tlv("26", account) + tlv("52", "0000") + tlv("53", "986")
  if (input.kind === "static" && input.amountCents !== undefined) {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
      return invalid("amountCents", "must be a positive whole number of centavos")
    }
    const amount = toDecimalString(cents(input.amountCents))
    if (amount.length > 13) return invalid("amountCents", "does not fit field 54")
    payload += tlv("54", amount)
  }
  payload += tlv("58", "BR") + tlv("59", name) + tlv("60", city) + tlv("62", tlv("05", txid))
  if (recurrence !== undefined) payload += tlv("80", tlv("00", PIX_GUI) + tlv("25", recurrence))
  payload += "6304"
  return Result.succeed(payload + crc16Hex(payload))
}

/** Splits TLV fields of `bytes`; `offset` is only for error positions. */
const readFields = (
  bytes: Uint8Array,
  offset: number
): Result.Result<Array<{ id: string; value: string; at: number }>, BrCodeMalformed> => {
  const fields: Array<{ id: string; value: string; at: number }> = []
  let i = 0
  while (i < bytes.length) {
    if (i + 4 > bytes.length) return Result.fail(new BrCodeMalformed({ position: offset + i, message: "truncated field header" }))
    const head = String.fromCharCode(...bytes.subarray(i, i + 4))
    if (!/^\d{4}$/.test(head)) return Result.fail(new BrCodeMalformed({ position: offset + i, message: "field id and length must be digits" }))
    const length = Number(head.slice(2))
    if (i + 4 + length > bytes.length) {
      return Result.fail(new BrCodeMalformed({ position: offset + i, message: `field ${head.slice(0, 2)} runs past the end` }))
    }
    let value: string
    try {
      value = decoder.decode(bytes.subarray(i + 4, i + 4 + length))
    } catch {
      return Result.fail(new BrCodeMalformed({ position: offset + i, message: "field is not valid UTF-8" }))
    }
    fields.push({ id: head.slice(0, 2), value, at: offset + i })
    i += 4 + length
  }
  return Result.succeed(fields)
}

const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/

type BrCodeRefusal = BrCodeMalformed | BrCodeCrcMismatch

const malformedAt = (position: number, message: string) => Result.fail(new BrCodeMalformed({ position, message }))

/** A field as read: its value and where it starts. */
interface ReadField {
  readonly value: string
  readonly at: number
}

/** Field 63, the CRC: uppercase hex over the UTF-8 bytes up to and including `6304`. */
const checkedCrc = (text: string): Result.Result<string, BrCodeRefusal> => {
  const crcAt = text.length - 8
  if (crcAt < 0 || text.slice(crcAt, crcAt + 4) !== "6304") return malformedAt(Math.max(0, crcAt), "must end with field 63 (CRC)")
  const crc = text.slice(crcAt + 4)
  const expected = crc16Hex(text.slice(0, crcAt + 4))
  return crc === expected ? Result.succeed(crc) : Result.fail(new BrCodeCrcMismatch({ expected, actual: crc }))
}

/** The top-level fields by id, each once, starting with the payload format indicator and with every mandatory one. */
const topFields = (text: string) =>
  Result.gen(function*() {
    const fields = yield* readFields(encoder.encode(text), 0)
    const byId = new Map<string, ReadField>()
    for (const f of fields) {
      if (byId.has(f.id)) return yield* malformedAt(f.at, `field ${f.id} repeated`)
      byId.set(f.id, f)
    }
    if (fields[0]?.id !== "00" || byId.get("00")?.value !== "01") return yield* malformedAt(0, "must start with payload format indicator 01")
    for (const id of ["52", "53", "58", "59", "60"]) {
      if (!byId.has(id)) return yield* malformedAt(text.length, `field ${id} is missing`)
    }
    const poi = byId.get("01")
    if (poi !== undefined && poi.value !== "11" && poi.value !== "12") return yield* malformedAt(poi.at, "point of initiation must be 11 or 12")
    return byId
  })

/** A template's sub-fields by id. */
const subFieldsOf = (field: ReadField) =>
  Result.map(readFields(encoder.encode(field.value), field.at + 4), (sub) => new Map(sub.map((s) => [s.id, s.value])))

/** The Pix merchant account: the first template from 26 to 51 whose GUI is `br.gov.bcb.pix`. */
const pixAccount = (byId: ReadonlyMap<string, ReadField>, length: number) =>
  Result.gen(function*() {
    for (let id = 26; id <= 51; id++) {
      const field = byId.get(String(id))
      if (field === undefined) continue
      const subs = yield* subFieldsOf(field)
      if (subs.get("00")?.toLowerCase() === PIX_GUI) return subs
    }
    return yield* malformedAt(length, "no Pix merchant account (GUI br.gov.bcb.pix)")
  })

/** The Pix Automático location of field 80, when it carries the Pix GUI. */
const recurrenceLocationOf = (byId: ReadonlyMap<string, ReadField>) => {
  const recurrence = byId.get("80")
  if (recurrence === undefined) return Result.succeed(undefined)
  return Result.map(subFieldsOf(recurrence), (subs) => (subs.get("00")?.toLowerCase() === PIX_GUI ? subs.get("25") : undefined))
}

/** Field 54 in centavos: digits with a dot and at most two decimals. */
const amountOf = (byId: ReadonlyMap<string, ReadField>): Result.Result<number | undefined, BrCodeRefusal> => {
  const field = byId.get("54")
  if (field === undefined) return Result.succeed(undefined)
  const amount = AMOUNT.test(field.value) ? parseReais(field.value) : undefined
  return amount === undefined || Result.isFailure(amount) ? malformedAt(field.at, "amount must be digits with a dot") : Result.succeed(amount.success)
}

/** The txid: sub-field 05 of the additional data template (62). */
const txidOf = (byId: ReadonlyMap<string, ReadField>) => {
  const additional = byId.get("62")
  if (additional === undefined) return Result.succeed(undefined)
  return Result.map(readFields(encoder.encode(additional.value), additional.at + 4), (sub) => sub.find((s) => s.id === "05")?.value)
}

/**
 * Parses and validates a BR Code: CRC first (field 63, uppercase hex, over
 * the UTF-8 bytes up to and including `6304`), then every TLV length, the
 * mandatory fields, and the Pix merchant account (GUI `br.gov.bcb.pix`, in
 * any template from 26 to 51, with a key, a location, or a recurrence in 80).
 *
 * Does not judge values it has no rule for (merchant category, currency):
 * they are returned as read.
 */
export const parseBrCode = (text: string): Result.Result<ParsedBrCode, BrCodeRefusal> =>
  Result.gen(function*() {
    const crc = yield* checkedCrc(text)
    const byId = yield* topFields(text)
    const account = yield* pixAccount(byId, text.length)
    const recurrenceLocation = yield* recurrenceLocationOf(byId)
    // A Pix Automático-only code carries the GUI alone in 26 and its location in 80.
    if (account.get("01") === undefined && account.get("25") === undefined && recurrenceLocation === undefined) {
      return yield* malformedAt(text.length, "the Pix account has neither a key (01) nor a location (25)")
    }
    const field = (id: string) => byId.get(id)?.value
    return {
      payloadFormatIndicator: "01",
      pointOfInitiationMethod: field("01"),
      gui: account.get("00")!,
      key: account.get("01"),
      description: account.get("02"),
      location: account.get("25"),
      recurrenceLocation,
      merchantCategoryCode: field("52")!,
      currency: field("53")!,
      amountCents: yield* amountOf(byId),
      countryCode: field("58")!,
      merchantName: field("59")!,
      merchantCity: field("60")!,
      postalCode: field("61"),
      txid: yield* txidOf(byId),
      crc
    }
  })

/**
 * Pix end-to-end ids (`E` + ISPB of the payer's institution (8 digits) +
 * `yyyyMMddHHmm` in UTC + 11 alphanumerics = 32 characters), as the SPI
 * assigns them to each payment.
 *
 * Pure: the 11-character random part is the caller's to draw (from a
 * `Random` service or Web Crypto), so ids are reproducible in tests.
 */
import { Result, Schema } from "effect"

/** `parseEndToEndId` was given something that is not an end-to-end id. */
export class EndToEndIdInvalid extends Schema.TaggedError<EndToEndIdInvalid>()("EndToEndIdInvalid", {
  message: Schema.String
}) {}

/** The parts of an end-to-end id. */
export interface EndToEndIdParts {
  readonly ispb: string
  /** The minute of the id (UTC), as epoch milliseconds. */
  readonly atMillis: number
  readonly random: string
}

const pad = (n: number, width = 2) => n.toString().padStart(width, "0")

const E2E = /^E(\d{8})(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})([A-Za-z0-9]{11})$/

/**
 * Builds an id from the ISPB (8 digits), an instant (epoch milliseconds,
 * seconds dropped, UTC) and `random`, 11 letters or digits chosen by the
 * caller. `undefined` when a part is malformed or the instant is not in the
 * years 1000 to 9999.
 */
export const makeEndToEndId = (ispb: string, atMillis: number, random: string): string | undefined => {
  if (!/^\d{8}$/.test(ispb) || !/^[A-Za-z0-9]{11}$/.test(random) || !Number.isFinite(atMillis)) return undefined
  const d = new Date(atMillis)
  const year = d.getUTCFullYear()
  if (year < 1000 || year > 9999) return undefined
  const stamp = `${year}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`
  return `E${ispb}${stamp}${random}`
}

/** Reads an id into its parts, checking the shape and that the date and time exist. */
export const parseEndToEndId = (id: string): Result.Result<EndToEndIdParts, EndToEndIdInvalid> => {
  const m = E2E.exec(id)
  if (m === null) {
    return Result.fail(new EndToEndIdInvalid({ message: "must be E, 8 digits of ISPB, yyyyMMddHHmm and 11 letters or digits" }))
  }
  const [y, mo, d, h, mi] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number]
  const at = Date.UTC(y, mo - 1, d, h, mi)
  const date = new Date(at)
  // Date.UTC rolls impossible values over (month 13, 25 h), so compare back.
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59) {
    return Result.fail(new EndToEndIdInvalid({ message: "has a date or time that does not exist" }))
  }
  return Result.succeed({ ispb: m[1]!, atMillis: at, random: m[7]! })
}

/** True for a well-formed end-to-end id with a real date and time. */
export const isEndToEndId = (id: string): boolean => Result.isSuccess(parseEndToEndId(id))

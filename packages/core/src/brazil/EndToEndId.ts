/**
 * Pix end-to-end ids (`E` + ISPB of the payer's institution (8 digits) +
 * `yyyyMMddHHmm` in UTC + 11 alphanumerics = 32 characters), as the SPI
 * assigns them to each payment.
 */

const pad = (n: number, width = 2) => n.toString().padStart(width, "0")

const E2E = /^E\d{8}(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})[A-Za-z0-9]{11}$/

/** Builds an id; `random` must be 11 letters or digits chosen by the caller. */
export const makeEndToEndId = (ispb: string, atMillis: number, random: string): string | undefined => {
  if (!/^\d{8}$/.test(ispb) || !/^[A-Za-z0-9]{11}$/.test(random)) return undefined
  const d = new Date(atMillis)
  const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`
  return `E${ispb}${stamp}${random}`
}

/** True for a well-formed end-to-end id with a real date and time. */
export const isEndToEndId = (id: string): boolean => {
  const m = E2E.exec(id)
  if (m === null) return false
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number]
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi))
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60
}

/**
 * Card brands and expiry dates, for validation and display; numbers are
 * never stored. No Luhn check: the spec's sandbox table has numbers that
 * fail it, and the acquirer is the one that judges a number.
 */

/** The card brand by its leading digits (Elo and Hipercard before the generic ranges). */
export const cardBrand = (number: string): string => {
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(number)) return "elo"
  if (/^(606282|3841)/.test(number)) return "hipercard"
  if (/^4/.test(number)) return "visa"
  if (/^(5[1-5]|2[2-7])/.test(number)) return "mastercard"
  if (/^3[47]/.test(number)) return "amex"
  if (/^(36|38|30[0-5])/.test(number)) return "diners"
  return "unknown"
}

/** `MM/YYYY` not in the past relative to `today` (`YYYY-MM-DD`); returns month and year. */
export const parseCardExpiration = (value: string, today: string): { readonly month: number; readonly year: number } | undefined => {
  const m = /^(\d{2})\/(\d{4})$/.exec(value)
  if (m === null) return undefined
  const month = Number(m[1])
  const year = Number(m[2])
  if (month < 1 || month > 12) return undefined
  const [ty, tm] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))]
  if (year < ty || (year === ty && month < tm)) return undefined
  return { month, year }
}

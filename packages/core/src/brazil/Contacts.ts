/** Brazilian phones, CEPs and UF codes. */

/** The 27 federative units. */
export const UFS = [
  "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA",
  "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"
] as const
export type Uf = (typeof UFS)[number]
const ufSet: ReadonlySet<string> = new Set(UFS)
export const isUf = (value: string): value is Uf => ufSet.has(value.toUpperCase())

/** A CEP: 8 digits, with or without the dash. Returns the digits or `undefined`. */
export const normalizeCep = (input: string): string | undefined => {
  const digits = input.replace(/[\s.-]/g, "")
  return /^\d{8}$/.test(digits) && digits !== "00000000" ? digits : undefined
}

// Area codes (DDD) in use; 2-digit codes outside this list do not exist.
const DDD = new Set([
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46, 47, 48, 49,
  51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92,
  93, 94, 95, 96, 97, 98, 99
])

/**
 * A Brazilian phone in E.164: `+55`, a valid area code, then 8 digits
 * (landline, starting 2 to 5) or 9 digits (mobile, starting 9). Returns the
 * normalised `+55…` form or `undefined`.
 */
export const normalizePhoneE164 = (input: string): string | undefined => {
  const compact = input.replace(/[\s().-]/g, "")
  const match = /^\+55(\d{2})(\d{8,9})$/.exec(compact)
  if (match === null) return undefined
  const [, ddd, number] = match
  if (!DDD.has(Number(ddd))) return undefined
  if (number!.length === 9 ? number![0] !== "9" : !/^[2-5]/.test(number!)) return undefined
  return compact
}

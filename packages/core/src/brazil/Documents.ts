/**
 * CPF and CNPJ: normalisation and check digits, including the alphanumeric
 * CNPJ in force from July 2026 (first 12 characters `[0-9A-Z]`, each worth
 * its ASCII code minus 48; the two check digits stay numeric).
 */

/** Strips the usual punctuation (`.`, `-`, `/`, spaces) and uppercases. */
export const normalizeDocument = (document: string): string => document.replace(/[.\-/\s]/g, "").toUpperCase()

const allSame = (s: string) => s.split("").every((c) => c === s[0])

/** Mod 11 check digit over `values` with weights 2..`maxWeight` cycling from the right. */
const mod11 = (values: ReadonlyArray<number>, maxWeight: number): number => {
  let sum = 0
  let weight = 2
  for (let i = values.length - 1; i >= 0; i--) {
    sum += values[i]! * weight
    weight = weight === maxWeight ? 2 : weight + 1
  }
  const rest = sum % 11
  return rest < 2 ? 0 : 11 - rest
}

/** The two check digits of the first 9 digits of a CPF. */
export const cpfCheckDigits = (base: string): string => {
  const digits = base.split("").map(Number)
  const first = mod11(digits, 11)
  const second = mod11([...digits, first], 11)
  return `${first}${second}`
}

/** True for an 11-digit CPF with valid check digits (punctuation allowed). */
export const isValidCpf = (input: string): boolean => {
  const cpf = normalizeDocument(input)
  if (!/^\d{11}$/.test(cpf) || allSame(cpf)) return false
  return cpfCheckDigits(cpf.slice(0, 9)) === cpf.slice(9)
}

const cnpjValue = (c: string) => c.charCodeAt(0) - 48

/** The two check digits of the first 12 characters of a CNPJ (numeric or alphanumeric). */
export const cnpjCheckDigits = (base: string): string => {
  const values = base.split("").map(cnpjValue)
  const first = mod11(values, 9)
  const second = mod11([...values, first], 9)
  return `${first}${second}`
}

/** True for a 14-character CNPJ (12 of `[0-9A-Z]` + 2 digits) with valid check digits. */
export const isValidCnpj = (input: string): boolean => {
  const cnpj = normalizeDocument(input)
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || allSame(cnpj)) return false
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12)
}

export type DocumentKind = "CPF" | "CNPJ"

/** `CPF`, `CNPJ` or `undefined` when `input` is neither (after normalisation). */
export const documentKind = (input: string): DocumentKind | undefined => {
  const doc = normalizeDocument(input)
  return isValidCpf(doc) ? "CPF" : isValidCnpj(doc) ? "CNPJ" : undefined
}

/** True for a valid CPF or CNPJ. */
export const isValidDocument = (input: string): boolean => documentKind(input) !== undefined

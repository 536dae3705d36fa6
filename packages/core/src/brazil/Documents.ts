/**
 * CPF and CNPJ: normalisation and check digits, including the alphanumeric
 * CNPJ in force from July 2026 (first 12 characters `[0-9A-Z]`, each worth
 * its ASCII code minus 48; the two check digits stay numeric).
 *
 * `isValid*` answer yes or no; `parse*` return the normalised document or a
 * `DocumentInvalid` saying why. Documents of one repeated digit
 * (`111.111.111-11`) pass the arithmetic but are refused.
 */
import { Result, Schema } from "effect"

/** A CPF or CNPJ refused by `parseCpf`, `parseCnpj` or `parseDocument`. */
export class DocumentInvalid extends Schema.TaggedError<DocumentInvalid>()("DocumentInvalid", {
  /** What was expected: `CPF`, `CNPJ` or `CPF or CNPJ`. */
  expected: Schema.String,
  reason: Schema.Literals(["format", "repeated", "checkDigits"])
}) {}

/**
 * Strips the usual punctuation (`.`, `-`, `/`, spaces) and uppercases, so
 * `12.abc.345/01de-35` becomes `12ABC34501DE35`. Does not validate.
 */
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

/** The two check digits of the first 9 digits of a CPF (mod 11, weights 2 to 10 then 2 to 11). */
export const cpfCheckDigits = (base: string): string => {
  const digits = base.split("").map(Number)
  const first = mod11(digits, 11)
  const second = mod11([...digits, first], 11)
  return `${first}${second}`
}

const cnpjValue = (c: string) => c.charCodeAt(0) - 48

/** The two check digits of the first 12 characters of a CNPJ, numeric or alphanumeric (mod 11, weights 2 to 9 cycling). */
export const cnpjCheckDigits = (base: string): string => {
  const values = base.split("").map(cnpjValue)
  const first = mod11(values, 9)
  const second = mod11([...values, first], 9)
  return `${first}${second}`
}

const cpfProblem = (cpf: string): DocumentInvalid["reason"] | undefined =>
  !/^\d{11}$/.test(cpf) ? "format"
  : allSame(cpf) ? "repeated"
  : cpfCheckDigits(cpf.slice(0, 9)) !== cpf.slice(9) ? "checkDigits"
  : undefined

const cnpjProblem = (cnpj: string): DocumentInvalid["reason"] | undefined =>
  !/^[0-9A-Z]{12}\d{2}$/.test(cnpj) ? "format"
  : allSame(cnpj) ? "repeated"
  : cnpjCheckDigits(cnpj.slice(0, 12)) !== cnpj.slice(12) ? "checkDigits"
  : undefined

/** True for an 11-digit CPF with valid check digits (punctuation allowed). */
export const isValidCpf = (input: string): boolean => cpfProblem(normalizeDocument(input)) === undefined

/** True for a 14-character CNPJ (12 of `[0-9A-Z]` + 2 digits) with valid check digits (punctuation allowed, any case). */
export const isValidCnpj = (input: string): boolean => cnpjProblem(normalizeDocument(input)) === undefined

export type DocumentKind = "CPF" | "CNPJ"

/** `CPF`, `CNPJ` or `undefined` when `input` is neither (after normalisation). */
export const documentKind = (input: string): DocumentKind | undefined => {
  const doc = normalizeDocument(input)
  return isValidCpf(doc) ? "CPF" : isValidCnpj(doc) ? "CNPJ" : undefined
}

/** True for a valid CPF or CNPJ. */
export const isValidDocument = (input: string): boolean => documentKind(input) !== undefined

/** The normalised CPF (11 digits) of `input`, or why it is not one. */
export const parseCpf = (input: string): Result.Result<string, DocumentInvalid> => {
  const cpf = normalizeDocument(input)
  const reason = cpfProblem(cpf)
  return reason === undefined ? Result.succeed(cpf) : Result.fail(new DocumentInvalid({ expected: "CPF", reason }))
}

/** The normalised CNPJ (14 characters, numeric or alphanumeric) of `input`, or why it is not one. */
export const parseCnpj = (input: string): Result.Result<string, DocumentInvalid> => {
  const cnpj = normalizeDocument(input)
  const reason = cnpjProblem(cnpj)
  return reason === undefined ? Result.succeed(cnpj) : Result.fail(new DocumentInvalid({ expected: "CNPJ", reason }))
}

/** A valid, normalised CPF or CNPJ. */
export interface Document {
  readonly kind: DocumentKind
  readonly number: string
}

/**
 * A CPF or a CNPJ, told apart by length after normalisation (11 or 14
 * characters), normalised; or why it is neither.
 */
export const parseDocument = (input: string): Result.Result<Document, DocumentInvalid> => {
  const doc = normalizeDocument(input)
  const [kind, reason] = doc.length === 11
    ? ["CPF" as const, cpfProblem(doc)]
    : doc.length === 14
    ? ["CNPJ" as const, cnpjProblem(doc)]
    : [undefined, "format" as const]
  if (kind === undefined || reason !== undefined) {
    return Result.fail(new DocumentInvalid({ expected: kind ?? "CPF or CNPJ", reason: reason ?? "format" }))
  }
  return Result.succeed({ kind, number: doc })
}

import { isValidCnpj as theirCnpj, isValidCpf as theirCpf } from "@brazilian-utils/brazilian-utils"
import { cnpj as cnpjValidator, cpf as cpfValidator } from "cpf-cnpj-validator"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  cnpjCheckDigits,
  cpfCheckDigits,
  documentKind,
  isValidCnpj,
  isValidCpf,
  normalizeDocument,
  parseCnpj,
  parseCpf,
  parseDocument
} from "../../src/brazil/Documents.ts"

const cpfArb = fc.stringMatching(/^\d{9}$/).filter((b) => !/^(\d)\1{8}$/.test(b)).map((base) => base + cpfCheckDigits(base))
const cnpjArb = fc.stringMatching(/^\d{12}$/).filter((b) => !/^(\d)\1{11}$/.test(b)).map((base) => base + cnpjCheckDigits(base))
const alphaCnpjArb = fc.stringMatching(/^[0-9A-Z]{12}$/).map((base) => base + cnpjCheckDigits(base))

describe("CPF and CNPJ vectors", () => {
  it("accepts known documents and the alphanumeric CNPJ of the RFB example", () => {
    expect(isValidCpf("529.982.247-25")).toBe(true)
    expect(isValidCnpj("11.444.777/0001-61")).toBe(true)
    expect(isValidCnpj("12ABC34501DE35")).toBe(true)
    expect(isValidCnpj("12.ABC.345/01DE-35")).toBe(true)
  })

  it("rejects repeated-digit documents, wrong lengths and letters in check digits", () => {
    for (const d of ["00000000000", "11111111111", "99999999999", "00000000000000", "11111111111111", "1234567890", "12ABC34501DE3A"]) {
      expect(documentKind(d)).toBeUndefined()
    }
  })
})

describe("document parsing", () => {
  const failure = <A, E>(r: Result.Result<A, E>) => (Result.isFailure(r) ? r.failure : undefined)

  it("normalises punctuation and case", () => {
    expect(normalizeDocument("12.abc.345/01de-35")).toBe("12ABC34501DE35")
    expect(normalizeDocument("529.982.247-25")).toBe("52998224725")
  })

  it("returns the normalised document and its kind", () => {
    expect(Result.getOrThrow(parseDocument("529.982.247-25"))).toEqual({ kind: "CPF", number: "52998224725" })
    expect(Result.getOrThrow(parseDocument("12.abc.345/01de-35"))).toEqual({ kind: "CNPJ", number: "12ABC34501DE35" })
    expect(Result.getOrThrow(parseCpf("529.982.247-25"))).toBe("52998224725")
    expect(Result.getOrThrow(parseCnpj("11.444.777/0001-61"))).toBe("11444777000161")
  })

  it("says why a document is refused", () => {
    expect(failure(parseCpf("529.982.247-26"))).toMatchObject({ _tag: "DocumentInvalid", expected: "CPF", reason: "checkDigits" })
    expect(failure(parseCpf("111.111.111-11"))).toMatchObject({ expected: "CPF", reason: "repeated" })
    expect(failure(parseCpf("5299822472"))).toMatchObject({ expected: "CPF", reason: "format" })
    expect(failure(parseCnpj("12ABC34501DE3A"))).toMatchObject({ expected: "CNPJ", reason: "format" })
    expect(failure(parseCnpj("AAAAAAAAAAAAAA"))).toMatchObject({ expected: "CNPJ", reason: "format" })
    expect(failure(parseCnpj("00000000000000"))).toMatchObject({ expected: "CNPJ", reason: "repeated" })
    expect(failure(parseDocument("12ABC34501DE36"))).toMatchObject({ expected: "CNPJ", reason: "checkDigits" })
    expect(failure(parseDocument("123"))).toMatchObject({ expected: "CPF or CNPJ", reason: "format" })
  })
})

describe("document properties", () => {
  it("every generated CPF is valid for both independent checkers and for us", () => {
    fc.assert(fc.property(cpfArb, (cpf) => {
      expect(isValidCpf(cpf)).toBe(true)
      expect(theirCpf(cpf)).toBe(true)
      expect(cpfValidator.isValid(cpf)).toBe(true)
      expect(documentKind(cpf)).toBe("CPF")
      const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`
      expect(Result.getOrThrow(parseDocument(formatted))).toEqual({ kind: "CPF", number: cpf })
    }), { numRuns: 500 })
  })

  it("every generated CNPJ, numeric or alphanumeric, is valid for both independent checkers and for us", () => {
    fc.assert(fc.property(fc.oneof(cnpjArb, alphaCnpjArb), (cnpj) => {
      expect(isValidCnpj(cnpj)).toBe(true)
      expect(theirCnpj(cnpj, { version: 2 })).toBe(true)
      expect(cnpjValidator.isValid(cnpj)).toBe(true)
      expect(documentKind(cnpj)).toBe("CNPJ")
      const formatted = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`.toLowerCase()
      expect(Result.getOrThrow(parseDocument(formatted))).toEqual({ kind: "CNPJ", number: cnpj })
    }), { numRuns: 500 })
  })

  it("every single-digit corruption of a CPF or numeric CNPJ is rejected, unless it is itself a valid document", () => {
    // The rule maps remainders 0 and 1 to the same digit 0, so a few
    // corruptions land on another valid document; the independent checkers
    // must then agree that it is one.
    let collisions = 0
    fc.assert(fc.property(fc.oneof(cpfArb, cnpjArb), fc.nat(), fc.integer({ min: 1, max: 9 }), (doc, at, delta) => {
      const i = at % doc.length
      const corrupted = doc.slice(0, i) + String((Number(doc[i]) + delta) % 10) + doc.slice(i + 1)
      const ours = documentKind(corrupted)
      const theirs = corrupted.length === 11
        ? theirCpf(corrupted) && cpfValidator.isValid(corrupted)
        : theirCnpj(corrupted) && cnpjValidator.isValid(corrupted)
      expect(ours !== undefined).toBe(theirs)
      if (theirs) collisions++
    }), { numRuns: 2000 })
    expect(collisions).toBeLessThan(2000 * 0.02)
  })

  it("every single-character corruption of an alphanumeric CNPJ is judged as both independent checkers judge it", () => {
    // Characters are worth their ASCII code minus 48 and the check is mod 11, so
    // trading one for another 11 apart (7 for B) cannot be seen, and remainders
    // 0 and 1 share a digit: a property of the RFB algorithm itself. What must
    // hold is that we never disagree with the reference implementations.
    const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    let undetected = 0
    fc.assert(fc.property(alphaCnpjArb, fc.nat(), fc.nat(), (doc, at, pick) => {
      const i = at % doc.length
      const c = chars[pick % chars.length]!
      fc.pre(c !== doc[i])
      const corrupted = doc.slice(0, i) + c + doc.slice(i + 1)
      const theirs = theirCnpj(corrupted, { version: 2 }) && cnpjValidator.isValid(corrupted)
      expect(isValidCnpj(corrupted)).toBe(theirs)
      if (theirs) undetected++
    }), { numRuns: 2000 })
    expect(undetected).toBeLessThan(2000 * 0.1)
  })
})

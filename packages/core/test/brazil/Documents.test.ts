import { isValidCnpj as theirCnpj, isValidCpf as theirCpf } from "@brazilian-utils/brazilian-utils"
import { cnpj as cnpjValidator, cpf as cpfValidator } from "cpf-cnpj-validator"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cnpjCheckDigits, cpfCheckDigits, documentKind, isValidCnpj, isValidCpf } from "../../src/brazil/Documents.ts"

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

describe("document properties", () => {
  it("every generated CPF is valid for both independent checkers and for us", () => {
    fc.assert(fc.property(cpfArb, (cpf) => {
      expect(isValidCpf(cpf)).toBe(true)
      expect(theirCpf(cpf)).toBe(true)
      expect(cpfValidator.isValid(cpf)).toBe(true)
      expect(documentKind(cpf)).toBe("CPF")
    }), { numRuns: 500 })
  })

  it("every generated CNPJ, numeric or alphanumeric, is valid for both independent checkers and for us", () => {
    fc.assert(fc.property(fc.oneof(cnpjArb, alphaCnpjArb), (cnpj) => {
      expect(isValidCnpj(cnpj)).toBe(true)
      expect(theirCnpj(cnpj, { version: 2 })).toBe(true)
      expect(cnpjValidator.isValid(cnpj)).toBe(true)
      expect(documentKind(cnpj)).toBe("CNPJ")
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

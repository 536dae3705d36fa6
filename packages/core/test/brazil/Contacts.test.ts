import { isValidCep, isValidLandlinePhone, isValidMobilePhone } from "@brazilian-utils/brazilian-utils"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isUf, normalizeCep, normalizePhoneE164, UFS } from "../../src/brazil/Contacts.ts"
import { isEndToEndId, makeEndToEndId, parseEndToEndId } from "../../src/brazil/EndToEndId.ts"

describe("phones", () => {
  it("accepts +55 with an area code and 8 (landline) or 9 (mobile) digits", () => {
    expect(normalizePhoneE164("+5511987654321")).toBe("+5511987654321")
    expect(normalizePhoneE164("+55 (21) 3456-7890")).toBe("+552134567890")
  })
  it("refuses other countries, missing +55, unknown area codes and malformed numbers", () => {
    for (const p of ["11987654321", "+14155552671", "+5520987654321", "+551187654321", "+55119876543210", "+5511187654321", "+55119876"]) {
      expect(normalizePhoneE164(p), p).toBeUndefined()
    }
  })
})

describe("phone properties", () => {
  const ddd = fc.constantFrom(11, 21, 31, 41, 47, 51, 61, 71, 81, 85, 91, 92, 99)
  const mobile = fc.tuple(ddd, fc.stringMatching(/^9\d{8}$/)).map(([d, n]) => `+55${d}${n}`)
  const landline = fc.tuple(ddd, fc.stringMatching(/^[2-5]\d{7}$/)).map(([d, n]) => `+55${d}${n}`)

  it("every mobile we accept is a mobile for brazilian-utils, and keeps its digits", () => {
    fc.assert(fc.property(mobile, (p) => {
      expect(normalizePhoneE164(p)).toBe(p)
      expect(isValidMobilePhone(p)).toBe(true)
    }))
  })

  it("every landline we accept is a landline for brazilian-utils, and keeps its digits", () => {
    fc.assert(fc.property(landline, (p) => {
      expect(normalizePhoneE164(p)).toBe(p)
      expect(isValidLandlinePhone(p)).toBe(true)
    }))
  })

  it("every formatted number normalises to the same E.164 text", () => {
    fc.assert(fc.property(mobile, (p) => {
      const formatted = `+55 (${p.slice(3, 5)}) ${p.slice(5, 10)}-${p.slice(10)}`
      expect(normalizePhoneE164(formatted)).toBe(p)
    }))
  })
})

describe("CEP and UF", () => {
  it("accepts every 8-digit CEP brazilian-utils accepts, but 00000-000", () => {
    fc.assert(fc.property(fc.stringMatching(/^\d{5}-?\d{3}$/), (cep) => {
      expect(normalizeCep(cep) !== undefined).toBe(isValidCep(cep) && cep.replace("-", "") !== "00000000")
    }))
  })

  it("accepts 8 digits with or without the dash", () => {
    expect(normalizeCep("01310-100")).toBe("01310100")
    expect(normalizeCep("01310100")).toBe("01310100")
    expect(normalizeCep("1310-100")).toBeUndefined()
    expect(normalizeCep("00000-000")).toBeUndefined()
  })
  it("knows the 27 units", () => {
    expect(UFS).toHaveLength(27)
    expect(isUf("SP")).toBe(true)
    expect(isUf("df")).toBe(true)
    expect(isUf("XX")).toBe(false)
  })
})

describe("Pix end-to-end ids", () => {
  it("are E + ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics", () => {
    const id = makeEndToEndId("00000000", Date.UTC(2026, 10, 22, 9, 5), "abcDEF12345")
    expect(id).toBe("E00000000202611220905abcDEF12345")
    expect(id).toHaveLength(32)
    expect(isEndToEndId(id!)).toBe(true)
  })
  it("refuse malformed ids and impossible dates", () => {
    expect(isEndToEndId("E00000000202613220905abcDEF12345")).toBe(false) // month 13
    expect(isEndToEndId("E0000000020261122090abcDEF12345")).toBe(false)
    expect(isEndToEndId("D00000000202611220905abcDEF12345")).toBe(false)
    expect(makeEndToEndId("123", 0, "abcDEF12345")).toBeUndefined()
  })
  it("read back into their parts", () => {
    const parts = Result.getOrThrow(parseEndToEndId("E00000000202611220905abcDEF12345"))
    expect(parts).toEqual({ ispb: "00000000", atMillis: Date.UTC(2026, 10, 22, 9, 5), random: "abcDEF12345" })
    const bad = parseEndToEndId("E00000000202602300905abcDEF12345") // 30 February
    expect(Result.isFailure(bad) && bad.failure._tag).toBe("EndToEndIdInvalid")
    expect(isEndToEndId("E00000000202611222405abcDEF12345")).toBe(false) // 24:05
    expect(isEndToEndId("E00000000202611220960abcDEF12345")).toBe(false) // 09:60
  })
  it("are not made from instants that are not numbers or fall outside four-digit years", () => {
    expect(makeEndToEndId("00000000", Number.NaN, "abcDEF12345")).toBeUndefined()
    expect(makeEndToEndId("00000000", Date.UTC(10000, 0, 1), "abcDEF12345")).toBeUndefined()
    expect(makeEndToEndId("00000000", 0, "abcDEF1234")).toBeUndefined()
    expect(makeEndToEndId("00000000", 0, "abcDEF1234_")).toBeUndefined()
  })
  it("round-trip for any instant and random part", () => {
    fc.assert(fc.property(
      fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2099, 11, 31) }),
      fc.stringMatching(/^[A-Za-z0-9]{11}$/),
      fc.stringMatching(/^\d{8}$/),
      (at, random, ispb) => {
        const id = makeEndToEndId(ispb, at, random)!
        expect(id).toHaveLength(32)
        expect(Result.getOrThrow(parseEndToEndId(id))).toEqual({ ispb, atMillis: at - (at % 60_000), random })
      }
    ))
  })
})

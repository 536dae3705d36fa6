import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isUf, normalizeCep, normalizePhoneE164, UFS } from "../../src/brazil/Contacts.ts"
import { isEndToEndId, makeEndToEndId } from "../../src/brazil/EndToEndId.ts"

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

describe("CEP and UF", () => {
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
  it("round-trip for any instant and random part", () => {
    fc.assert(fc.property(
      fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2099, 11, 31) }),
      fc.stringMatching(/^[A-Za-z0-9]{11}$/),
      fc.stringMatching(/^\d{8}$/),
      (at, random, ispb) => {
        const id = makeEndToEndId(ispb, at, random)!
        expect(isEndToEndId(id)).toBe(true)
        expect(id.slice(1, 9)).toBe(ispb)
      }
    ))
  })
})

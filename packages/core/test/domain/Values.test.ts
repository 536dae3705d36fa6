/**
 * The values clients send are validated by decoding: each schema normalizes
 * what a client may reasonably send and refuses the rest. Expected answers are
 * worked out by hand or by an independent validator (cpf-cnpj-validator).
 */
import { CalendarDate, Cep, DocumentNumber, Email, Money, optional, Percent, PhoneE164, Uf } from "@billing/core"
import { cpf as cpfValidator } from "cpf-cnpj-validator"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const decode = <S extends Schema.Codec<unknown, unknown>>(schema: S) => {
  const run = Schema.decodeUnknownResult(schema)
  return (input: unknown) => {
    const result = run(input)
    return Result.isSuccess(result) ? { ok: result.success } : { refused: true }
  }
}

describe("validated values", () => {
  it("DocumentNumber: a CPF with punctuation decodes to its digits; a wrong check digit is refused", () => {
    const document = decode(DocumentNumber)
    expect(document("529.982.247-25")).toEqual({ ok: "52998224725" })
    expect(document("11.444.777/0001-61")).toEqual({ ok: "11444777000161" })
    expect(document("529.982.247-24")).toEqual({ refused: true })
    expect(document("111.111.111-11")).toEqual({ refused: true })
    expect(document(52998224725)).toEqual({ refused: true })
  })

  it("DocumentNumber agrees with an independent validator on any 11 digits", () => {
    const document = decode(DocumentNumber)
    fc.assert(fc.property(fc.stringMatching(/^\d{11}$/), (digits) => {
      expect("ok" in document(digits)).toBe(cpfValidator.isValid(digits))
    }), { numRuns: 2000 })
  })

  it("DocumentNumber takes the alphanumeric CNPJ the tax authority issues since July 2026", () => {
    expect(decode(DocumentNumber)("12.ABC.345/01DE-35")).toEqual({ ok: "12ABC34501DE35" })
    expect(decode(DocumentNumber)("12.ABC.345/01DE-36")).toEqual({ refused: true })
  })

  it("PhoneE164: +55, a real area code, a landline of 8 or a mobile of 9 starting 9", () => {
    const phone = decode(PhoneE164)
    expect(phone("+55 (11) 97589-6541")).toEqual({ ok: "+5511975896541" })
    expect(phone("+551133334444")).toEqual({ ok: "+551133334444" })
    expect(phone("11975896541")).toEqual({ refused: true })
    expect(phone("+552075896541")).toEqual({ refused: true })
    expect(phone("+5511875896541")).toEqual({ refused: true })
  })

  it("Email, Cep, Uf and CalendarDate", () => {
    expect(decode(Email)("maria@example.com")).toEqual({ ok: "maria@example.com" })
    expect(decode(Email)("maria@example")).toEqual({ refused: true })
    expect(decode(Cep)("01310-100")).toEqual({ ok: "01310100" })
    expect(decode(Cep)("00000-000")).toEqual({ refused: true })
    expect(decode(Uf)("sp")).toEqual({ ok: "SP" })
    expect(decode(Uf)("XX")).toEqual({ refused: true })
    expect(decode(CalendarDate)("2028-02-29")).toEqual({ ok: "2028-02-29" })
    expect(decode(CalendarDate)("2026-02-29")).toEqual({ refused: true })
    expect(decode(CalendarDate)("2026-2-1")).toEqual({ refused: true })
  })

  it("Percent: hundredths above 0 and at most 100, two decimals at most", () => {
    const percent = decode(Percent)
    expect(percent(12.5)).toEqual({ ok: 1250 })
    expect(percent("0.01")).toEqual({ ok: 1 })
    expect(percent(100)).toEqual({ ok: 10_000 })
    expect(percent(0)).toEqual({ refused: true })
    expect(percent(100.01)).toEqual({ refused: true })
    expect(percent(12.345)).toEqual({ refused: true })
  })

  it("every text value is bounded: 501 characters are refused before any rule runs", () => {
    expect(decode(Email)(`${"a".repeat(495)}@b.com`)).toEqual({ refused: true })
  })

  it("optional: a missing key and null both decode to an absent key; a value decodes as its schema says", () => {
    const Body = Schema.Struct({ note: optional(Schema.String), amount: optional(Money.Reais) })
    const body = decode(Body)
    expect(body({})).toEqual({ ok: {} })
    expect(body({ note: null, amount: null })).toEqual({ ok: {} })
    expect(body({ note: "oi", amount: "10.5" })).toEqual({ ok: { note: "oi", amount: 1050 } })
    expect(body({ amount: 10.005 })).toEqual({ refused: true })
    expect(Schema.encodeSync(Body)({})).toEqual({})
  })
})

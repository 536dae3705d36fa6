import { isValidPixPayload } from "@brazilian-utils/brazilian-utils"
import { Result } from "effect"
import fc from "fast-check"
import jsQRModule from "jsqr"
import { hasError, parsePix } from "pix-utils"
import { PNG } from "pngjs"
import { describe, expect, it } from "vitest"
import { crc16Hex } from "../../src/brazil/Crc16.ts"
import { buildBrCode, type BrCodeInput, parseBrCode, type ParsedBrCode } from "../../src/brazil/PixBrCode.ts"
import { cents, toDecimalString } from "../../src/money/Money.ts"
import { qrPng, qrPngDataUrl } from "../../src/brazil/QrPng.ts"

const ok = <A, E>(r: Result.Result<A, E>): A => {
  if (Result.isFailure(r)) throw new Error(`expected success, got ${JSON.stringify(r.failure)}`)
  return r.success
}

// jsqr is CommonJS with `export default` typings; Node hands us the function itself.
const jsQR = jsQRModule as unknown as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null

const readQr = (png: Uint8Array) => {
  const image = PNG.sync.read(Buffer.from(png))
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data
}

describe("CRC-16/CCITT-FALSE", () => {
  it("has the standard check value 29B1 for 123456789", () => {
    expect(crc16Hex("123456789")).toBe("29B1")
  })
})

describe("BR Code against the BCB pix-api examples", () => {
  // `pixCopiaECola` examples of the BCB pix-api OpenAPI: their CRCs are theirs, not ours.
  // Copied from bacen/pix-api openapi.yaml (cob, cobv and Pix Automático composite codes).
  const examples: Array<[string, string | undefined, string | undefined]> = [
    [
      "00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa35319489063047741",
      "pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441",
      "pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890"
    ],
    [
      "00020101021226810014br.gov.bcb.pix2559pix.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e75204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/3ffa640fa4f14080adccb949fa2dc0d06304A441",
      "pix.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e7",
      "pix.example.com/qr/v2/rec/3ffa640fa4f14080adccb949fa2dc0d0"
    ],
    [
      "00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002630462C9",
      undefined,
      "pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002"
    ]
  ]
  it.each(examples)("parses %s with its own CRC", (example, location, recurrenceLocation) => {
    const parsed = ok(parseBrCode(example))
    expect(parsed.crc).toBe(example.slice(-4))
    expect(parsed.location).toBe(location)
    expect(parsed.recurrenceLocation).toBe(recurrenceLocation)
    expect(parsed.merchantName).toBe("Fulano de Tal")
    expect(parsed.merchantCity).toBe("BRASILIA")
  })

  it.each(examples)("builds %s back, byte for byte and CRC included, from its parsed fields", (example) => {
    expect(ok(buildBrCode(inputOf(ok(parseBrCode(example)))))).toBe(example)
  })

  it.each(examples)("is accepted by pix-utils: %s", (example) => {
    expect(hasError(parsePix(example))).toBe(false)
  })
})

/** The builder input that makes a parsed code (for the kinds the builder makes). */
const inputOf = (parsed: ParsedBrCode): BrCodeInput => {
  const common = { merchantName: parsed.merchantName, merchantCity: parsed.merchantCity, txid: parsed.txid }
  if (parsed.location !== undefined) {
    return { kind: "dynamic", location: parsed.location, recurrenceLocation: parsed.recurrenceLocation, ...common }
  }
  if (parsed.key !== undefined) {
    return { kind: "static", key: parsed.key, description: parsed.description, amountCents: parsed.amountCents, ...common }
  }
  return { kind: "recurrence", recurrenceLocation: parsed.recurrenceLocation!, ...common }
}

describe("BR Code building", () => {
  it("builds a dynamic single-use code with the fields of the manual, in order", () => {
    const emv = ok(buildBrCode({
      kind: "dynamic",
      location: "pix.example.com/qr/v2/cobv/9d36b84f",
      merchantName: "Padaria Pão de Açúcar",
      merchantCity: "São José dos Campos"
    }))
    expect(emv.startsWith("000201" + "010212" + "2657" + "0014br.gov.bcb.pix" + "2535pix.example.com/qr/v2/cobv/9d36b84f")).toBe(true)
    // Name and city lose their accents; the city is cut to the 15 characters allowed.
    expect(emv).toContain("52040000" + "5303986" + "5802BR" + "5921Padaria Pao de Acucar" + "6015Sao Jose dos Ca" + "62")
    expect(emv).toContain("62070503***6304")
    expect(emv.slice(-4)).toBe(crc16Hex(emv.slice(0, -4)))
  })

  it("prints centavos as reais with a dot and two decimals (field 54), exactly up to the largest safe integer", () => {
    const formatAmount = (n: number) => toDecimalString(cents(n))
    expect(formatAmount(0)).toBe("0.00")
    expect(formatAmount(5)).toBe("0.05")
    expect(formatAmount(1050)).toBe("10.50")
    expect(formatAmount(100000)).toBe("1000.00")
    expect(formatAmount(Number.MAX_SAFE_INTEGER)).toBe("90071992547409.91")
    fc.assert(fc.property(fc.maxSafeNat(), (cents) => {
      const printed = formatAmount(cents)
      expect(printed).toMatch(/^\d+\.\d{2}$/)
      expect(BigInt(printed.replace(".", ""))).toBe(BigInt(cents))
    }))
  })

  it("prints the amount of a static code with a dot and two decimals", () => {
    const emv = ok(buildBrCode({ kind: "static", key: "+5511999999999", amountCents: 100005, merchantName: "A", merchantCity: "B", txid: "ABC123" }))
    expect(emv).toContain("54071000.05")
    expect(emv).toContain("62100506ABC123")
  })

  it("counts lengths in bytes", () => {
    const emv = ok(buildBrCode({ kind: "static", key: "chave-ção@example.com", merchantName: "A", merchantCity: "B" }))
    // 21 characters, 23 bytes in UTF-8.
    expect(emv).toContain("0123chave-ção@example.com")
  })

  it("refuses values the manual does not allow", () => {
    const base = { merchantName: "Loja", merchantCity: "Cidade" }
    expect(Result.isFailure(buildBrCode({ kind: "dynamic", location: "https://x.com/a", ...base }))).toBe(true)
    expect(Result.isFailure(buildBrCode({ kind: "static", key: "k", txid: "has space", ...base }))).toBe(true)
    expect(Result.isFailure(buildBrCode({ kind: "static", key: "k", txid: "A".repeat(26), ...base }))).toBe(true)
    expect(Result.isFailure(buildBrCode({ kind: "static", key: "k", amountCents: 0, ...base }))).toBe(true)
    expect(Result.isFailure(buildBrCode({ kind: "static", key: "k", merchantName: "", merchantCity: "X" }))).toBe(true)
    expect(Result.isFailure(buildBrCode({ kind: "static", key: "k", amountCents: 10.5, ...base }))).toBe(true)
    expect(Result.isFailure(buildBrCode({ kind: "static", key: "k".repeat(78), ...base }))).toBe(true)
    expect(Result.isFailure(buildBrCode({ kind: "dynamic", location: "x".repeat(78), ...base }))).toBe(true)
    expect(Result.isFailure(buildBrCode({ kind: "recurrence", recurrenceLocation: "https://x.com/rec/1", ...base }))).toBe(true)
    const failure = buildBrCode({ kind: "static", key: "k", txid: "with-dash", ...base })
    expect(Result.isFailure(failure) && failure.failure._tag).toBe("BrCodeInvalidInput")
    expect(Result.isFailure(failure) && failure.failure.field).toBe("txid")
  })

  it("leaves out a description that has nothing left once cleaned", () => {
    const emv = ok(buildBrCode({ kind: "static", key: "k@example.com", description: "✓✓", merchantName: "A", merchantCity: "B" }))
    expect(ok(parseBrCode(emv)).description).toBeUndefined()
  })

  it("builds a Pix Automático code alone: GUI only in 26, no point of initiation, recurrence in 80", () => {
    const emv = ok(buildBrCode({ kind: "recurrence", recurrenceLocation: "psp.example.com/rec/abc", merchantName: "Loja", merchantCity: "Recife" }))
    expect(emv.startsWith("000201" + "2618" + "0014br.gov.bcb.pix" + "5204")).toBe(true)
    expect(emv).toContain("62070503***" + "8045" + "0014br.gov.bcb.pix" + "2523psp.example.com/rec/abc" + "6304")
    expect(parsePix(emv)).toMatchObject({ type: "RECURRENCE", urlRec: "psp.example.com/rec/abc" })
  })
})

describe("BR Code parsing errors", () => {
  const valid = ok(buildBrCode({ kind: "static", key: "k@example.com", merchantName: "Loja", merchantCity: "Recife", amountCents: 1050 }))
  const tagOf = (text: string) => {
    const r = parseBrCode(text)
    return Result.isFailure(r) ? r.failure._tag : "ok"
  }
  // Re-seals a tampered code with a good CRC, so the check under test is the one that speaks.
  const reseal = (body: string) => body + crc16Hex(body)

  it("tells a CRC mismatch with the CRC it expected", () => {
    const r = parseBrCode(valid.slice(0, -4) + "0000")
    expect(Result.isFailure(r) && r.failure).toMatchObject({ _tag: "BrCodeCrcMismatch", expected: valid.slice(-4), actual: "0000" })
  })

  it("refuses a CRC written in lowercase hex", () => {
    const withLetters = Array.from({ length: 50 }, (_, i) =>
      ok(buildBrCode({ kind: "static", key: "k@example.com", merchantName: "Loja", merchantCity: "Recife", amountCents: 100 + i }))
    ).find((code) => /[A-F]/.test(code.slice(-4)))!
    expect(tagOf(withLetters)).toBe("ok")
    expect(tagOf(withLetters.slice(0, -4) + withLetters.slice(-4).toLowerCase())).toBe("BrCodeCrcMismatch")
  })

  it("refuses lengths that run past the end, missing fields and a foreign GUI, even under a good CRC", () => {
    expect(tagOf("")).toBe("BrCodeMalformed")
    expect(tagOf(reseal("000201" + "5999Loja" + "6304"))).toBe("BrCodeMalformed")
    expect(tagOf(reseal(valid.slice(0, -4).replace("5802BR", "")))).toBe("BrCodeMalformed")
    expect(tagOf(reseal(valid.slice(0, -4).replace("br.gov.bcb.pix", "br.gov.bcb.xyz")))).toBe("BrCodeMalformed")
    expect(tagOf(reseal(valid.slice(0, -4).replace("540510.50", "540510,50")))).toBe("BrCodeMalformed")
    expect(tagOf(reseal("000202" + valid.slice(6, -4)))).toBe("BrCodeMalformed")
  })
})

const alnum = fc.stringMatching(/^[A-Za-z0-9]{1,25}$/)
// Words of letters and digits separated by single spaces: text a BR Code keeps as it is.
const text = (max: number) =>
  fc.array(fc.stringMatching(/^[A-Za-z0-9]{1,8}$/), { minLength: 1, maxLength: 4 })
    .map((words) => words.join(" ").slice(0, max).trim())
    .filter((s) => s.length > 0)
const location = fc.stringMatching(/^[a-z]{3,12}\.example\.com\/v2\/[a-f0-9]{32}$/)
const input: fc.Arbitrary<BrCodeInput> = fc.oneof(
  fc.record({
    kind: fc.constant("static" as const),
    key: fc.oneof(fc.emailAddress().filter((e) => e.length <= 50), fc.uuid()),
    amountCents: fc.option(fc.integer({ min: 1, max: 9_999_999_999 }), { nil: undefined }),
    description: fc.option(text(20), { nil: undefined }),
    merchantName: text(25),
    merchantCity: text(15),
    txid: fc.option(alnum, { nil: undefined })
  }),
  fc.record({
    kind: fc.constant("dynamic" as const),
    location,
    recurrenceLocation: fc.option(location.map((l) => l.replace("/v2/", "/rec/")), { nil: undefined }),
    merchantName: text(25),
    merchantCity: text(15)
  }),
  fc.record({
    kind: fc.constant("recurrence" as const),
    recurrenceLocation: location.map((l) => l.replace("/v2/", "/rec/")),
    merchantName: text(25),
    merchantCity: text(15)
  })
)

describe("BR Code properties", () => {
  it("every generated code is accepted by pix-utils and brazilian-utils and parses back to what was generated", () => {
    fc.assert(fc.property(input, (generated) => {
      const emv = ok(buildBrCode(generated))
      // brazilian-utils does not know Pix Automático codes alone (no key, no location in 26).
      if (generated.kind !== "recurrence") expect(isValidPixPayload(emv)).toBe(true)
      const theirs = parsePix(emv)
      expect(hasError(theirs)).toBe(false)
      const ours = ok(parseBrCode(emv))
      expect(ours.merchantName).toBe(generated.merchantName)
      expect(ours.merchantCity).toBe(generated.merchantCity)
      expect(ours.txid).toBe(generated.txid ?? "***")
      switch (generated.kind) {
        case "static":
          expect(ours).toMatchObject({ key: generated.key, amountCents: generated.amountCents, description: generated.description })
          expect(ours.pointOfInitiationMethod).toBeUndefined()
          expect(theirs).toMatchObject({ type: "STATIC", pixKey: generated.key })
          break
        case "dynamic":
          expect(ours).toMatchObject({ location: generated.location, recurrenceLocation: generated.recurrenceLocation, pointOfInitiationMethod: "12" })
          expect(theirs).toMatchObject({ type: "DYNAMIC", url: generated.location })
          break
        case "recurrence":
          expect(ours).toMatchObject({ location: undefined, key: undefined, recurrenceLocation: generated.recurrenceLocation })
          expect(theirs).toMatchObject({ type: "RECURRENCE", urlRec: generated.recurrenceLocation })
      }
      // And building from what was parsed gives the same text.
      expect(ok(buildBrCode(inputOf(ours)))).toBe(emv)
    }), { numRuns: 300 })
  })

  it("every single-character corruption of a valid code is rejected", () => {
    fc.assert(fc.property(input, fc.nat(), fc.integer({ min: 33, max: 126 }), (generated, at, code) => {
      const emv = ok(buildBrCode(generated))
      const i = at % emv.length
      const replacement = String.fromCharCode(code)
      fc.pre(replacement !== emv[i])
      const corrupted = emv.slice(0, i) + replacement + emv.slice(i + 1)
      expect(Result.isFailure(parseBrCode(corrupted))).toBe(true)
    }), { numRuns: 500 })
  })
})

describe("QR PNG", () => {
  it("is a PNG data URL whose image decodes back to exactly the EMV text", () => {
    fc.assert(fc.property(input, (generated) => {
      const emv = ok(buildBrCode(generated))
      const url = qrPngDataUrl(emv)
      expect(url.startsWith("data:image/png;base64,")).toBe(true)
      const png = Uint8Array.from(Buffer.from(url.slice("data:image/png;base64,".length), "base64"))
      expect(readQr(png)).toBe(emv)
    }), { numRuns: 60 })
  })

  it("decodes at every scale and error-correction level offered", () => {
    const emv = ok(buildBrCode({ kind: "static", key: "11144477735", merchantName: "Loja", merchantCity: "Recife", amountCents: 4990 }))
    for (const scale of [2, 4, 8]) for (const ecc of ["low", "medium", "quartile", "high"] as const) {
      expect(readQr(qrPng(emv, { scale, ecc }))).toBe(emv)
    }
  })
})

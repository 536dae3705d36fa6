import { isValidPixPayload } from "@brazilian-utils/brazilian-utils"
import { Result } from "effect"
import fc from "fast-check"
import jsQRModule from "jsqr"
import { hasError, parsePix } from "pix-utils"
import { PNG } from "pngjs"
import { describe, expect, it } from "vitest"
import { crc16Hex } from "../../src/brazil/Crc16.ts"
import { buildBrCode, type BrCodeInput, parseBrCode } from "../../src/brazil/PixBrCode.ts"
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
})

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
  })
})

const alnum = fc.stringMatching(/^[A-Za-z0-9]{1,25}$/)
// Words of letters and digits separated by single spaces: text a BR Code keeps as it is.
const text = (max: number) =>
  fc.array(fc.stringMatching(/^[A-Za-z0-9]{1,8}$/), { minLength: 1, maxLength: 4 })
    .map((words) => words.join(" ").slice(0, max).trim())
    .filter((s) => s.length > 0)
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
    location: fc.stringMatching(/^[a-z]{3,12}\.example\.com\/v2\/[a-f0-9]{32}$/),
    merchantName: text(25),
    merchantCity: text(15)
  })
)

describe("BR Code properties", () => {
  it("every generated code is accepted by pix-utils and brazilian-utils and parses back to what was generated", () => {
    fc.assert(fc.property(input, (generated) => {
      const emv = ok(buildBrCode(generated))
      expect(isValidPixPayload(emv)).toBe(true)
      const theirs = parsePix(emv)
      expect(hasError(theirs)).toBe(false)
      const ours = ok(parseBrCode(emv))
      expect(ours.merchantName).toBe(generated.merchantName)
      expect(ours.merchantCity).toBe(generated.merchantCity)
      if (generated.kind === "static") {
        expect(ours.key).toBe(generated.key)
        expect(ours.amountCents).toBe(generated.amountCents)
        expect(ours.txid).toBe(generated.txid ?? "***")
        expect(ours.pointOfInitiationMethod).toBeUndefined()
        if (!hasError(theirs) && theirs.type === "STATIC") expect(theirs.pixKey).toBe(generated.key)
      } else {
        expect(ours.location).toBe(generated.location)
        expect(ours.pointOfInitiationMethod).toBe("12")
      }
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

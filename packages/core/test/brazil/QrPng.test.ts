import fc from "fast-check"
import { inflateSync } from "node:zlib"
import { PNG } from "pngjs"
import { encodeQR } from "qr"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { encodeQr, isDark, type QrEcc, qrVersionFor } from "../../src/brazil/QrCode.ts"
import { encodeQrPng, qrPng, qrPngDataUrl } from "../../src/brazil/QrPng.ts"
import { zlibRepeatedLines } from "../../src/brazil/Zlib.ts"

const dynamicCode =
  "00020101021226830014br.gov.bcb.pix2561pix.example.com/qr/v2/cob/0123456789abcdef0123456789abcdef5204000053039865802BR5913Loja Exemplo 6009Sao Paulo62070503***6304"

describe("zlib stream of repeated scanlines", () => {
  const lines = fc
    .record({ stride: fc.integer({ min: 1, max: 80 }), rows: fc.integer({ min: 0, max: 40 }), repeat: fc.integer({ min: 1, max: 9 }) })
    .chain(({ stride, rows, repeat }) =>
      fc.record({
        stride: fc.constant(stride),
        repeat: fc.constant(repeat),
        // Few distinct bytes and copied rows, like a QR image, or anything at all.
        lines: fc.oneof(
          fc.uint8Array({ minLength: stride * rows, maxLength: stride * rows, max: 255 }),
          fc.array(fc.constantFrom(0x00, 0x0f, 0xf0, 0xff), { minLength: stride * rows, maxLength: stride * rows }).map((a) => Uint8Array.from(a)),
          fc.array(fc.uint8Array({ minLength: stride, maxLength: stride, max: 3 }), { minLength: 1, maxLength: 4 })
            .chain((pool) => fc.array(fc.constantFrom(...pool), { minLength: rows, maxLength: rows }))
            .map((rs) => Uint8Array.from(rs.flatMap((r) => [...r])))
        )
      })
    )

  it("inflates (with Node's zlib) to every line repeated `repeat` times, in order", () => {
    fc.assert(fc.property(lines, ({ stride, repeat, lines }) => {
      const expected: Array<number> = []
      for (let r = 0; r * stride < lines.length; r++) {
        for (let k = 0; k < repeat; k++) expected.push(...lines.subarray(r * stride, (r + 1) * stride))
      }
      expect([...inflateSync(zlibRepeatedLines(lines, stride, repeat))]).toEqual(expected)
    }), { numRuns: 400 })
  })

  it("keeps every Huffman code within 15 bits on skewed data", () => {
    // Fibonacci-like frequencies make the deepest possible Huffman tree.
    const bytes: Array<number> = []
    for (let s = 0, a = 1, b = 1; s < 24; s++, [a, b] = [b, a + b]) for (let i = 0; i < a; i++) bytes.push(s * 7)
    const data = Uint8Array.from(bytes.sort((x, y) => ((x * 31 + y) % 7) - 3))
    expect(Buffer.compare(inflateSync(zlibRepeatedLines(data, data.length, 1)), Buffer.from(data))).toBe(0)
  })
})

describe("QR symbol", () => {
  const eccs: ReadonlyArray<QrEcc> = ["low", "medium", "quartile", "high"]
  const utf8 = new TextEncoder()
  // The same symbol as the `qr` package (byte mode): size, mask choice, every module.
  const sameAsQr = (text: string, ecc: QrEcc) => {
    const ours = encodeQr(utf8.encode(text), ecc)!
    const theirs = encodeQR(text, "raw", { ecc, border: 1, encoding: "byte" })
    expect(ours.size).toBe(theirs.length - 2)
    let wrong = 0
    for (let y = 0; y < ours.size; y++) for (let x = 0; x < ours.size; x++) if (isDark(ours, x, y) !== theirs[y + 1]![x + 1]) wrong++
    expect(wrong).toBe(0)
  }

  it("is module for module the symbol of the qr package, at the largest text of every version and level", () => {
    for (const ecc of eccs) {
      for (let version = 1, length = 0; version <= 40; version++) {
        while (qrVersionFor(length + 1, ecc) === version) length++
        const text = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7 + version) % 90))).join("")
        expect(qrVersionFor(length, ecc)).toBe(version)
        sameAsQr(text, ecc)
      }
    }
  })

  it("is module for module the symbol of the qr package for any text", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 400 }), fc.constantFrom(...eccs), sameAsQr), { numRuns: 150 })
  })

  it("has no symbol for text longer than version 40 holds", () => {
    expect(qrVersionFor(2331, "medium")).toBe(40)
    expect(encodeQr(new Uint8Array(2332), "medium")).toBeUndefined()
    const tooLong = encodeQrPng("x".repeat(2332))
    expect(Result.isFailure(tooLong) && tooLong.failure).toMatchObject({ _tag: "QrTextTooLong", bytes: 2332, ecc: "medium" })
  })
})

describe("QR PNG image", () => {
  it("is a 1-bit grayscale PNG whose pixels are the qr matrix scaled, quiet zone included", () => {
    // Borders and scales that put module edges on and off byte boundaries.
    for (const [scale, border] of [[1, 4], [3, 4], [4, 4], [5, 4], [4, 2], [3, 1], [7, 3], [16, 5], [2, 9]] as const) {
      const matrix = encodeQR(dynamicCode, "raw", { ecc: "medium", border })
      const bytes = qrPng(dynamicCode, { scale, border })
      // IHDR: bit depth 1, color type 0 (grayscale), no interlace.
      expect([bytes[24], bytes[25], bytes[28]]).toEqual([1, 0, 0])
      const png = PNG.sync.read(Buffer.from(bytes))
      expect(png.width).toBe(matrix.length * scale)
      expect(png.height).toBe(matrix.length * scale)
      let wrong = 0
      for (let y = 0; y < png.height; y++) {
        for (let x = 0; x < png.width; x++) {
          const dark = png.data[(y * png.width + x) * 4] === 0
          if (dark !== matrix[Math.floor(y / scale)]![Math.floor(x / scale)]) wrong++
        }
      }
      expect(wrong).toBe(0)
    }
  })

  it("stays compact: under 1 KB as a data URL for a typical dynamic code", () => {
    expect(qrPngDataUrl(dynamicCode).length).toBeLessThan(1024)
  })

  it("clamps scale and border to their ranges instead of failing", () => {
    const size = encodeQR(dynamicCode, "raw", { ecc: "medium", border: 1 }).length - 2
    const small = PNG.sync.read(Buffer.from(qrPng(dynamicCode, { scale: 0, border: -3 })))
    expect(small.width).toBe(size)
    const large = PNG.sync.read(Buffer.from(qrPng(dynamicCode, { scale: 1000, border: 99 })))
    expect(large.width).toBe((size + 32) * 16)
  })

  it("encodes the data URL's base64 exactly as Node does", () => {
    const url = qrPngDataUrl(dynamicCode)
    expect(url).toBe(`data:image/png;base64,${Buffer.from(qrPng(dynamicCode)).toString("base64")}`)
  })
})

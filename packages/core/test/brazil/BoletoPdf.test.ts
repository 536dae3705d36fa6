import { describe, expect, it } from "vitest"
import { boletoPdf, formatDigitableLine, interleaved2of5 } from "../../src/brazil/BoletoPdf.ts"

describe("boleto PDF", () => {
  it("prints the digitable line in its five groups", () => {
    expect(formatDigitableLine("00190000090114971860168524522114675860000102656")).toBe("00190.00009 01149.718601 68524.522114 6 75860000102656")
  })

  it("draws the 44 digits as Interleaved 2 of 5: start, 22 digit pairs, stop", () => {
    // Each digit is 2 wide (3 units) and 3 narrow (1 unit) elements: 9 units, 18 a pair.
    // Start is four narrow elements (4 units), stop wide bar, narrow space, narrow bar (5 units): 4 + 22 × 18 + 5 = 405.
    const { bars, width } = interleaved2of5("00196758600001026560000001149718606852452211")
    expect(width).toBe(405)
    // Two start bars, five bars per pair, two stop bars.
    expect(bars).toHaveLength(2 + 22 * 5 + 2)
    // Pair "00": both digits NNWWN, so bars narrow, narrow, wide, wide, narrow right after the start.
    expect(bars.slice(2, 7).map(([, w]) => w)).toEqual([1, 1, 3, 3, 1])
  })

  it("writes a PDF 1.4 file whose cross-reference offsets point at its objects", () => {
    const pdf = boletoPdf({
      payeeName: "Loja", payeeDocument: "11444777000161", payerName: "Ana", payerDocument: "52998224725", payerAddress: "Rua A, 1",
      dueDate: "2026-12-10", amount: "R$ 10,00", barcode: "00196758600001026560000001149718606852452211",
      digitableLine: "00190000090114971860168524522114675860000102656", ourNumber: "1", instructions: []
    })
    const text = new TextDecoder("latin1").decode(pdf)
    expect(text.startsWith("%PDF-1.4")).toBe(true)
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true)
    const xref = Number(/startxref\n(\d+)/.exec(text)![1])
    expect(text.slice(xref, xref + 4)).toBe("xref")
    const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]))
    expect(offsets).toHaveLength(5)
    offsets.forEach((offset, i) => expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`))
  })
})

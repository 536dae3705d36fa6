/**
 * A one-page PDF of a bank boleto: payee, payer, due date, amount, digitable
 * line and the Interleaved 2 of 5 barcode of the 44 digits, drawn as
 * rectangles (`Pdf.ts` writes the file).
 */
import { onePagePdf, pdfText } from "./Pdf.ts"

export interface BoletoPdfData {
  readonly payeeName: string
  readonly payeeDocument: string
  readonly payerName: string
  readonly payerDocument: string
  readonly payerAddress: string
  readonly dueDate: string
  /** Amount already formatted, e.g. `R$ 1.026,56`. */
  readonly amount: string
  readonly barcode: string
  readonly digitableLine: string
  readonly ourNumber: string
  readonly instructions: ReadonlyArray<string>
}

/** `00190000090114971860168524522114675860000102656` → `00190.00009 01149.718601 68524.522114 6 75860000102656`. */
export const formatDigitableLine = (line: string): string =>
  `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`

// Interleaved 2 of 5: each digit is five elements, N(arrow) or W(ide).
const I25 = ["NNWWN", "WNNNW", "NWNNW", "WWNNN", "NNWNW", "WNWNN", "NWWNN", "NNNWW", "WNNWN", "NWNWN"]

/** The bars of an even-length digit string as [x, width] in narrow-module units. */
export const interleaved2of5 = (digits: string): { readonly bars: ReadonlyArray<readonly [number, number]>; readonly width: number } => {
  const elements: Array<[isBar: boolean, wide: boolean]> = [[true, false], [false, false], [true, false], [false, false]]
  for (let i = 0; i < digits.length; i += 2) {
    const bars = I25[Number(digits[i])]!
    const spaces = I25[Number(digits[i + 1])]!
    for (let k = 0; k < 5; k++) elements.push([true, bars[k] === "W"], [false, spaces[k] === "W"])
  }
  elements.push([true, true], [false, false], [true, false])
  const out: Array<readonly [number, number]> = []
  let x = 0
  for (const [isBar, wide] of elements) {
    const w = wide ? 3 : 1
    if (isBar) out.push([x, w])
    x += w
  }
  return { bars: out, width: x }
}

export const boletoPdf = (data: BoletoPdfData): Uint8Array => {
  const lines: Array<string> = []
  const text = (x: number, y: number, size: number, value: string) =>
    lines.push(`BT /F1 ${size} Tf ${x} ${y} Td (${pdfText(value)}) Tj ET`)
  const rule = (y: number) => lines.push(`40 ${y} m 555 ${y} l S`)
  text(40, 790, 16, "Boleto bancario")
  text(300, 790, 11, formatDigitableLine(data.digitableLine))
  rule(780)
  text(40, 760, 9, `Beneficiario: ${data.payeeName} - ${data.payeeDocument}`)
  text(40, 745, 9, `Pagador: ${data.payerName} - ${data.payerDocument}`)
  text(40, 730, 9, data.payerAddress)
  text(40, 710, 9, `Vencimento: ${data.dueDate}`)
  text(220, 710, 9, `Valor do documento: ${data.amount}`)
  text(420, 710, 9, `Nosso numero: ${data.ourNumber}`)
  rule(700)
  let y = 685
  for (const instruction of data.instructions.slice(0, 6)) {
    text(40, y, 8, instruction)
    y -= 12
  }
  text(40, 600, 8, "Linha digitavel")
  text(40, 585, 12, formatDigitableLine(data.digitableLine))
  const { bars } = interleaved2of5(data.barcode)
  const module = 0.96 // ~0.34 mm per narrow module: the barcode fits 103 mm as FEBRABAN asks
  for (const [x, w] of bars) lines.push(`${(40 + x * module).toFixed(2)} 520 ${(w * module).toFixed(2)} 46 re f`)
  return onePagePdf(lines)
}

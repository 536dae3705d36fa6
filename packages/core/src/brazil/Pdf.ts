/**
 * A one-page PDF written by hand (PDF 1.4, one Helvetica font, an
 * uncompressed content stream), so the core needs no PDF library and no
 * Node API: the boleto's and the sandbox city's note are drawn with it.
 */

/** A PDF string's text: Latin-1 (WinAnsiEncoding), with `\`, `(` and `)` escaped; other characters become `?`. */
export const pdfText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\xff]/g, "?")

/** The PDF of one A4 page whose content stream is `lines` (operators such as `BT ... ET`, `re f`). */
export const onePagePdf = (lines: ReadonlyArray<string>): Uint8Array => {
  const content = lines.join("\n")
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
  ]
  let pdf = "%PDF-1.4\n"
  const offsets: Array<number> = []
  objects.forEach((body, i) => {
    offsets.push(pdf.length)
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = pdf.length
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) pdf += `${offset.toString().padStart(10, "0")} 00000 n \n`
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  // Every character is Latin-1 by construction, so one byte each and the offsets hold.
  return Uint8Array.from(pdf, (c) => c.charCodeAt(0))
}

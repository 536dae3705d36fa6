/**
 * `npm run bench -- qr`: Pix QR PNG data URLs per second, our path against
 * the common `qrcode` package (the baseline), in the same process, on
 * realistic BR Codes of about 150 to 250 characters: dynamic codes with
 * varied locations (some with a Pix Automático recurrence) and static codes
 * with varied keys, amounts, descriptions and txids.
 */
import QRCode from "qrcode"
import { Result } from "effect"
import { buildBrCode, type BrCodeInput } from "../packages/core/src/brazil/PixBrCode.ts"
import { qrPngDataUrl } from "../packages/core/src/brazil/QrPng.ts"

const SECONDS = 3
const hex = (n: number, width: number) => (n >>> 0).toString(16).padStart(width, "0").slice(-width)
// A cheap deterministic mix, so every run measures the same codes.
const mix = (i: number) => Math.imul(i + 1, 2654435761) >>> 0

const inputOf = (i: number): BrCodeInput => {
  const merchantName = ["Loja Exemplo Comercio LTDA", "Padaria Pão de Açúcar", "Oficina do João ME", "Mercado Bom Preço"][i % 4]!
  const merchantCity = ["São Paulo", "Rio de Janeiro", "Belo Horizonte", "Porto Alegre"][(i >> 2) % 4]!
  switch (i % 3) {
    case 0:
      return {
        kind: "dynamic",
        location: `pix.example.com/qr/v2/cob/${hex(mix(i), 8)}${hex(mix(i + 7), 8)}${hex(i, 16)}`,
        merchantName,
        merchantCity
      }
    case 1:
      return {
        kind: "dynamic",
        location: `psp.example.com/v2/cobv/${hex(mix(i), 8)}${hex(i, 16)}`,
        recurrenceLocation: i % 2 === 0 ? `psp.example.com/v2/rec/${hex(mix(i + 3), 8)}${hex(i, 16)}` : undefined,
        merchantName,
        merchantCity
      }
    default:
      return {
        kind: "static",
        key: i % 2 === 0 ? `${hex(mix(i), 8)}-${hex(mix(i + 1), 4)}-4${hex(i, 3)}-a${hex(i, 3)}-${hex(mix(i + 2), 12)}` : `+55119${(mix(i) % 1e8).toString().padStart(8, "0")}`,
        description: i % 4 === 0 ? `Pedido ${i}` : `Assinatura mensal ${i % 12 + 1}`,
        amountCents: 100 + (mix(i) % 500_000),
        txid: `TX${hex(mix(i), 8)}${hex(i, 8)}`.toUpperCase().slice(0, 5 + (i % 21)),
        merchantName,
        merchantCity
      }
  }
}

const codes = Array.from({ length: 512 }, (_, i) => Result.getOrThrow(buildBrCode(inputOf(i))))
const lengths = codes.map((c) => c.length)

const measure = async (name: string, render: (text: string) => unknown, seconds: number) => {
  for (let i = 0; i < 50; i++) await render(codes[i % codes.length]!) // warm-up
  let n = 0
  const started = performance.now()
  const until = started + seconds * 1000
  while (performance.now() < until) {
    await render(codes[n % codes.length]!)
    n++
  }
  const perSecond = n / ((performance.now() - started) / 1000)
  console.log(`${name.padEnd(10)} ${perSecond.toFixed(0).padStart(7)} PNG data URLs/s (${n} in ${seconds} s)`)
  return perSecond
}

const urls = codes.map((c) => qrPngDataUrl(c))
const average = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
console.log(
  `${codes.length} BR Codes of ${Math.min(...lengths)} to ${Math.max(...lengths)} characters (mean ${average(lengths).toFixed(0)}); ` +
    `our data URLs: mean ${average(urls.map((u) => u.length)).toFixed(0)} bytes`
)
const fast = await measure("ours", (t) => qrPngDataUrl(t), SECONDS)
const baseline = await measure("qrcode", (t) => QRCode.toDataURL(t, { errorCorrectionLevel: "M" }), SECONDS)
console.log(`RESULT qr fast_per_s=${fast.toFixed(0)} baseline_per_s=${baseline.toFixed(0)} ratio=${(fast / baseline).toFixed(1)}`)

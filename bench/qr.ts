/**
 * `npm run bench -- qr`: Pix QR PNG data URLs per second, our path against
 * the common `qrcode` package (the baseline), in the same process, on
 * realistic dynamic BR Codes with varied locations.
 */
import QRCode from "qrcode"
import { Result } from "effect"
import { buildBrCode } from "../packages/core/src/brazil/PixBrCode.ts"
import { qrPngDataUrl } from "../packages/core/src/brazil/QrPng.ts"

const codes = Array.from({ length: 512 }, (_, i) =>
  Result.getOrThrow(buildBrCode({
    kind: "dynamic",
    location: `pix.example.com/qr/v2/cob/${(i * 2654435761 >>> 0).toString(16).padStart(8, "0")}${i.toString(16).padStart(24, "0")}`,
    merchantName: "Loja Exemplo Comercio LTDA",
    merchantCity: "Sao Paulo"
  }))
)

const measure = async (name: string, render: (text: string) => unknown, seconds: number) => {
  for (let i = 0; i < 20; i++) await render(codes[i % codes.length]!) // warm-up
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

const sample = qrPngDataUrl(codes[0]!)
console.log(`BR Code of ${codes[0]!.length} characters; our data URL is ${sample.length} bytes`)
const fast = await measure("ours", (t) => qrPngDataUrl(t), 3)
const baseline = await measure("qrcode", (t) => QRCode.toDataURL(t, { errorCorrectionLevel: "M" }), 3)
console.log(`RESULT qr fast_per_s=${fast.toFixed(0)} baseline_per_s=${baseline.toFixed(0)} ratio=${(fast / baseline).toFixed(1)}`)

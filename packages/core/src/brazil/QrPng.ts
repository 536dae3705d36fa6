/**
 * The `qrCode` of a Pix charge: a PNG data URL of the BR Code. On the hot path
 * of charge creation, so it is built directly: `QrCode.ts` computes the
 * symbol, and we write a 1-bit grayscale PNG ourselves (one IDAT, compressed
 * by the small deflate of `Zlib.ts`), with no canvas and no image library.
 * Pure JavaScript: it runs wherever the core runs.
 */
import { Result, Schema } from "effect"
import { encodeQr, type QrEcc, type QrMatrix } from "./QrCode.ts"
import { zlibRepeatedLines } from "./Zlib.ts"

export interface QrPngOptions {
  /** Pixels per module, a whole number from 1 to 16 (default 4: 244 px for a typical dynamic BR Code). */
  readonly scale?: number
  /** Quiet zone in modules on each side, 0 to 16 (default 4, the standard's minimum). */
  readonly border?: number
  /** Error correction level (default "medium": 15% of the symbol may be lost, as on a creased or glossy print). */
  readonly ecc?: QrEcc
}

/** The text does not fit a QR code at the level asked (2 331 UTF-8 bytes at level M). */
export class QrTextTooLong extends Schema.TaggedError<QrTextTooLong>()("QrTextTooLong", {
  bytes: Schema.Number,
  ecc: Schema.String
}) {}

const crcTable = (() => {
  const t = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c >>> 0
  }
  return t
})()

const crc32 = (bytes: Uint8Array, start: number, end: number): number => {
  let c = 0xffffffff
  for (let i = start; i < end; i++) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

const writeChunk = (out: Uint8Array, at: number, type: string, data: Uint8Array): number => {
  const view = new DataView(out.buffer, out.byteOffset)
  view.setUint32(at, data.length)
  for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i)
  out.set(data, at + 8)
  view.setUint32(at + 8 + data.length, crc32(out, at + 4, at + 8 + data.length))
  return at + 12 + data.length
}

const clamp = (n: number, min: number, max: number): number => Math.min(max, Math.max(min, Math.floor(n) || min))

const encoder = new TextEncoder()

// Pixels of 8 modules at `scale` pixels each: `scale` scanline bytes (1 bit
// per pixel, 1 = light) for every byte of module bits (bit m = module m,
// 1 = dark). Built once per scale; a line is then a lookup per 8 modules.
const expansions: Array<Uint8Array | undefined> = []
const expansion = (scale: number): Uint8Array => {
  const cached = expansions[scale]
  if (cached !== undefined) return cached
  const table = new Uint8Array(256 * scale).fill(0xff)
  for (let b = 0; b < 256; b++) {
    for (let m = 0; m < 8; m++) {
      if (((b >>> m) & 1) === 0) continue
      for (let p = m * scale; p < (m + 1) * scale; p++) table[b * scale + (p >>> 3)]! &= ~(0x80 >>> (p & 7))
    }
  }
  expansions[scale] = table
  return table
}

/** Modules `x0 … x0 + 7` of one row of the symbol (`row` is its first word), bit m = module x0 + m; outside the symbol is light. */
const moduleByte = (bits: Uint32Array, row: number, words: number, size: number, x0: number): number => {
  if (x0 >= size || x0 <= -8) return 0
  let v: number
  if (x0 < 0) {
    v = (bits[row]! << -x0) & 0xff
  } else {
    const w = x0 >>> 5
    const shift = x0 & 31
    v = bits[row + w]! >>> shift
    if (shift > 24 && w + 1 < words) v |= bits[row + w + 1]! << (32 - shift)
    v &= 0xff
  }
  return x0 + 8 > size ? v & ((1 << (size - x0)) - 1) : v
}

/** PNG bytes of a symbol: `scale` pixels per module, `border` light modules around it. */
const png = (symbol: QrMatrix, scale: number, border: number): Uint8Array => {
  const { size, words, bits } = symbol
  const modules = size + 2 * border
  const pixels = modules * scale
  // A scanline is its filter byte (0: none), then 1 bit per pixel, 1 = white.
  // Each module row makes `scale` identical scanlines; the compressor takes
  // one of each and repeats it.
  const stride = Math.ceil(pixels / 8) + 1
  const lines = new Uint8Array(stride * modules).fill(0xff)
  const table = expansion(scale)
  for (let r = 0; r < modules; r++) {
    lines[r * stride] = 0
    const y = r - border
    if (y < 0 || y >= size) continue // quiet zone: all white already
    const row = y * words
    // 8 modules make `scale` whole bytes, so the line is filled 8 modules at a
    // time; past the last pixel the table gives light bits, which decoders ignore.
    for (let k = 0, at = r * stride + 1, end = (r + 1) * stride; at < end; k++) {
      const from = moduleByte(bits, row, words, size, 8 * k - border) * scale
      for (let i = 0; i < scale && at < end; i++) lines[at++] = table[from + i]!
    }
  }
  const idat = zlibRepeatedLines(lines, stride, scale)
  const ihdr = new Uint8Array(13)
  const ihdrView = new DataView(ihdr.buffer)
  ihdrView.setUint32(0, pixels)
  ihdrView.setUint32(4, pixels)
  ihdr[8] = 1 // bit depth
  ihdr[9] = 0 // color type: grayscale
  const out = new Uint8Array(8 + 25 + 12 + idat.length + 12)
  out.set(SIGNATURE, 0)
  let at = writeChunk(out, 8, "IHDR", ihdr)
  at = writeChunk(out, at, "IDAT", idat)
  writeChunk(out, at, "IEND", new Uint8Array(0))
  return out
}

/**
 * PNG bytes of the QR code of `text` (byte mode, UTF-8; smallest version,
 * mask of lowest penalty), or `QrTextTooLong`. Out-of-range `scale` and
 * `border` are clamped to their ranges.
 */
export const encodeQrPng = (text: string, options: QrPngOptions = {}): Result.Result<Uint8Array, QrTextTooLong> => {
  const ecc = options.ecc ?? "medium"
  const data = encoder.encode(text)
  const symbol = encodeQr(data, ecc)
  if (symbol === undefined) return Result.fail(new QrTextTooLong({ bytes: data.length, ecc }))
  return Result.succeed(png(symbol, clamp(options.scale ?? 4, 1, 16), clamp(options.border ?? 4, 0, 16)))
}

const BASE64 = Uint8Array.from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", (c) => c.charCodeAt(0))
const PAD = 0x3d // "="
const latin1 = new TextDecoder("latin1")

// Table driven: `btoa` over a binary string costs more than making the PNG.
const base64 = (bytes: Uint8Array): string => {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4)
  let o = 0
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out[o++] = BASE64[v >>> 18]!
    out[o++] = BASE64[(v >>> 12) & 63]!
    out[o++] = BASE64[(v >>> 6) & 63]!
    out[o++] = BASE64[v & 63]!
  }
  if (i < bytes.length) {
    const two = i + 1 < bytes.length
    const v = (bytes[i]! << 16) | (two ? bytes[i + 1]! << 8 : 0)
    out[o++] = BASE64[v >>> 18]!
    out[o++] = BASE64[(v >>> 12) & 63]!
    out[o++] = two ? BASE64[(v >>> 6) & 63]! : PAD
    out[o++] = PAD
  }
  return latin1.decode(out)
}

/** `encodeQrPng` as `data:image/png;base64,…`, ready for an `<img src>`. */
export const encodeQrPngDataUrl = (text: string, options?: QrPngOptions): Result.Result<string, QrTextTooLong> =>
  Result.map(encodeQrPng(text, options), (bytes) => `data:image/png;base64,${base64(bytes)}`)

/**
 * PNG bytes of the QR code of a BR Code (or any text known to fit).
 *
 * Gotcha: for text that does not fit a QR code this is a defect and throws;
 * a BR Code never comes near the limit (its fields hold at most 99 bytes
 * each). Use `encodeQrPng` for text of unknown length.
 */
export const qrPng = (text: string, options?: QrPngOptions): Uint8Array => Result.getOrThrow(encodeQrPng(text, options))

/**
 * The QR code of a BR Code as `data:image/png;base64,…`: the `qrCode` of a
 * Pix charge, about 0.9 KB for a typical code. Same gotcha as `qrPng`.
 */
export const qrPngDataUrl = (text: string, options?: QrPngOptions): string => Result.getOrThrow(encodeQrPngDataUrl(text, options))

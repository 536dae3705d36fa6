/**
 * The `qrCode` of a Pix charge: a PNG data URL of the BR Code. On the hot path
 * of charge creation, so it is built directly: the `qr` package computes the
 * module matrix, and we write a 1-bit grayscale PNG ourselves (one IDAT,
 * compressed by the small QR-tuned deflate of `Zlib.ts`), with no canvas and
 * no image library. Pure JavaScript: it runs wherever the core runs.
 */
import { encodeQR } from "qr"
import { zlibFixed } from "./Zlib.ts"

export interface QrPngOptions {
  /** Pixels per module (default 4). */
  readonly scale?: number
  /** Quiet zone in modules on each side (default 4, the standard's minimum). */
  readonly border?: number
  /** Error correction level (default "medium", as bank apps expect for Pix). */
  readonly ecc?: "low" | "medium" | "quartile" | "high"
}

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

/** PNG bytes of the QR code of `text`. */
export const qrPng = (text: string, options: QrPngOptions = {}): Uint8Array => {
  const scale = options.scale ?? 4
  // The matrix comes with its quiet zone already in place (false = white).
  const matrix = encodeQR(text, "raw", { ecc: options.ecc ?? "medium", border: options.border ?? 4 })
  const modules = matrix.length
  const size = modules * scale
  const rowBytes = Math.ceil(size / 8)
  // Filter byte 0 per row, then 1 bit per pixel: 1 = white, 0 = black.
  const raw = new Uint8Array((rowBytes + 1) * size)
  const row = new Uint8Array(rowBytes)
  for (let my = 0; my < modules; my++) {
    row.fill(0xff)
    const line = matrix[my]!
    for (let mx = 0; mx < modules; mx++) {
      if (!line[mx]) continue
      const x0 = mx * scale
      for (let x = x0; x < x0 + scale; x++) row[x >> 3]! &= ~(0x80 >> (x & 7))
    }
    for (let sy = 0; sy < scale; sy++) raw.set(row, (my * scale + sy) * (rowBytes + 1) + 1)
  }
  // Scanlines repeat `scale` times; matching at the line distance folds them.
  const idat = zlibFixed(raw, rowBytes + 1)
  const ihdr = new Uint8Array(13)
  const ihdrView = new DataView(ihdr.buffer)
  ihdrView.setUint32(0, size)
  ihdrView.setUint32(4, size)
  ihdr[8] = 1 // bit depth
  ihdr[9] = 0 // grayscale
  const png = new Uint8Array(8 + 25 + 12 + idat.length + 12)
  png.set(SIGNATURE, 0)
  let at = writeChunk(png, 8, "IHDR", ihdr)
  at = writeChunk(png, at, "IDAT", idat)
  writeChunk(png, at, "IEND", new Uint8Array(0))
  return png
}

const base64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** The QR code of `text` as `data:image/png;base64,…`, ready for an `<img src>`. */
export const qrPngDataUrl = (text: string, options?: QrPngOptions): string =>
  `data:image/png;base64,${base64(qrPng(text, options))}`

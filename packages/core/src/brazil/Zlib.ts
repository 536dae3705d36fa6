/**
 * A small zlib (RFC 1950) encoder with one fixed-Huffman deflate block
 * (RFC 1951, BTYPE 01), tuned for the images of `QrPng`: matches are looked
 * for only at distance 1 (runs of a byte) and at one caller-given distance
 * (the previous scanline), which is where all the redundancy of a scaled
 * 1-bit QR image lies. Pure JavaScript, no allocation per symbol, and an
 * order of magnitude faster than a general deflate on these inputs.
 */

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

const reverse = (code: number, bits: number) => {
  let r = 0
  for (let i = 0; i < bits; i++) r = (r << 1) | ((code >> i) & 1)
  return r
}

// Fixed Huffman codes, pre-reversed for an LSB-first bit writer.
const litCode = new Uint16Array(288)
const litBits = new Uint8Array(288)
for (let v = 0; v < 288; v++) {
  const [code, bits] = v < 144 ? [0x30 + v, 8] : v < 256 ? [0x190 + v - 144, 9] : v < 280 ? [v - 256, 7] : [0xc0 + v - 280, 8]
  litCode[v] = reverse(code, bits)
  litBits[v] = bits
}
const distCode = Uint16Array.from({ length: 30 }, (_, d) => reverse(d, 5))

// Symbol of every match length 3..258 and distance 1..32768, looked up once.
const lengthSymbol = new Uint8Array(259)
for (let s = 0; s < 29; s++) for (let l = LENGTH_BASE[s]!; l < (s === 28 ? 259 : LENGTH_BASE[s + 1]!); l++) lengthSymbol[l] = s
const distSymbol = (d: number) => {
  let s = 0
  while (s < 29 && DIST_BASE[s + 1]! <= d) s++
  return s
}

const adler32 = (data: Uint8Array) => {
  let a = 1
  let b = 0
  for (let i = 0; i < data.length; ) {
    const end = Math.min(data.length, i + 5552)
    for (; i < end; i++) {
      a += data[i]!
      b += a
    }
    a %= 65521
    b %= 65521
  }
  return ((b << 16) | a) >>> 0
}

/** zlib-wrapped deflate of `data`, matching at distance 1 and at `lineDistance`. */
export const zlibFixed = (data: Uint8Array, lineDistance: number): Uint8Array => {
  // Worst case: every byte a 9-bit literal.
  const out = new Uint8Array(2 + Math.ceil((data.length * 9 + 10) / 8) + 8)
  out[0] = 0x78
  out[1] = 0x01
  let pos = 2
  let acc = 0
  let n = 0
  const put = (value: number, bits: number) => {
    acc |= value << n
    n += bits
    while (n >= 8) {
      out[pos++] = acc & 0xff
      acc >>>= 8
      n -= 8
    }
  }
  put(1, 1) // BFINAL
  put(1, 2) // BTYPE = 01, fixed Huffman
  const lineSym = distSymbol(lineDistance)
  let i = 0
  while (i < data.length) {
    const max = Math.min(258, data.length - i)
    let length = 0
    let distance = 0
    if (i >= lineDistance && lineDistance > 1) {
      let l = 0
      while (l < max && data[i + l] === data[i + l - lineDistance]) l++
      if (l >= 3) {
        length = l
        distance = lineDistance
      }
    }
    if (i >= 1 && length < max) {
      let l = 0
      const prev = data[i - 1]
      while (l < max && data[i + l] === prev) l++
      if (l >= 3 && l > length) {
        length = l
        distance = 1
      }
    }
    if (length === 0) {
      const v = data[i]!
      put(litCode[v]!, litBits[v]!)
      i++
      continue
    }
    const ls = lengthSymbol[length]!
    put(litCode[257 + ls]!, litBits[257 + ls]!)
    if (LENGTH_EXTRA[ls]! > 0) put(length - LENGTH_BASE[ls]!, LENGTH_EXTRA[ls]!)
    const ds = distance === 1 ? 0 : lineSym
    put(distCode[ds]!, 5)
    if (DIST_EXTRA[ds]! > 0) put(distance - DIST_BASE[ds]!, DIST_EXTRA[ds]!)
    i += length
  }
  put(litCode[256]!, litBits[256]!) // end of block
  if (n > 0) out[pos++] = acc & 0xff
  const check = adler32(data)
  out[pos++] = check >>> 24
  out[pos++] = (check >>> 16) & 0xff
  out[pos++] = (check >>> 8) & 0xff
  out[pos++] = check & 0xff
  return out.subarray(0, pos)
}

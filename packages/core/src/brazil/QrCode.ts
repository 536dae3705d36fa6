/**
 * QR Code symbols (ISO/IEC 18004) in byte mode, as `QrPng` draws them.
 *
 * Why our own rather than the `qr` package (which the tests use as the
 * reference): `qr` keeps its per-version tables (function patterns,
 * placement order, mask planes) in a single slot, so a stream of BR Codes of
 * different lengths, hence versions, rebuilds them on almost every call and
 * runs at less than half its speed. This encoder keeps the tables of every
 * version it has met for the life of the process (about 20 KB for a version
 * of BR Code size), places each data bit in the symbol and in its transpose
 * at once, and scores the eight masks 32 modules at a time. Version, mask
 * and every module are those `qr` gives in byte mode, which the tests check
 * symbol for symbol.
 *
 * The mask is the one of lowest penalty (rules N1 to N4) on the symbol with
 * format and version areas left light, the first one on ties.
 */

export type QrEcc = "low" | "medium" | "quartile" | "high"

/** A QR symbol without its quiet zone. */
export interface QrMatrix {
  readonly version: number
  readonly ecc: QrEcc
  readonly mask: number
  /** Modules per side: 17 + 4 × version. */
  readonly size: number
  /** 32-bit words per row. */
  readonly words: number
  /** Rows of packed modules: bit `x & 31` of word `y × words + (x >>> 5)` is set when (x, y) is dark. */
  readonly bits: Uint32Array
}

/** Whether the module at column `x`, row `y` is dark. */
export const isDark = (m: QrMatrix, x: number, y: number): boolean => ((m.bits[y * m.words + (x >>> 5)]! >>> (x & 31)) & 1) === 1

// ISO/IEC 18004 Table 9, versions 1 to 40: error-correction codewords per block…
const ECC_PER_BLOCK: Record<QrEcc, ReadonlyArray<number>> = {
  low: [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  medium: [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
  quartile: [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  high: [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30]
}
// …and number of blocks.
const BLOCKS: Record<QrEcc, ReadonlyArray<number>> = {
  low: [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
  medium: [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
  quartile: [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
  high: [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81]
}
// Format information: the two ECC level bits (Table 12).
const ECC_FORMAT: Record<QrEcc, number> = { low: 1, medium: 0, quartile: 3, high: 2 }

/** Modules that carry codewords (and remainder bits): the symbol minus function patterns and format/version areas. */
const dataModules = (version: number): number => {
  let n = (16 * version + 128) * version + 64
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2
    n -= (25 * align - 10) * align - 55
    if (version >= 7) n -= 36
  }
  return n
}

/** Codewords of data (not error correction) a symbol holds. */
const dataCodewords = (version: number, ecc: QrEcc): number =>
  Math.floor(dataModules(version) / 8) - ECC_PER_BLOCK[ecc][version - 1]! * BLOCKS[ecc][version - 1]!

/** Bits of the byte-mode character count: 8 up to version 9, 16 after. */
const countBits = (version: number): number => (version <= 9 ? 8 : 16)

/** Centres of the alignment patterns along each axis (Annex E). */
const alignmentCentres = (version: number): Array<number> => {
  if (version === 1) return []
  const last = 4 * version + 10
  const count = Math.floor(version / 7) + 2
  let step = Math.floor((last - 6) / (count - 1))
  // The standard's table rounds the step to an even number of modules.
  if (step % 2 === 1) step++
  else if (((last - 6) % (count - 1)) * 2 >= count - 1) step += 2
  const centres = [6]
  for (let i = count - 2; i >= 1; i--) centres.push(last - i * step)
  centres.push(last)
  return centres
}

/** BCH(15,5) format word: ECC level and mask, masked with 101010000010010. */
const formatBits = (ecc: QrEcc, mask: number): number => {
  const data = (ECC_FORMAT[ecc] << 3) | mask
  let rem = data
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537)
  return ((data << 10) | (rem & 0x3ff)) ^ 0x5412
}

/** BCH(18,6) version word, for versions 7 and up. */
const versionBits = (version: number): number => {
  let rem = version
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25)
  return (version << 12) | (rem & 0xfff)
}

/** Whether mask pattern `mask` (Table 10) flips the module at column x, row y. */
const maskFlips = (mask: number, x: number, y: number): boolean => {
  switch (mask) {
    case 0:
      return (x + y) % 2 === 0
    case 1:
      return y % 2 === 0
    case 2:
      return x % 3 === 0
    case 3:
      return (x + y) % 3 === 0
    case 4:
      return (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0
    case 5:
      return ((x * y) % 2) + ((x * y) % 3) === 0
    case 6:
      return (((x * y) % 2) + ((x * y) % 3)) % 2 === 0
    default:
      return (((x + y) % 2) + ((x * y) % 3)) % 2 === 0
  }
}

// ---------------------------------------------------------------------------
// Reed-Solomon over GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.

const EXP = new Uint8Array(510)
const LOG = new Uint8Array(256)
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = EXP[i + 255] = x
  LOG[x] = i
  x <<= 1
  if (x & 0x100) x ^= 0x11d
}

/**
 * For a generator of degree n, `table[f·n + j]` is f times its coefficient
 * j (leading 1 left out): one lookup per step of the division.
 */
const rsTables = new Map<number, Uint8Array>()
const rsTable = (n: number): Uint8Array => {
  let table = rsTables.get(n)
  if (table !== undefined) return table
  // (x − α⁰)(x − α¹)…(x − αⁿ⁻¹), highest degree first, leading 1 left out.
  const gen = new Uint8Array(n)
  gen[n - 1] = 1
  for (let i = 0, root = 1; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const c = gen[j]!
      gen[j] = (c === 0 ? 0 : EXP[LOG[c]! + LOG[root]!]!) ^ (j + 1 < n ? gen[j + 1]! : 0)
    }
    root = EXP[LOG[root]! + 1]!
  }
  table = new Uint8Array(256 * n)
  for (let f = 1; f < 256; f++) {
    for (let j = 0; j < n; j++) if (gen[j] !== 0) table[f * n + j] = EXP[LOG[gen[j]!]! + LOG[f]!]!
  }
  rsTables.set(n, table)
  return table
}

/** The n error-correction codewords of `block`: the remainder of its division by the generator. */
const rsRemainder = (block: Uint8Array, n: number): Uint8Array => {
  const table = rsTable(n)
  const rem = new Uint8Array(n)
  for (let i = 0; i < block.length; i++) {
    const at = (block[i]! ^ rem[0]!) * n
    for (let j = 0; j < n - 1; j++) rem[j] = rem[j + 1]! ^ table[at + j]!
    rem[n - 1] = table[at + n - 1]!
  }
  return rem
}

/** Byte-mode segment, terminator, padding, then blocks with their error correction, interleaved. */
const codewords = (data: Uint8Array, version: number, ecc: QrEcc): Uint8Array => {
  const capacity = dataCodewords(version, ecc)
  const bytes = new Uint8Array(capacity)
  let at = 0
  let acc = 0
  let accBits = 0
  const push = (value: number, bits: number) => {
    acc = (acc << bits) | value
    for (accBits += bits; accBits >= 8; ) bytes[at++] = (acc >>> (accBits -= 8)) & 0xff
    acc &= (1 << accBits) - 1
  }
  push(0b0100, 4) // byte mode
  push(data.length, countBits(version))
  for (let i = 0; i < data.length; i++) push(data[i]!, 8)
  // Up to 4 zero bits of terminator, then zeros to the byte boundary: one byte
  // at most here, since a byte-mode segment leaves 4 bits in the accumulator.
  if (accBits > 0 && at < capacity) bytes[at++] = (acc << (8 - accBits)) & 0xff
  for (let pad = 0xec; at < capacity; pad ^= 0xec ^ 0x11) bytes[at++] = pad

  const n = ECC_PER_BLOCK[ecc][version - 1]!
  const blocks = BLOCKS[ecc][version - 1]!
  const shortLength = Math.floor(capacity / blocks)
  const longBlocks = capacity % blocks
  const out = new Uint8Array(capacity + n * blocks)
  const starts: Array<number> = []
  const eccs: Array<Uint8Array> = []
  for (let b = 0, start = 0; b < blocks; b++) {
    // Short blocks come first.
    const length = shortLength + (b >= blocks - longBlocks ? 1 : 0)
    starts.push(start)
    eccs.push(rsRemainder(bytes.subarray(start, start + length), n))
    start += length
  }
  let o = 0
  for (let i = 0; i <= shortLength; i++) {
    for (let b = 0; b < blocks; b++) {
      if (i < shortLength || b >= blocks - longBlocks) out[o++] = bytes[starts[b]! + i]!
    }
  }
  for (let i = 0; i < n; i++) for (let b = 0; b < blocks; b++) out[o++] = eccs[b]![i]!
  return out
}

// ---------------------------------------------------------------------------
// The per-version template: function patterns, where each data bit goes, and
// the mask planes, in the symbol and in its transpose.

interface Template {
  readonly size: number
  readonly words: number
  /** Function patterns, with format and version areas (and the dark module) light. */
  readonly base: Uint32Array
  readonly baseT: Uint32Array
  /** Position of data bit i: `word << 5 | bit`, in the symbol and in its transpose. */
  readonly place: Uint32Array
  readonly placeT: Uint32Array
  /** Modules each mask flips (data area only), in the symbol and in its transpose. */
  readonly planes: ReadonlyArray<Uint32Array>
  readonly planesT: ReadonlyArray<Uint32Array>
}

const templates = new Map<number, Template>()

/** A symbol's function patterns being drawn: dark modules as bits, and which modules they reserve. */
interface FunctionGrid {
  readonly size: number
  readonly words: number
  readonly base: Uint32Array
  readonly reserved: Uint8Array
}

const setModule = (g: FunctionGrid, x: number, y: number, dark: boolean) => {
  g.reserved[y * g.size + x] = 1
  if (dark) g.base[y * g.words + (x >>> 5)]! |= 1 << (x & 31)
}

/** Finder patterns with their separators, cut at the edges. */
const drawFinders = (g: FunctionGrid) => {
  for (const [fx, fy] of [[0, 0], [g.size - 7, 0], [0, g.size - 7]] as const) {
    for (let dy = -1; dy <= 7; dy++) {
      for (let dx = -1; dx <= 7; dx++) {
        const x = fx + dx
        const y = fy + dy
        if (x < 0 || y < 0 || x >= g.size || y >= g.size) continue
        const ring = Math.max(Math.abs(dx - 3), Math.abs(dy - 3))
        setModule(g, x, y, ring !== 2 && ring !== 4)
      }
    }
  }
}

/** Alignment patterns, except where a finder is. */
const drawAlignments = (g: FunctionGrid, version: number) => {
  const centres = alignmentCentres(version)
  for (const cy of centres) {
    for (const cx of centres) {
      if (g.reserved[cy * g.size + cx] === 1) continue
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) setModule(g, cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1)
    }
  }
}

const drawTiming = (g: FunctionGrid) => {
  for (let i = 0; i < g.size; i++) {
    if (g.reserved[6 * g.size + i] === 0) setModule(g, i, 6, i % 2 === 0)
    if (g.reserved[i * g.size + 6] === 0) setModule(g, 6, i, i % 2 === 0)
  }
}

/** Format areas (and the dark module), version areas: reserved, light for now. */
const reserveFormatAndVersion = (g: FunctionGrid, version: number) => {
  const size = g.size
  for (let i = 0; i < 9; i++) {
    if (i !== 6) {
      setModule(g, 8, i, false)
      setModule(g, i, 8, false)
    }
    if (i < 8) {
      setModule(g, size - 1 - i, 8, false)
      setModule(g, 8, size - 1 - i, false)
    }
  }
  if (version >= 7) {
    for (let i = 0; i < 18; i++) {
      setModule(g, size - 11 + (i % 3), Math.floor(i / 3), false)
      setModule(g, Math.floor(i / 3), size - 11 + (i % 3), false)
    }
  }
}

/**
 * Data modules in placement order: two-module columns from the right,
 * upwards then downwards, skipping the vertical timing column; with the
 * modules each mask flips, in the symbol and in its transpose.
 */
const placeData = (g: FunctionGrid) => {
  const { size, words } = g
  const place: Array<number> = []
  const placeT: Array<number> = []
  const planes = Array.from({ length: 8 }, () => new Uint32Array(size * words))
  const planesT = Array.from({ length: 8 }, () => new Uint32Array(size * words))
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5
    const upwards = ((right + 1) & 2) === 0
    for (let v = 0; v < size; v++) {
      const y = upwards ? size - 1 - v : v
      for (let j = 0; j < 2; j++) {
        const x = right - j
        if (g.reserved[y * size + x] === 1) continue
        const p = ((y * words + (x >>> 5)) << 5) | (x & 31)
        const pT = ((x * words + (y >>> 5)) << 5) | (y & 31)
        place.push(p)
        placeT.push(pT)
        for (let mask = 0; mask < 8; mask++) {
          if (!maskFlips(mask, x, y)) continue
          planes[mask]![p >>> 5]! |= 1 << (p & 31)
          planesT[mask]![pT >>> 5]! |= 1 << (pT & 31)
        }
      }
    }
  }
  return { place: Uint32Array.from(place), placeT: Uint32Array.from(placeT), planes, planesT }
}

const transposed = ({ size, words, base }: FunctionGrid) => {
  const baseT = new Uint32Array(size * words)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if ((base[y * words + (x >>> 5)]! >>> (x & 31)) & 1) baseT[x * words + (y >>> 5)]! |= 1 << (y & 31)
    }
  }
  return baseT
}

const template = (version: number): Template => {
  const cached = templates.get(version)
  if (cached !== undefined) return cached
  const size = 17 + 4 * version
  const words = (size + 31) >>> 5
  const grid: FunctionGrid = { size, words, base: new Uint32Array(size * words), reserved: new Uint8Array(size * size) }
  drawFinders(grid)
  drawAlignments(grid, version)
  drawTiming(grid)
  reserveFormatAndVersion(grid, version)
  const made: Template = { size, words, base: grid.base, baseT: transposed(grid), ...placeData(grid) }
  templates.set(version, made)
  return made
}

// ---------------------------------------------------------------------------
// Penalty (ISO/IEC 18004 §7.8.3), 32 modules at a time. Each rule is scored
// down the columns of a matrix; rows are scored as the columns of the transpose.

const popcount = (n: number): number => {
  n = n - ((n >>> 1) & 0x55555555)
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333)
  return Math.imul((n + (n >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

/** Mask of the valid columns of the last word of a row. */
const lastWordMask = (size: number): number => (size & 31) === 0 ? 0xffffffff : ((1 << (size & 31)) - 1) >>> 0

/**
 * N1: a run of 5 or more modules of one colour scores 3 + (length − 5). A run
 * of length L has L − 4 monochrome windows of 5; counting the window that
 * starts it twice more gives L − 2, the score.
 */
const runPenalty = (v: Uint32Array, size: number, words: number): number => {
  let score = 0
  for (let w = 0; w < words; w++) {
    const valid = w === words - 1 ? lastWordMask(size) : 0xffffffff
    // d_k: where rows k and k+1 differ.
    let d0 = v[w]! ^ v[words + w]!
    let d1 = v[words + w]! ^ v[2 * words + w]!
    let d2 = v[2 * words + w]! ^ v[3 * words + w]!
    let previous = 0xffffffff // windows starting one row up (none above the first)
    for (let y = 0; y + 4 < size; y++) {
      const d3 = v[(y + 3) * words + w]! ^ v[(y + 4) * words + w]!
      const window = ~(d0 | d1 | d2 | d3) & valid
      if (window !== 0) score += popcount(window) + 2 * popcount(window & previous)
      previous = d0
      d0 = d1
      d1 = d2
      d2 = d3
    }
  }
  return score
}

/** N3: 1011101 with four light modules after it, or before it, fully inside the symbol. */
const finderCount = (v: Uint32Array, size: number, words: number): number => {
  let count = 0
  for (let w = 0; w < words; w++) {
    const valid = w === words - 1 ? lastWordMask(size) : 0xffffffff
    for (let y = 0, i = w; y + 10 < size; y++, i += words) {
      const r0 = v[i]!
      const r1 = v[i + words]!
      const r2 = v[i + 2 * words]!
      const r3 = v[i + 3 * words]!
      const r4 = v[i + 4 * words]!
      const r5 = v[i + 5 * words]!
      const r6 = v[i + 6 * words]!
      const r7 = v[i + 7 * words]!
      const r8 = v[i + 8 * words]!
      const r9 = v[i + 9 * words]!
      const r10 = v[i + 10 * words]!
      const before = valid & r0 & ~r1 & r2 & r3 & r4 & ~r5 & r6 & ~(r7 | r8 | r9 | r10)
      const after = valid & ~(r0 | r1 | r2 | r3) & r4 & ~r5 & r6 & r7 & r8 & ~r9 & r10
      if (before !== 0) count += popcount(before)
      if (after !== 0) count += popcount(after)
    }
  }
  return count
}

/** N2 (2×2 boxes of one colour, 3 each) and N4 (10 per 5% of dark modules away from 45–55%). */
const boxAndBalancePenalty = (v: Uint32Array, size: number, words: number): number => {
  // A box's left column must have a right neighbour: one column less in the last word.
  const lastBoxes = ((1 << (size - 32 * (words - 1) - 1)) - 1) >>> 0
  let boxes = 0
  let dark = 0
  for (let y = 0; y < size; y++) {
    for (let w = 0; w < words; w++) {
      const a = v[y * words + w]!
      dark += popcount(a)
      if (y === size - 1) continue
      const b = v[(y + 1) * words + w]!
      const aNext = w + 1 < words ? v[y * words + w + 1]! : 0
      const bNext = w + 1 < words ? v[(y + 1) * words + w + 1]! : 0
      // Bit x: module x equals module x + 1, in rows y and y + 1; and rows agree at x.
      const sameA = ~(a ^ ((a >>> 1) | (aNext << 31)))
      const sameB = ~(b ^ ((b >>> 1) | (bNext << 31)))
      let box = ~(a ^ b) & sameA & sameB
      if (w === words - 1) box &= lastBoxes
      boxes += popcount(box >>> 0)
    }
  }
  const total = size * size
  const steps = Math.ceil(Math.max(0, Math.abs(dark * 100 - total * 50) - total * 5) / (total * 5))
  return 3 * boxes + 10 * steps
}

/** Penalty of a candidate, given it and its transpose; stops early once it cannot beat `best`. */
const penalty = (v: Uint32Array, vT: Uint32Array, size: number, words: number, best: number): number => {
  let score = runPenalty(v, size, words) + runPenalty(vT, size, words)
  if (score >= best) return score
  score += boxAndBalancePenalty(v, size, words)
  if (score >= best) return score
  return score + 40 * (finderCount(v, size, words) + finderCount(vT, size, words))
}

// ---------------------------------------------------------------------------

/** The smallest version holding `length` bytes in byte mode at `ecc`, or `undefined` past version 40. */
export const qrVersionFor = (length: number, ecc: QrEcc): number | undefined => {
  for (let version = 1; version <= 40; version++) {
    if (length < 1 << countBits(version) && 4 + countBits(version) + 8 * length <= 8 * dataCodewords(version, ecc)) return version
  }
  return undefined
}

/**
 * The QR symbol of `data` in byte mode: smallest version for `ecc`, mask of
 * lowest penalty. `undefined` when `data` does not fit a QR code (2 331
 * bytes at level M, 2 953 at L).
 */
export const encodeQr = (data: Uint8Array, ecc: QrEcc): QrMatrix | undefined => {
  const version = qrVersionFor(data.length, ecc)
  if (version === undefined) return undefined
  const t = template(version)
  const { size, words } = t
  const symbol = t.base.slice()
  const symbolT = t.baseT.slice()
  const bytes = codewords(data, version, ecc)
  const bits = Math.min(bytes.length * 8, t.place.length) // remainder bits stay light
  for (let i = 0; i < bits; i++) {
    if ((bytes[i >>> 3]! & (0x80 >>> (i & 7))) === 0) continue
    const p = t.place[i]!
    const pT = t.placeT[i]!
    symbol[p >>> 5]! |= 1 << (p & 31)
    symbolT[pT >>> 5]! |= 1 << (pT & 31)
  }
  const candidate = new Uint32Array(symbol.length)
  const candidateT = new Uint32Array(symbol.length)
  let mask = 0
  let best = Infinity
  for (let m = 0; m < 8; m++) {
    const plane = t.planes[m]!
    const planeT = t.planesT[m]!
    for (let i = 0; i < symbol.length; i++) {
      candidate[i] = symbol[i]! ^ plane[i]!
      candidateT[i] = symbolT[i]! ^ planeT[i]!
    }
    const score = penalty(candidate, candidateT, size, words, best)
    if (score < best) {
      best = score
      mask = m
    }
  }
  const plane = t.planes[mask]!
  for (let i = 0; i < symbol.length; i++) symbol[i]! ^= plane[i]!
  const put = (x: number, y: number, dark: number) => {
    if (dark !== 0) symbol[y * words + (x >>> 5)]! |= 1 << (x & 31)
  }
  const format = formatBits(ecc, mask)
  for (let i = 0; i < 15; i++) {
    const bit = (format >>> i) & 1
    // Around the top-left finder…
    if (i < 6) put(8, i, bit)
    else if (i < 8) put(8, i + 1, bit)
    else if (i === 8) put(7, 8, bit)
    else put(14 - i, 8, bit)
    // …and split between the other two.
    if (i < 8) put(size - 1 - i, 8, bit)
    else put(8, size - 15 + i, bit)
  }
  put(8, size - 8, 1) // the dark module
  if (version >= 7) {
    const vb = versionBits(version)
    for (let i = 0; i < 18; i++) {
      const bit = (vb >>> i) & 1
      put(size - 11 + (i % 3), Math.floor(i / 3), bit)
      put(Math.floor(i / 3), size - 11 + (i % 3), bit)
    }
  }
  return { version, ecc, mask, size, words, bits: symbol }
}

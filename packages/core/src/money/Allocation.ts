/**
 * Splitting a total into parts that add up to it exactly. Every allocation of
 * the engine (installments, prorata across items, split remainders) goes
 * through here, so "the parts sum to the whole" is proved once.
 */
import { type Cents, cents } from "./Money.ts"

/**
 * Splits `total` in proportion to `weights` (non-negative integers, not all
 * zero) by the largest-remainder method: each part is rounded down, then the
 * centavos left over go one by one to the parts with the largest remainders
 * (ties to the earliest). The parts always add up to `total`.
 */
export const allocateByWeights = (total: Cents, weights: ReadonlyArray<number>): Array<Cents> => {
  const sum = weights.reduce((a, w) => a + BigInt(w), 0n)
  if (sum === 0n) return weights.map(() => cents(0))
  const t = BigInt(total)
  const parts = weights.map((w) => (t * BigInt(w)) / sum)
  const remainders = weights.map((w, i) => ({ i, r: (t * BigInt(w)) % sum }))
  let left = Number(t - parts.reduce((a, p) => a + p, 0n))
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1))
  for (let k = 0; left > 0; k++, left--) parts[remainders[k % remainders.length]!.i]! += 1n
  return parts.map((p) => cents(Number(p)))
}

/** Splits `total` into `n` parts as equal as possible; the extra centavos go to the first parts. */
export const allocateEvenly = (total: Cents, n: number): Array<Cents> => allocateByWeights(total, Array.from({ length: n }, () => 1))

/**
 * Splits `total` into `n` equal parts rounded down, the first part taking the
 * centavos left over (fewer than `n`): the card custom, where the first
 * installment carries the rounding difference and the others are all equal.
 * The parts always add up to `total`.
 */
export const allocateRemainderToFirst = (total: Cents, n: number): Array<Cents> => {
  // `%` and the division of what is left are exact on safe integers: no floating-point rounding.
  const remainder = total % n
  const each = (total - remainder) / n
  return Array.from({ length: n }, (_, i) => cents(i === 0 ? each + remainder : each))
}

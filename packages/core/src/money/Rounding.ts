/**
 * The named rounding points of the engine. Each takes an exact rational
 * `numerator / denominator` of centavos (BigInt, so no product overflows) and
 * returns whole centavos by a stated rule; nothing else in the engine rounds.
 */
import { type Cents, cents } from "./Money.ts"

/** Half up (away from zero at .5): fees charged on an amount, by custom of acquirers and banks. */
export const roundHalfUp = (numerator: bigint, denominator: bigint): Cents => {
  const negative = numerator < 0n !== denominator < 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const q = (n * 2n + d) / (d * 2n)
  return cents(Number(negative ? -q : q))
}

/** Down (towards zero): shares paid out to others (split parts, discounts), so the owner keeps the rest. */
export const roundDown = (numerator: bigint, denominator: bigint): Cents => cents(Number(numerator / denominator))

/** `amount × percent / 100` where `percent` is in hundredths (12.5% = 1250), rounded by `rule`. */
export const percentOf = (amount: Cents, percentHundredths: number, rule: (n: bigint, d: bigint) => Cents): Cents =>
  rule(BigInt(amount) * BigInt(percentHundredths), 10_000n)

/**
 * Parses a percentage with at most two decimals (12.5, "0.99") into
 * hundredths of a percent, exactly; `undefined` when it has more decimals.
 */
export const parsePercent = (value: number | string): number | undefined => {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim()
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text)
  if (m === null) return undefined
  const hundredths = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"))
  return Number.isSafeInteger(hundredths) ? hundredths : undefined
}

/** The inverse of `parsePercent`: 1250 hundredths → 12.5, for the wire (never for arithmetic). */
export const percentFromHundredths = (hundredths: number): number => hundredths / 100

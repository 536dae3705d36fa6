/**
 * The total of a purchase made of priced items (spec: Transparent checkout,
 * `items[]`; later the items of a subscription): unit price times quantity,
 * summed, exactly.
 */
import { type Cents, cents } from "../money/Money.ts"

/** One bought item: its unit price and how many (a whole number). */
export interface ItemLine {
  readonly unitAmount: Cents
  readonly quantity: number
}

/**
 * Σ unit amount × quantity of `lines`, in exact integer arithmetic (no
 * rounding point: nothing is divided). `undefined` when the total is beyond
 * the safe integers that `Cents` holds: the caller refuses such a purchase
 * rather than charging an approximation.
 */
export const itemsTotal = (lines: ReadonlyArray<ItemLine>): Cents | undefined => {
  let total = 0n
  for (const line of lines) total += BigInt(line.unitAmount) * BigInt(line.quantity)
  return total > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : cents(Number(total))
}

/**
 * One line's amount, unit times quantity. For lines of a purchase whose
 * total `itemsTotal` has accepted: each is then a safe integer, so the
 * product is exact.
 */
export const lineTotal = (line: ItemLine): Cents => cents(line.unitAmount * line.quantity)

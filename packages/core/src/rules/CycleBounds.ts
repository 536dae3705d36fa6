/**
 * Safety bounds of the billing run, as Kill Bill's: a cycle whose computed
 * amount is not positive, or grew past a multiple of the last cycle billed,
 * is parked for review instead of being billed. A typo in a price, a credit
 * carried twice or a quantity gone wrong then reaches the merchant as an
 * event, not the customer as a charge.
 */
import type { Cents } from "../money/Money.ts"

/** How many times the last billed cycle a cycle may bill before it is held (the default of `CycleGrowthLimit`). */
export const DEFAULT_CYCLE_GROWTH_LIMIT = 10

/** Why cycle's `total` is out of bounds given the last billed cycle's `previous` (null when none), or null when it is within them. */
export const cycleOutOfBounds = (total: Cents, previous: Cents | null, growthLimit: number): string | null => {
  if (total <= 0) return `amount ${total} is not positive`
  if (previous !== null && previous > 0 && total > previous * growthLimit) {
    return `amount ${total} is more than ${growthLimit} times the last cycle's ${previous}`
  }
  return null
}

/**
 * Charge discounts of the transparent checkout (`discounts[]`): percentage
 * or fixed, optionally per payment method and per range of cycles.
 */
import { type Cents, cents } from "../money/Money.ts"
import { percentOf, roundDown } from "../money/Rounding.ts"

export interface ChargeDiscount {
  readonly type: "percentage" | "fixed"
  /** Percent in hundredths for `percentage`, centavos for `fixed`. */
  readonly value: number
  /** Input form (`pix`, `boleto`, `creditcard`, `pix_automatico`); absent applies to all. */
  readonly paymentMethod?: string | undefined
  /** First cycle it applies to (default 1). */
  readonly fromCycle?: number | undefined
  /** Last cycle it applies to; `null`/absent keeps it to the end unless `durationMonths` bounds it. */
  readonly toCycle?: number | null | undefined
  /** Number of cycles from `fromCycle` (monthly plans: months). */
  readonly durationMonths?: number | undefined
}

/** Whether `discount` applies to `cycle` paid with `paymentMethod`. */
export const discountApplies = (discount: ChargeDiscount, cycle: number, paymentMethod: string): boolean => {
  if (discount.paymentMethod !== undefined && discount.paymentMethod.toLowerCase() !== paymentMethod.toLowerCase()) return false
  const from = discount.fromCycle ?? 1
  const to = discount.toCycle ?? (discount.durationMonths !== undefined ? from + discount.durationMonths - 1 : Infinity)
  return cycle >= from && cycle <= to
}

/**
 * Total discount of the applicable entries on `amount`. Each entry is taken
 * on the original amount (they do not compound); percentages are rounded
 * down; the total never takes the amount below the minimum charge of 0.01.
 */
export const applyDiscounts = (
  amount: Cents,
  discounts: ReadonlyArray<ChargeDiscount>,
  at: { readonly cycle: number; readonly paymentMethod: string }
): { readonly discount: Cents; readonly amount: Cents } => {
  let total = 0
  for (const d of discounts) {
    if (!discountApplies(d, at.cycle, at.paymentMethod)) continue
    total += d.type === "percentage" ? percentOf(amount, d.value, roundDown) : d.value
  }
  const discount = cents(Math.max(0, Math.min(total, amount - 1)))
  return { discount, amount: cents(amount - discount) }
}

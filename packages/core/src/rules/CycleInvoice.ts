/**
 * What a cycle of a subscription bills: one line per item (unit price times
 * quantity), the prorata lines of a partial period or a plan change, credits
 * (negative lines), then the discounts of `discounts[]` that cover the cycle
 * and the coupon while its `maxCycles` last. The invoice balances by
 * construction: its lines less its discount are its total, which is the law
 * the database checks again at commit.
 */
import type { InvoiceLine, SubscriptionCoupon, SubscriptionDiscount } from "../domain/Subscription.ts"
import { type Cents, cents } from "../money/Money.ts"
import { couponDiscount } from "./Coupons.ts"
import { applyDiscounts } from "./Discounts.ts"

export interface CycleInvoiceInput {
  readonly cycle: number
  /** Input form of the method the cycle is paid with (discounts may be per method). */
  readonly paymentMethod: string
  readonly lines: ReadonlyArray<InvoiceLine>
  readonly discounts: ReadonlyArray<SubscriptionDiscount>
  readonly coupon: SubscriptionCoupon | null
}

export interface CycleInvoiceAmounts {
  readonly lines: ReadonlyArray<InvoiceLine>
  /** Σ lines: what the cycle costs before discounts (credits already taken off). */
  readonly subtotal: Cents
  /** Discounts and coupon together. */
  readonly discount: Cents
  /** `subtotal − discount`: what the cycle's charge asks for. */
  readonly total: Cents
}

/** Whether the coupon still discounts cycle `n` (`maxCycles` null: every cycle). `EXTRA_PERIOD` never does. */
export const couponCovers = (coupon: SubscriptionCoupon | null, n: number): coupon is SubscriptionCoupon =>
  coupon !== null && coupon.discountType !== "EXTRA_PERIOD" && (coupon.maxCycles === null || n <= coupon.maxCycles)

/**
 * The amounts of a cycle. The discounts of `discounts[]` are taken on the
 * subtotal (not compounded), the coupon on what they leave; neither takes a
 * positive subtotal below the 0.01 minimum charge. A subtotal of zero
 * (credits covering the whole cycle) has no discount; callers carry a credit
 * larger than the cycle to the next one rather than bill below zero.
 */
export const cycleInvoice = (input: CycleInvoiceInput): CycleInvoiceAmounts => {
  const subtotal = cents(input.lines.reduce((sum, line) => sum + line.netAmount, 0))
  if (subtotal <= 0) return { lines: input.lines, subtotal, discount: cents(0), total: subtotal }
  const discounted = applyDiscounts(subtotal, input.discounts, { cycle: input.cycle, paymentMethod: input.paymentMethod })
  const coupon = couponCovers(input.coupon, input.cycle) ? couponDiscount(input.coupon, discounted.amount) : cents(0)
  const discount = cents(discounted.discount + coupon)
  return { lines: input.lines, subtotal, discount, total: cents(subtotal - discount) }
}

/**
 * The line of a prorata carried into a cycle (`adjustment`): extra days
 * billed, or a credit, which never takes the cycle below the minimum charge.
 */
export const adjustmentLine = (adjustment: number, subtotal: number): InvoiceLine | null => {
  if (adjustment === 0) return null
  const amount = adjustment > 0 ? adjustment : Math.min(0, Math.max(adjustment, -(subtotal - 1)))
  return {
    name: adjustment > 0 ? "Ajuste proporcional de vencimento" : "Crédito proporcional de vencimento",
    productName: null,
    planName: null,
    type: adjustment > 0 ? "PRORATA" : "CREDIT",
    origin: "DUE_DATE_CHANGE",
    unitAmount: amount,
    quantity: 1,
    netAmount: amount,
    priceId: null,
    productId: null
  }
}

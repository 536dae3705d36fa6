/**
 * The recurrence fields of a transparent checkout that buys recurring
 * prices, checked and normalized: one interval per subscription, the
 * calendar fields, the coupon and `discounts[]` as they will apply to every
 * cycle.
 */
import { Clock, Effect } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { addDays } from "../brazil/CalendarDate.ts"
import type { CheckoutOrder } from "../checkout/ParseCheckout.ts"
import { linesTotal, parseDiscounts, type PurchaseLine, validCoupon } from "../checkout/PriceCheckout.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { Interval, type SubscriptionCoupon, type SubscriptionDiscount } from "../domain/Subscription.ts"
import type { Cents } from "../money/Money.ts"
import type { AccountId } from "../domain/Ids.ts"

/** What a checkout's recurrence fields say, checked. */
export interface SubscriptionTerms {
  readonly today: string
  readonly now: number
  readonly interval: Interval
  readonly intervalCount: number
  /** Recurring lines (the plan first) and one-time lines (order bumps, on the first invoice only). */
  readonly recurring: ReadonlyArray<PurchaseLine>
  readonly oneTime: ReadonlyArray<PurchaseLine>
  /** Σ of the recurring lines: one full cycle before discounts. */
  readonly cycleSubtotal: Cents
  readonly trialDays: number
  readonly coupon: SubscriptionCoupon | null
  readonly discounts: ReadonlyArray<SubscriptionDiscount>
  readonly issueDaysBeforeDue: number
  readonly expirationAfterDueDate: number
}

const between = (value: number | undefined, field: string, min: number, max: number) =>
  value === undefined || (Number.isInteger(value) && value >= min && value <= max)
    ? Effect.void
    : Effect.fail(invalid(field, `${field} must be an integer from ${min} to ${max}`))

/** The calendar fields: ranges, and dates not in the past where they are due dates. */
const checkCalendar = Effect.fnUntraced(function*(order: CheckoutOrder, today: string) {
  const r = order.request
  yield* between(r.billingDay, "billingDay", 1, 31)
  yield* between(r.issueDaysBeforeDue, "issueDaysBeforeDue", 0, 60)
  yield* between(r.expirationAfterDueDate, "expirationAfterDueDate", 0, 60)
  if (r.installments !== undefined && r.installments !== 1) return yield* invalid("installments", "subscriptions are charged in one installment")
  // Dates within a year of today: far enough for any plan, near enough that every date computed from them is a real one.
  const withinAYear = (field: "recurrencyStartDate" | "prorataStartDate" | "prorataDueDate", value: string | undefined, earliest: string) =>
    value === undefined || (value >= earliest && value <= addDays(today, 366))
      ? Effect.void
      : Effect.fail(invalid(field, `${field} must be from ${earliest} to a year from today`))
  yield* withinAYear("recurrencyStartDate", r.recurrencyStartDate, today)
  yield* withinAYear("prorataDueDate", r.prorataDueDate, today)
  yield* withinAYear("prorataStartDate", r.prorataStartDate, addDays(today, -366))
  // Later cycles are charged to a card on file; an acquirer token alone leaves none.
  if (r.tokenId !== undefined) return yield* invalid("tokenId", "subscriptions need a card on file: send card or paymentMethodId")
})

/**
 * The terms of a recurring purchase. All recurring prices must share one
 * interval (a cart mixing intervals is refused for now); the trial is the
 * plan's (the first recurring line's) `trialDays`; the coupon must be valid
 * for a recurring purchase of these prices.
 */
export const subscriptionTerms = Effect.fn("Subscriptions.terms")(function*(order: CheckoutOrder, lines: ReadonlyArray<PurchaseLine>, accountId: AccountId) {
  const now = yield* Clock.currentTimeMillis
  const today = saoPauloDate(now)
  yield* checkCalendar(order, today)
  const recurring = lines.filter((line) => line.price.recurrenceType !== "ONE_TIME")
  const oneTime = lines.filter((line) => line.price.recurrenceType === "ONE_TIME")
  const plan = recurring[0]!.price
  if (recurring.some((line) => line.price.recurrenceType !== plan.recurrenceType || line.price.recurrenceInterval !== plan.recurrenceInterval)) {
    return yield* invalid("items", "recurring items of one purchase must share one interval")
  }
  if (new Set(recurring.map((line) => line.price.id)).size < recurring.length) {
    return yield* invalid("items", "a recurring price is one item: send it once with its quantity")
  }
  const interval = Interval.literals.find((i) => i === plan.recurrenceType)
  if (interval === undefined) return yield* invalid("items", "a subscription needs a recurring price")
  const cycleSubtotal = yield* linesTotal(recurring)
  if (plan.trialDays > 0 && order.request.prorataStartDate !== undefined) {
    return yield* invalid("prorataStartDate", "a prorata start and a trial do not combine: the trial already covers the first days")
  }
  const request = order.request
  const discounts = request.discounts === undefined ? [] : yield* Effect.fromResult(parseDiscounts(request.discounts))
  const coupon = request.couponCode === undefined ? null : yield* validCoupon(request.couponCode, {
    accountId,
    amount: cycleSubtotal,
    priceIds: lines.map((line) => line.price.id),
    document: order.buyer.document,
    chargeType: "RECURRING"
  })
  if (coupon?.discountType === "EXTRA_PERIOD" && request.prorataStartDate !== undefined) {
    return yield* invalid("prorataStartDate", "a prorata start and an extra period do not combine: the free period already covers the first days")
  }
  // A free start has no first charge to carry one-time items on.
  if ((plan.trialDays > 0 || coupon?.discountType === "EXTRA_PERIOD") && oneTime.length > 0) {
    return yield* invalid("items", "order bumps need a first charge; a subscription that starts free has none")
  }
  return {
    today,
    now,
    interval,
    intervalCount: plan.recurrenceInterval,
    recurring,
    oneTime,
    cycleSubtotal,
    trialDays: plan.trialDays,
    coupon: coupon === null ? null : {
      couponId: coupon.id,
      code: coupon.code,
      discountType: coupon.discountType,
      discountValue: coupon.discountValue,
      extraPeriodUnit: coupon.extraPeriodUnit,
      maxCycles: coupon.maxCycles,
      maxDiscount: coupon.maxDiscount
    },
    discounts,
    issueDaysBeforeDue: request.issueDaysBeforeDue ?? 0,
    expirationAfterDueDate: request.expirationAfterDueDate ?? 0
  } satisfies SubscriptionTerms
})

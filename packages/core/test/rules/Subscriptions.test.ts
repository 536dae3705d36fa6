/**
 * The rules of a subscription: its state machine (written out by hand from
 * the spec's table), when it first bills, and what each cycle bills, with
 * the laws money depends on checked over random carts.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { InvoiceLine, SubscriptionCoupon, SubscriptionDiscount, SubscriptionStatus } from "../../src/domain/Subscription.ts"
import { SubscriptionStatuses } from "../../src/domain/Subscription.ts"
import { CouponId } from "../../src/domain/Ids.ts"
import { cents } from "../../src/money/Money.ts"
import { adjustmentLine, couponCovers, cycleInvoice } from "../../src/rules/CycleInvoice.ts"
import { subscriptionStart } from "../../src/rules/SubscriptionStart.ts"
import { nextSubscriptionStatus, SubscriptionTransitions, type SubscriptionTrigger } from "../../src/rules/SubscriptionTransitions.ts"
import { afterRefusal } from "../../src/rules/RetrySchedule.ts"
import { cycleOutOfBounds } from "../../src/rules/CycleBounds.ts"

const allowed: ReadonlyArray<readonly [SubscriptionStatus, SubscriptionTrigger, SubscriptionStatus]> = [
  ["PENDING", "activated", "ACTIVE"],
  ["TRIALING", "activated", "ACTIVE"],
  ["PAST_DUE", "activated", "ACTIVE"],
  ["ACTIVE", "renewed", "ACTIVE"],
  ["DEFAULT", "renewed", "ACTIVE"],
  ["ACTIVE", "overdueActive", "DEFAULT"],
  ["PENDING", "overdueEarly", "PAST_DUE"],
  ["TRIALING", "overdueEarly", "PAST_DUE"],
  ["PENDING", "canceled", "CANCELED"],
  ["TRIALING", "canceled", "CANCELED"],
  ["ACTIVE", "canceled", "CANCELED"],
  ["PAST_DUE", "canceled", "CANCELED"],
  ["DEFAULT", "canceled", "CANCELED"],
  ["PENDING", "expired", "EXPIRED"],
  ["PAST_DUE", "expired", "EXPIRED"],
  ["ACTIVE", "archived", "ARCHIVED"],
  ["PAST_DUE", "archived", "ARCHIVED"],
  ["CANCELED", "archived", "ARCHIVED"],
  ["COMPLETED", "archived", "ARCHIVED"],
  ["EXPIRED", "archived", "ARCHIVED"]
]

describe("subscription transitions", () => {
  const triggers = Object.keys(SubscriptionTransitions) as ReadonlyArray<SubscriptionTrigger>

  it("allows exactly the moves of the spec's table, and refuses every other pair", () => {
    const expected = new Map(allowed.map(([from, trigger, to]) => [`${from} ${trigger}`, to]))
    for (const from of SubscriptionStatuses) {
      for (const trigger of triggers) {
        expect(nextSubscriptionStatus(from, trigger), `${from} on ${trigger}`).toBe(expected.get(`${from} ${trigger}`))
      }
    }
  })

  it("names the events of the catalog for the moves that emit one", () => {
    expect(Object.fromEntries(triggers.map((t) => [t, SubscriptionTransitions[t].event]))).toEqual({
      activated: "subscription.activated",
      renewed: "subscription.renewed",
      overdueActive: "payment.overdue",
      overdueEarly: "payment.overdue",
      canceled: "subscription.canceled",
      expired: "subscription.expired",
      archived: null
    })
  })

  it("never leaves ARCHIVED", () => {
    expect(triggers.filter((t) => nextSubscriptionStatus("ARCHIVED", t) !== undefined)).toEqual([])
  })
})

describe("subscription start", () => {
  const monthly = { recurrenceType: "MONTHLY" as const, recurrenceInterval: 1 }

  it("bills today without a billing day, trial or start date", () => {
    expect(subscriptionStart({ today: "2027-01-31", recurrence: monthly, trialDays: 0 })).toEqual({
      freeUntil: null,
      billingDay: 31,
      anchorCycle: 1,
      anchorDate: "2027-01-31",
      first: { periodStart: "2027-01-31", dueDate: "2027-01-31", prorata: null }
    })
  })

  it("starts after the trial and the coupon's extra period, on the next billing day", () => {
    // 7 trial days from 31 Jan → bills from 7 Feb; 1 extra month → 7 Mar; billing day 10 → 10 Mar.
    const start = subscriptionStart({ today: "2027-01-31", recurrence: monthly, trialDays: 7, extraPeriod: { value: 1, unit: "MONTHS" }, billingDay: 10 })
    expect(start).toMatchObject({ freeUntil: "2027-03-06", anchorDate: "2027-03-10", billingDay: 10 })
    // 15 extra days from 31 Jan → 15 Feb.
    expect(subscriptionStart({ today: "2027-01-31", recurrence: monthly, trialDays: 0, extraPeriod: { value: 15, unit: "DAYS" } }))
      .toMatchObject({ freeUntil: "2027-02-14", anchorDate: "2027-02-15" })
  })

  it("takes recurrencyStartDate as the first due date", () => {
    expect(subscriptionStart({ today: "2027-01-31", recurrence: monthly, trialDays: 0, recurrencyStartDate: "2027-02-15" }))
      .toMatchObject({ anchorDate: "2027-02-15", billingDay: 15, anchorCycle: 1 })
  })

  it("ignores a recurrencyStartDate inside the free period, and takes one on its first billable day as is", () => {
    // 7 trial days from 31 Jan: billable from 7 Feb; 1 Feb is inside the trial, so the billing day 10 decides.
    expect(subscriptionStart({ today: "2027-01-31", recurrence: monthly, trialDays: 7, billingDay: 10, recurrencyStartDate: "2027-02-01" }))
      .toMatchObject({ freeUntil: "2027-02-06", anchorDate: "2027-02-10" })
    // No trial: billable today, and the start date asked is today, though the billing day is the 10th.
    expect(subscriptionStart({ today: "2027-01-31", recurrence: monthly, trialDays: 0, billingDay: 10, recurrencyStartDate: "2027-01-31" }))
      .toMatchObject({ freeUntil: null, anchorDate: "2027-01-31", billingDay: 10 })
  })

  it("bills no partial period when the prorata start is on or after the first due date", () => {
    const base = { today: "2027-01-31", recurrence: monthly, trialDays: 0, billingDay: 10 }
    const full = { anchorCycle: 1, anchorDate: "2027-02-10", first: { periodStart: "2027-02-10", dueDate: "2027-02-10", prorata: null } }
    expect(subscriptionStart({ ...base, prorataStartDate: "2027-02-10" })).toMatchObject(full)
    expect(subscriptionStart({ ...base, prorataStartDate: "2027-02-20" })).toMatchObject(full)
  })

  it("bills a partial first period by prorata, alone or merged into the first full cycle", () => {
    const base = { today: "2027-01-31", recurrence: monthly, trialDays: 0, billingDay: 10, prorataStartDate: "2027-01-31" }
    // From 10 Jan to 10 Feb is 31 days; 31 Jan to 10 Feb is 10 of them.
    expect(subscriptionStart(base)).toMatchObject({
      anchorCycle: 2,
      anchorDate: "2027-02-10",
      first: { periodStart: "2027-01-31", dueDate: "2027-01-31", prorata: { remainingDays: 10, cycleDays: 31, merged: false } }
    })
    expect(subscriptionStart({ ...base, mergeWithNextCycle: true, prorataDueDate: "2027-02-01" })).toMatchObject({
      anchorCycle: 1,
      first: { dueDate: "2027-02-10", prorata: { remainingDays: 10, merged: true } }
    })
    expect(subscriptionStart({ ...base, prorataDueDate: "2027-02-03" }).first.dueDate).toBe("2027-02-03")
  })
})

describe("cycle invoice", () => {
  const line = (netAmount: number, type: InvoiceLine["type"] = "RECURRING"): InvoiceLine => ({
    name: "x",
    productName: null,
    planName: null,
    type,
    origin: "CHECKOUT",
    unitAmount: netAmount,
    quantity: 1,
    netAmount,
    priceId: null,
    productId: null
  })
  const coupon = (over: Partial<SubscriptionCoupon>): SubscriptionCoupon => ({
    couponId: CouponId.make("coup_1"),
    code: "C",
    discountType: "PERCENTAGE",
    discountValue: 1000,
    extraPeriodUnit: null,
    maxCycles: null,
    maxDiscount: null,
    ...over
  })

  it("takes the discounts of the cycle on the subtotal, then the coupon while its cycles last", () => {
    // 99.90 + 20.00 = 119.90; fixed 10.00 from cycle 2; coupon 10% on cycle 1 only.
    const lines = [line(9990), line(2000, "ONE_TIME")]
    const discounts: ReadonlyArray<SubscriptionDiscount> = [{ type: "fixed", value: 1000, fromCycle: 2 }]
    const first = cycleInvoice({ cycle: 1, paymentMethod: "pix", lines, discounts, coupon: coupon({ maxCycles: 1 }) })
    expect(first).toMatchObject({ subtotal: 11990, discount: 1199, total: 10791 })
    const second = cycleInvoice({ cycle: 2, paymentMethod: "pix", lines: [line(9990)], discounts, coupon: coupon({ maxCycles: 1 }) })
    expect(second).toMatchObject({ subtotal: 9990, discount: 1000, total: 8990 })
    expect(couponCovers(coupon({ maxCycles: 3 }), 3)).toBe(true)
    expect(couponCovers(coupon({ maxCycles: 3 }), 4)).toBe(false)
    expect(couponCovers(coupon({ discountType: "EXTRA_PERIOD", discountValue: 1 }), 1)).toBe(false)
    expect(couponCovers(coupon({ maxCycles: null }), 120)).toBe(true)
    expect(couponCovers(null, 1)).toBe(false)
  })

  it("gives no discount to a cycle its credits cover whole, and carries a larger credit as a negative total", () => {
    const discounts: ReadonlyArray<SubscriptionDiscount> = [{ type: "fixed", value: 1000 }]
    // 99.90 less a 99.90 credit: nothing to bill, nothing to discount.
    const covered = [line(9990), line(-9990, "CREDIT")]
    expect(cycleInvoice({ cycle: 1, paymentMethod: "pix", lines: covered, discounts, coupon: coupon({}) }))
      .toEqual({ lines: covered, subtotal: 0, discount: 0, total: 0 })
    const over = [line(9990), line(-12000, "CREDIT")]
    expect(cycleInvoice({ cycle: 1, paymentMethod: "pix", lines: over, discounts, coupon: coupon({}) }))
      .toEqual({ lines: over, subtotal: -2010, discount: 0, total: -2010 })
  })

  it("writes a later due day's extra days as a prorata line, and an earlier one's as a credit that leaves 0.01 to bill", () => {
    const adjustment = (name: string, type: InvoiceLine["type"], amount: number): InvoiceLine => ({
      name, productName: null, planName: null, type, origin: "DUE_DATE_CHANGE", unitAmount: amount, quantity: 1, netAmount: amount, priceId: null, productId: null
    })
    expect(adjustmentLine(0, 10000)).toBeNull()
    expect(adjustmentLine(1500, 10000)).toEqual(adjustment("Ajuste proporcional de vencimento", "PRORATA", 1500))
    expect(adjustmentLine(-500, 1000)).toEqual(adjustment("Crédito proporcional de vencimento", "CREDIT", -500))
    // A 50.00 credit on a 10.00 cycle: 9.99 of it, so the cycle still bills 0.01.
    expect(adjustmentLine(-5000, 1000)).toEqual(adjustment("Crédito proporcional de vencimento", "CREDIT", -999))
  })

  const arbLine = fc.record({
    net: fc.integer({ min: 0, max: 5_000_000 }),
    type: fc.constantFrom<InvoiceLine["type"]>("RECURRING", "ONE_TIME", "PRORATA")
  })
  const arbDiscount = fc.record({
    type: fc.constantFrom<"percentage" | "fixed">("percentage", "fixed"),
    value: fc.integer({ min: 1, max: 10_000 }),
    fromCycle: fc.integer({ min: 1, max: 4 })
  })
  const arbCoupon = fc.option(fc.record({
    discountType: fc.constantFrom<SubscriptionCoupon["discountType"]>("PERCENTAGE", "FIXED", "EXTRA_PERIOD"),
    discountValue: fc.integer({ min: 1, max: 10_000 }),
    maxCycles: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
    maxDiscount: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null })
  }), { nil: null })

  it("balances and never bills below 0.01, whatever discounts, coupon and carried credit or prorata apply (law)", () => {
    fc.assert(fc.property(
      fc.array(arbLine, { minLength: 1, maxLength: 8 }).filter((lines) => lines.some((l) => l.net > 0)),
      fc.array(arbDiscount, { maxLength: 4 }),
      arbCoupon,
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: -20_000_000, max: 5_000_000 }),
      (lines, discounts, c, cycle, carried) => {
        const items = lines.map((l) => line(l.net, l.type))
        const subtotal = items.reduce((s, l) => s + l.netAmount, 0)
        const adjustment = adjustmentLine(carried, subtotal)
        const invoice = cycleInvoice({
          cycle,
          paymentMethod: "pix",
          lines: adjustment === null ? items : [...items, adjustment],
          discounts,
          coupon: c === null ? null : coupon({ ...c, maxDiscount: c.maxDiscount === null ? null : cents(c.maxDiscount) })
        })
        // What the database checks at commit, and what a charge may ask for.
        expect(invoice.lines.reduce((s, l) => s + l.netAmount, 0) - invoice.discount).toBe(invoice.total)
        expect(invoice.total).toBeGreaterThanOrEqual(1)
        expect(invoice.discount).toBeGreaterThanOrEqual(0)
        // A credit is never larger than what it reduces, and a carried amount is billed whole.
        if (carried < 0) expect(adjustment!.netAmount).toBeGreaterThanOrEqual(-(subtotal - 1))
        if (carried > 0) expect(adjustment!.netAmount).toBe(carried)
      }
    ))
  })
})

describe("retry schedule of a refused renewal", () => {
  it("retries 3, 5 and 7 days after each refusal (days 3, 8 and 15 after a due date), then waits 7 days of dunning", () => {
    // Due 28 February 2027 (refused there), then each retry on the day the previous answer named.
    const first = afterRefusal(1, "2027-02-28")
    expect(first).toEqual({ status: "RETRY_SCHEDULED", nextAttemptOn: "2027-03-03" })
    const second = afterRefusal(2, first.nextAttemptOn)
    expect(second).toEqual({ status: "RETRY_SCHEDULED", nextAttemptOn: "2027-03-08" })
    const third = afterRefusal(3, second.nextAttemptOn)
    expect(third).toEqual({ status: "RETRY_SCHEDULED", nextAttemptOn: "2027-03-15" })
    expect(afterRefusal(4, third.nextAttemptOn)).toEqual({ status: "DUNNING", nextAttemptOn: "2027-03-22" })
  })

  it("never retries the next day", () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(afterRefusal(attempt, "2027-12-31").nextAttemptOn > "2028-01-01").toBe(true)
    }
  })
})

describe("safety bounds of a cycle", () => {
  const c = (n: number) => cents(n)
  it("holds a cycle that is not positive, or more than the limit times the last one billed", () => {
    expect(cycleOutOfBounds(c(0), c(990), 10)).toBe("amount 0 is not positive")
    expect(cycleOutOfBounds(c(9900), c(990), 10)).toBeNull()
    expect(cycleOutOfBounds(c(9901), c(990), 10)).toBe("amount 9901 is more than 10 times the last cycle's 990")
  })

  it("has no growth bound for a first bill, nor after a cycle that billed nothing", () => {
    expect(cycleOutOfBounds(c(1_000_000), null, 10)).toBeNull()
    expect(cycleOutOfBounds(c(1_000_000), c(0), 10)).toBeNull()
  })
})

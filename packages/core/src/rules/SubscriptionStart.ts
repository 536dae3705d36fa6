/**
 * When a new subscription bills first (spec: Transparent checkout,
 * `billingDay`, `recurrencyStartDate`, `prorataStartDate`, `prorataDueDate`,
 * `mergeWithNextCycle`; the price's `trialDays`; `EXTRA_PERIOD` coupons).
 *
 * - A free period (trial days, then the coupon's extra days or months) comes
 *   first; nothing is charged during it.
 * - The first full cycle is due on `recurrencyStartDate`, else on the next
 *   `billingDay` from the end of the free period (today without either).
 * - With `prorataStartDate`, the days from it to the first full cycle are a
 *   partial period billed by prorata of the full cycle: its own first cycle,
 *   due on `prorataDueDate` (default today), or, with `mergeWithNextCycle`,
 *   a line on the first full cycle's invoice.
 */
import { addDays, daysBetween } from "../brazil/CalendarDate.ts"
import { type Recurrence, cycleDueDate, firstDueDate } from "./CycleSchedule.ts"

export interface StartInput {
  readonly today: string
  readonly recurrence: Recurrence
  readonly billingDay?: number | undefined
  readonly trialDays: number
  readonly extraPeriod?: { readonly value: number; readonly unit: "DAYS" | "MONTHS" } | undefined
  readonly recurrencyStartDate?: string | undefined
  readonly prorataStartDate?: string | undefined
  readonly prorataDueDate?: string | undefined
  readonly mergeWithNextCycle?: boolean | undefined
}

export interface SubscriptionStart {
  /** Last free day, or null without a free period. */
  readonly freeUntil: string | null
  /** Day of the month later cycles are due on. */
  readonly billingDay: number
  /** The first full cycle: its number and due date; every later cycle follows from them. */
  readonly anchorCycle: number
  readonly anchorDate: string
  /** Cycle 1: the period it covers, its due date and, when partial, its share of a full cycle. */
  readonly first: {
    readonly periodStart: string
    readonly dueDate: string
    readonly prorata: { readonly remainingDays: number; readonly cycleDays: number; readonly merged: boolean } | null
  }
}

/** `date` plus `months` months, on the same day or the month's last day. */
const addMonths = (date: string, months: number): string =>
  cycleDueDate(date, { recurrenceType: "MONTHLY", recurrenceInterval: 1 }, months + 1)

/** The first day to bill after the free period: today, after the trial, after the coupon's extra period. */
const endOfFreePeriod = (input: StartInput): string => {
  const afterTrial = addDays(input.today, input.trialDays)
  const extra = input.extraPeriod
  if (extra === undefined || extra.value <= 0) return afterTrial
  return extra.unit === "DAYS" ? addDays(afterTrial, extra.value) : addMonths(afterTrial, extra.value)
}

export const subscriptionStart = (input: StartInput): SubscriptionStart => {
  const billFrom = endOfFreePeriod(input)
  const freeUntil = billFrom > input.today ? addDays(billFrom, -1) : null
  const anchorDate = input.recurrencyStartDate !== undefined && input.recurrencyStartDate >= billFrom
    ? input.recurrencyStartDate
    : firstDueDate(billFrom, { billingDay: input.billingDay })
  const billingDay = input.billingDay ?? Number(anchorDate.slice(8, 10))
  const start = input.prorataStartDate
  if (start === undefined || start >= anchorDate) {
    // A full first cycle covers the period that starts on its due date; days before it are not billed.
    return { freeUntil, billingDay, anchorCycle: 1, anchorDate, first: { periodStart: anchorDate, dueDate: anchorDate, prorata: null } }
  }
  const previous = cycleDueDate(anchorDate, input.recurrence, 0, billingDay)
  const cycleDays = Math.max(1, daysBetween(previous, anchorDate))
  const remainingDays = Math.min(cycleDays, daysBetween(start, anchorDate))
  const merged = input.mergeWithNextCycle === true
  return {
    freeUntil,
    billingDay,
    anchorCycle: merged ? 1 : 2,
    anchorDate,
    first: {
      periodStart: start,
      dueDate: merged ? anchorDate : input.prorataDueDate ?? input.today,
      prorata: { remainingDays, cycleDays, merged }
    }
  }
}

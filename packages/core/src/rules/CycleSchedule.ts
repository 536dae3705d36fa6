/**
 * Subscription calendar: the due date of every cycle, when its charge is
 * issued and until when it can be paid. All dates are calendar dates
 * (`YYYY-MM-DD`) in America/Sao_Paulo, computed as whole days.
 */
import { addDays } from "../brazil/CalendarDate.ts"

export type RecurrenceType = "DAILY" | "WEEKLY" | "MONTHLY" | "QUARTERLY" | "SEMIANNUAL" | "YEARLY"

export interface Recurrence {
  readonly recurrenceType: RecurrenceType
  /** Every `recurrenceInterval` units (2 with MONTHLY = every two months); at least 1. */
  readonly recurrenceInterval: number
}

const MONTHS: Record<RecurrenceType, number> = { DAILY: 0, WEEKLY: 0, MONTHLY: 1, QUARTERLY: 3, SEMIANNUAL: 6, YEARLY: 12 }

const daysInMonth = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate()

/** The date in `year`/`month0` on `day`, or on the month's last day when it has fewer days. */
export const clampToMonth = (year: number, month0: number, day: number): string => {
  const d = Math.min(day, daysInMonth(year, month0))
  return `${year}-${String(month0 + 1).padStart(2, "0")}-${String(d).padStart(2, "0")}`
}

/**
 * The first due date of a subscription created on `start`: after the trial,
 * on the next `billingDay` (the same day when it is the billing day; the
 * month's last day when the month is shorter). Without a billing day, the
 * first charge is due when the trial ends (or at once).
 */
export const firstDueDate = (start: string, options: { readonly billingDay?: number | undefined; readonly trialDays?: number | undefined }): string => {
  const from = addDays(start, options.trialDays ?? 0)
  if (options.billingDay === undefined) return from
  const [y, m] = [Number(from.slice(0, 4)), Number(from.slice(5, 7)) - 1]
  const thisMonth = clampToMonth(y, m, options.billingDay)
  if (thisMonth >= from) return thisMonth
  return clampToMonth(m === 11 ? y + 1 : y, (m + 1) % 12, options.billingDay)
}

/**
 * Due date of cycle `n` (1-based) given the first one. Monthly-based
 * recurrences land on `billingDay` (default: the first due date's day), or on
 * the last day of a month without it, and return to the chosen day after.
 */
export const cycleDueDate = (
  first: string,
  recurrence: Recurrence,
  n: number,
  billingDay: number = Number(first.slice(8, 10))
): string => {
  const steps = (n - 1) * recurrence.recurrenceInterval
  switch (recurrence.recurrenceType) {
    case "DAILY":
      return addDays(first, steps)
    case "WEEKLY":
      return addDays(first, steps * 7)
    default: {
      const months = Number(first.slice(0, 4)) * 12 + Number(first.slice(5, 7)) - 1 + steps * MONTHS[recurrence.recurrenceType]
      return clampToMonth(Math.floor(months / 12), months % 12, billingDay)
    }
  }
}

/** Where a subscription's calendar is anchored: cycle `anchorCycle` is due on `anchorDate`, and every later one follows. */
export interface CycleAnchor {
  readonly anchorDate: string
  readonly anchorCycle: number
  readonly interval: RecurrenceType
  readonly intervalCount: number
  readonly billingDay: number
}

/** Due date of cycle `n` (at or after the anchor's cycle) of a subscription anchored at `anchor`. */
export const anchoredDueDate = (anchor: CycleAnchor, n: number): string =>
  cycleDueDate(anchor.anchorDate, { recurrenceType: anchor.interval, recurrenceInterval: anchor.intervalCount }, n - anchor.anchorCycle + 1, anchor.billingDay)

/** The day the charge of a cycle due on `due` is issued. */
export const issueDate = (due: string, issueDaysBeforeDue: number): string => addDays(due, -Math.max(0, issueDaysBeforeDue))

/** The last day a charge due on `due` can still be paid (`expirationAfterDueDate` 0 to 60). */
export const lastPayableDate = (due: string, expirationAfterDueDate: number): string =>
  addDays(due, Math.min(60, Math.max(0, expirationAfterDueDate)))

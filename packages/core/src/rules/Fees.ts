/**
 * Fees of a charge: a fixed part plus a percentage of the gross amount, per
 * account and payment method. Gives the `grossAmount`, `netAmount` and
 * `fees { total, fixed, percentageRate }` of the spec's charge record.
 */
import { type Cents, cents } from "../money/Money.ts"
import { percentFromHundredths, percentOf, roundHalfUp } from "../money/Rounding.ts"

export interface FeeSchedule {
  readonly fixed: Cents
  /** Percentage in hundredths of a percent (0.99% = 99). */
  readonly percentHundredths: number
}

export interface FeeBreakdown {
  readonly gross: Cents
  readonly net: Cents
  readonly fees: {
    readonly total: Cents
    readonly fixed: Cents
    readonly percentage: Cents
    /** The percentage as the spec prints it (0.99 for 0.99%). */
    readonly percentageRate: number
  }
}

/** Pix withdrawal and transfer fee (spec: Limits), adjustable per account. */
export const DEFAULT_PIX_TRANSFER_FEE = cents(47)
/** Pix fee of a sub-account whose master defines none (spec: Limits). */
export const DEFAULT_SUBACCOUNT_PIX_FEE: FeeSchedule = { fixed: cents(67), percentHundredths: 0 }
/** Fee of opening a sub-account (spec: Limits). */
export const SUBACCOUNT_OPENING_FEE = cents(1500)
/** Daily transfer limit of an account (spec: Limits). */
export const DEFAULT_DAILY_TRANSFER_LIMIT = cents(300_000)
/** No fee: the default of a master account until its operator sets one. */
export const NO_FEES: FeeSchedule = { fixed: cents(0), percentHundredths: 0 }

/**
 * The fees of `gross` under `schedule`. Rounding point: the percentage part
 * is rounded half up to the centavo. The fees never exceed the gross amount:
 * when they would, they are capped at it and the net is zero (a 0.01 Pix on
 * a 0.67 fixed fee is accepted, and nothing is credited).
 */
export const computeFees = (gross: Cents, schedule: FeeSchedule): FeeBreakdown => {
  const percentage = percentOf(gross, schedule.percentHundredths, roundHalfUp)
  const uncapped = schedule.fixed + percentage
  const total = cents(Math.min(uncapped, gross))
  return {
    gross,
    net: cents(gross - total),
    fees: {
      total,
      fixed: cents(Math.min(schedule.fixed, total)),
      percentage: cents(total - Math.min(schedule.fixed, total)),
      percentageRate: percentFromHundredths(schedule.percentHundredths)
    }
  }
}

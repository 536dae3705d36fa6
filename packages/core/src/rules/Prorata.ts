/**
 * Day-based prorata of a change inside the current cycle (spec:
 * Subscriptions, upgrade and downgrade rules). The preview route and the real
 * change call this same function.
 */
import { toDayNumber } from "../brazil/CalendarDate.ts"
import { type Cents, cents } from "../money/Money.ts"

export interface ProrataInput {
  /** First day of the current cycle (its charge date). */
  readonly cycleStart: string
  /** Due date of the next cycle: the current one ends the day before. */
  readonly nextCycleDate: string
  /** Day the change takes effect (today). */
  readonly changeDate: string
  /** Total of the items before and after the change, per cycle. */
  readonly currentAmount: Cents
  readonly newAmount: Cents
}

export interface ProrataResult {
  readonly kind: "UPGRADE" | "DOWNGRADE"
  readonly cycleDays: number
  readonly remainingDays: number
  /** Unused part of the current items, credited to the customer. */
  readonly currentCredit: Cents
  /** Remaining part of the new items. */
  readonly newCharge: Cents
  /** Due now: `newCharge − currentCredit` on an upgrade, 0 on a downgrade (effective next cycle). */
  readonly prorataAmount: Cents
  readonly currentAmount: Cents
  readonly newAmount: Cents
  readonly nextCycleChargeDate: string
}

/**
 * Rounding points: the credit of the unused days of the current items is
 * rounded down; the amount due for an upgrade is the price difference times
 * the remaining share, rounded up, and `newCharge` is that plus the credit.
 * Taking the difference before rounding keeps the amount due monotonic in the
 * day, and rounding it up means a change and its reversal never pay the
 * customer a centavo the merchant did not receive.
 */
export const prorata = (input: ProrataInput): ProrataResult => {
  const start = toDayNumber(input.cycleStart)!
  const end = toDayNumber(input.nextCycleDate)!
  const at = toDayNumber(input.changeDate)!
  const cycleDays = Math.max(1, end - start)
  const remainingDays = Math.min(cycleDays, Math.max(0, end - at))
  const share = (amount: Cents, round: "down" | "up") => {
    const numerator = BigInt(amount) * BigInt(remainingDays)
    const d = BigInt(cycleDays)
    return cents(Number(round === "down" ? numerator / d : (numerator + d - 1n) / d))
  }
  const upgrade = input.newAmount > input.currentAmount
  const currentCredit = share(input.currentAmount, "down")
  const prorataAmount = upgrade ? share(cents(input.newAmount - input.currentAmount), "up") : cents(0)
  const newCharge = upgrade ? cents(currentCredit + prorataAmount) : share(input.newAmount, "up")
  return {
    kind: upgrade ? "UPGRADE" : "DOWNGRADE",
    cycleDays,
    remainingDays,
    currentCredit,
    newCharge,
    prorataAmount,
    currentAmount: input.currentAmount,
    newAmount: input.newAmount,
    nextCycleChargeDate: input.nextCycleDate
  }
}

/**
 * Prorata of moving the due day: moving it later bills the extra days of the
 * current plan now (rounded up); moving it earlier credits the days skipped
 * (rounded down) against the next charge. Negative means a credit.
 */
export const dueDayChangeProrata = (input: {
  readonly amount: Cents
  readonly cycleDays: number
  readonly currentNextDate: string
  readonly newNextDate: string
}): Cents => {
  const delta = toDayNumber(input.newNextDate)! - toDayNumber(input.currentNextDate)!
  const days = BigInt(Math.abs(delta))
  const d = BigInt(Math.max(1, input.cycleDays))
  const value = delta >= 0 ? (BigInt(input.amount) * days + d - 1n) / d : -((BigInt(input.amount) * days) / d)
  return cents(Number(value))
}

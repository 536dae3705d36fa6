/**
 * Card installments: how much the buyer pays in total and per installment.
 */
import { Result } from "effect"
import { InvalidData } from "../domain/Errors.ts"
import { allocateRemainderToFirst } from "../money/Allocation.ts"
import { type Cents, cents } from "../money/Money.ts"
import { percentOf, roundHalfUp } from "../money/Rounding.ts"

export const MAX_INSTALLMENTS = 12

/**
 * Surcharge of paying in `n` installments, in hundredths of a percent of the
 * amount, when the buyer bears it: the default is 1.99% per installment
 * beyond the first (2x = 1.99%, 12x = 21.89%), a common acquirer schedule.
 * Accounts may pass their own table.
 */
export const DEFAULT_INSTALLMENT_SURCHARGE: ReadonlyArray<number> = Array.from({ length: MAX_INSTALLMENTS + 1 }, (_, n) =>
  n <= 1 ? 0 : (n - 1) * 199
)

export interface InstallmentPlan {
  readonly installments: number
  /** What the buyer pays in all. */
  readonly total: Cents
  /** The surcharge the buyer pays on top of the amount (0 when interest-free). */
  readonly surcharge: Cents
  /** Every installment; they add up to `total`, and the first carries the rounding difference. */
  readonly amounts: ReadonlyArray<Cents>
}

/**
 * The plan for paying `amount` in `installments`. With `passFeesToCustomer`
 * and more installments than `freeInstallments`, the buyer pays the
 * surcharge of the table; otherwise the merchant absorbs it. Rounding points:
 * the surcharge is rounded half up; the installments are the total divided
 * evenly, rounded down, and the first installment takes the difference.
 */
export const planInstallments = (input: {
  readonly amount: Cents
  readonly installments: number
  readonly freeInstallments?: number
  readonly passFeesToCustomer?: boolean
  readonly surchargeTable?: ReadonlyArray<number>
}): Result.Result<InstallmentPlan, InvalidData> => {
  const n = input.installments
  const free = input.freeInstallments ?? 0
  if (!Number.isInteger(n) || n < 1 || n > MAX_INSTALLMENTS) {
    return Result.fail(new InvalidData({ message: "installments must be 1 to 12", details: { field: "installments" } }))
  }
  if (!Number.isInteger(free) || free < 0 || free > MAX_INSTALLMENTS) {
    return Result.fail(new InvalidData({ message: "freeInstallments must be 0 to 12", details: { field: "freeInstallments" } }))
  }
  if (input.amount < n) {
    return Result.fail(new InvalidData({ message: "each installment must be at least 0.01", details: { field: "installments" } }))
  }
  const table = input.surchargeTable ?? DEFAULT_INSTALLMENT_SURCHARGE
  const surcharge = input.passFeesToCustomer && n > free ? percentOf(input.amount, table[n] ?? 0, roundHalfUp) : cents(0)
  const total = cents(input.amount + surcharge)
  return Result.succeed({ installments: n, total, surcharge, amounts: allocateRemainderToFirst(total, n) })
}

/**
 * Split debts (`sdb_`): what an account owes for a split reversal or a
 * chargeback it could not pay, or for its opening fee, paid from its next
 * credits oldest first (`ledger/PayDebts.ts`). Their states in one table as
 * the charge's (`ChargeTransitions.ts`); storage applies a move as one
 * conditional UPDATE (`WHERE status IN from`). The database checks the same
 * statuses and reasons (migrations 0015 and 0017).
 */
import type { LedgerCategory } from "../domain/Ledger.ts"
import type { RefundRecordReason } from "../domain/Refund.ts"

/** Owed (`PENDING`, in whole or in part), paid in full, or canceled with the refund that left it. */
export const DebtStatuses = ["PENDING", "PAID", "CANCELED"] as const
export type DebtStatus = typeof DebtStatuses[number]

/** What a debt is for: a refund's reversal or chargeback (it names the refund), or a sub-account's opening fee (it names none). */
export const DebtReasons = ["REFUND", "OPENING_FEE"] as const
export type DebtReason = typeof DebtReasons[number]

/** The statement category a debt is paid under: an opening fee is a `FEE`, a chargeback's debt a `CHARGEBACK`, any other a `REFUND`. */
export type DebtCategory = Extract<LedgerCategory, "REFUND" | "CHARGEBACK" | "FEE">

/** A debt as it is opened: owing its whole amount. */
export const NEW_DEBT_STATUS: DebtStatus = "PENDING"

/** Debts anything of which is still owed: what the holder's next credits pay, oldest first. */
export const OWED_DEBT_STATUSES: ReadonlyArray<DebtStatus> = [NEW_DEBT_STATUS]

export type DebtTrigger =
  /** A credit paid part of it: still owed. */
  | "partlyPaid"
  /** A credit paid what was left of it. */
  | "paid"
  /** The refund that left it was refused: what was paid of it goes back to the holder. */
  | "canceled"

export interface DebtTransition {
  readonly trigger: DebtTrigger
  readonly from: ReadonlyArray<DebtStatus>
  readonly to: DebtStatus
}

export const DebtTransitions = {
  partlyPaid: { trigger: "partlyPaid", from: OWED_DEBT_STATUSES, to: "PENDING" },
  paid: { trigger: "paid", from: OWED_DEBT_STATUSES, to: "PAID" },
  canceled: { trigger: "canceled", from: ["PENDING", "PAID"], to: "CANCELED" }
} as const satisfies { readonly [T in DebtTrigger]: DebtTransition & { readonly trigger: T } }

/** The status `trigger` moves a debt in `from` to, or `undefined` when the table has no such move. */
export const nextDebtStatus = (from: DebtStatus, trigger: DebtTrigger): DebtStatus | undefined => {
  const transition: DebtTransition = DebtTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

/** The move a payment makes of a debt, by what it leaves owed (`remaining`, centavos). */
export const debtPayment = (remaining: number): DebtTransition => remaining === 0 ? DebtTransitions.paid : DebtTransitions.partlyPaid

/** What a debt is for: the refund it names, or the opening fee when it names none. */
export const debtReasonOf = (refundId: string | null): DebtReason => refundId === null ? "OPENING_FEE" : "REFUND"

/** The statement category of a debt of `reason`, left by a refund of `refundReason` (null for an opening fee). */
export const debtCategory = (reason: DebtReason, refundReason: RefundRecordReason | null): DebtCategory =>
  reason === "OPENING_FEE" ? "FEE" : refundReason === "CHARGEBACK" ? "CHARGEBACK" : "REFUND"

/**
 * The state machine of a Pix sent out of an account (a withdrawal or a
 * transfer), in one table as the charge's (`ChargeTransitions.ts`): it is
 * `PROCESSING` from its request until the Pix provider pays it out or
 * returns it, and storage records the answer as one conditional UPDATE
 * (`WHERE status IN from`), so two workers paying one out record one answer.
 *
 * Spec: Wallet (withdrawals, `pix-transfer`).
 */
import type { WithdrawalStatus } from "../domain/Withdrawal.ts"

/** What moves a withdrawal. */
export type WithdrawalTrigger =
  /** The provider paid it out (with the SPI's end-to-end id). */
  | "paidOut"
  /** The provider refused it: the amount and the fee go back to the balance. */
  | "returned"

export interface WithdrawalTransition {
  readonly trigger: WithdrawalTrigger
  readonly from: ReadonlyArray<WithdrawalStatus>
  readonly to: WithdrawalStatus
}

/** Withdrawals waiting for the provider: what the worker claims and pays out. */
export const IN_FLIGHT_WITHDRAWAL_STATUSES: ReadonlyArray<WithdrawalStatus> = ["PROCESSING"]

/** Withdrawals that count against the daily limit: requested or paid out (a returned one gave its amount back). */
export const LIMIT_COUNTED_WITHDRAWAL_STATUSES: ReadonlyArray<WithdrawalStatus> = ["PROCESSING", "COMPLETED"]

export const WithdrawalTransitions = {
  paidOut: { trigger: "paidOut", from: IN_FLIGHT_WITHDRAWAL_STATUSES, to: "COMPLETED" },
  returned: { trigger: "returned", from: IN_FLIGHT_WITHDRAWAL_STATUSES, to: "FAILED" }
} as const satisfies { readonly [T in WithdrawalTrigger]: WithdrawalTransition & { readonly trigger: T } }

/** The status `trigger` moves a withdrawal in `from` to, or `undefined` when the table has no such move. */
export const nextWithdrawalStatus = (from: WithdrawalStatus, trigger: WithdrawalTrigger): WithdrawalStatus | undefined => {
  const transition: WithdrawalTransition = WithdrawalTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

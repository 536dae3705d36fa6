/**
 * The card dispute's state machine, in one table as the charge's
 * (`ChargeTransitions.ts`): a dispute is `OPEN` until it is decided, and
 * storage decides it as one conditional UPDATE (`WHERE status IN from`), so
 * it is decided once. The charge moves with it by its own table
 * (`disputeWon`, `chargedBack`).
 *
 * Spec: Charge status `DISPUTE` and `CHARGED_BACK`; it leaves the flow
 * unshown (`domain/Dispute.ts`).
 */
import type { DisputeStatus } from "../domain/Dispute.ts"

/** What moves a dispute. */
export type DisputeTrigger =
  /** Decided for the merchant: the charge is paid again. */
  | "won"
  /** Decided for the cardholder: the acquirer takes the amount back (a chargeback). */
  | "lost"

export interface DisputeTransition {
  readonly trigger: DisputeTrigger
  readonly from: ReadonlyArray<DisputeStatus>
  readonly to: DisputeStatus
}

/** Disputes not decided yet: a charge has at most one (a unique index on them). */
export const OPEN_DISPUTE_STATUSES: ReadonlyArray<DisputeStatus> = ["OPEN"]

export const DisputeTransitions = {
  won: { trigger: "won", from: OPEN_DISPUTE_STATUSES, to: "WON" },
  lost: { trigger: "lost", from: OPEN_DISPUTE_STATUSES, to: "LOST" }
} as const satisfies { readonly [T in DisputeTrigger]: DisputeTransition & { readonly trigger: T } }

/** The status `trigger` moves a dispute in `from` to, or `undefined` when the table has no such move. */
export const nextDisputeStatus = (from: DisputeStatus, trigger: DisputeTrigger): DisputeStatus | undefined => {
  const transition: DisputeTransition = DisputeTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

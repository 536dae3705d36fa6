/**
 * The refund state machine, in one table as the charge's
 * (`ChargeTransitions.ts`): a refund is `PROCESSING` from its request until
 * the provider answers, and storage records the answer as one conditional
 * UPDATE (`WHERE status IN from`), so two workers asking about one refund
 * record one answer. A refund confirmed at once (a chargeback, a MED
 * return) is inserted `CONFIRMED` and never moves.
 *
 * Spec: Refund status. A card's acquirer answers at once, a Pix's bank
 * through the worker (`wallet/Refunds.ts`).
 */
import type { RefundStatus } from "../domain/Refund.ts"

/** What moves a refund. */
export type RefundTrigger =
  /** The provider returned the money (a Pix's devolução, a card's refund at the acquirer). */
  | "confirmed"
  /** The provider refused: every part goes back where it came from. */
  | "refused"

export interface RefundTransition {
  readonly trigger: RefundTrigger
  readonly from: ReadonlyArray<RefundStatus>
  readonly to: RefundStatus
}

/** Refunds waiting for the provider's answer: what the worker claims and asks about. */
export const IN_FLIGHT_REFUND_STATUSES: ReadonlyArray<RefundStatus> = ["PROCESSING"]

/** Refunds whose money went back: what moves the charge to `PARTIALLY_REFUNDED` or `REFUNDED`. */
export const CONFIRMED_REFUND_STATUSES: ReadonlyArray<RefundStatus> = ["CONFIRMED"]

/** Refunds that take from what is left to refund of their charge: in flight or confirmed (a refused one gave it back). */
export const COUNTED_REFUND_STATUSES: ReadonlyArray<RefundStatus> = [...IN_FLIGHT_REFUND_STATUSES, ...CONFIRMED_REFUND_STATUSES]

export const RefundTransitions = {
  confirmed: { trigger: "confirmed", from: IN_FLIGHT_REFUND_STATUSES, to: "CONFIRMED" },
  refused: { trigger: "refused", from: IN_FLIGHT_REFUND_STATUSES, to: "ERROR" }
} as const satisfies { readonly [T in RefundTrigger]: RefundTransition & { readonly trigger: T } }

/** The status `trigger` moves a refund in `from` to, or `undefined` when the table has no such move. */
export const nextRefundStatus = (from: RefundStatus, trigger: RefundTrigger): RefundStatus | undefined => {
  const transition: RefundTransition = RefundTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

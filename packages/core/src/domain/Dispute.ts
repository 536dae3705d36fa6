/**
 * Card disputes: the cardholder's bank contests a paid card charge through
 * the acquirer. The charge is `DISPUTE` while it is open; won, it goes back
 * to what it was; lost, it is `CHARGED_BACK` and the acquirer takes the
 * disputed amount back (a refund of reason `CHARGEBACK`, confirmed at once,
 * which the owner owes as a debt when its balance lacks). The spec names the
 * two statuses and leaves the flow unshown; the sandbox drives it by hand.
 */
import { Schema } from "effect"
import { Cents } from "../money/Money.ts"
import { ErrorFields } from "./Errors.ts"
import { AccountId, ChargeId, DisputeId, RefundId } from "./Ids.ts"

export const DisputeStatus = Schema.Literals(["OPEN", "WON", "LOST"])
export type DisputeStatus = typeof DisputeStatus.Type

/** A dispute: the one definition its row, view and event body derive from. */
export const Dispute = Schema.Struct({
  id: DisputeId,
  accountId: AccountId,
  chargeId: ChargeId,
  /** What the cardholder contests: what was left to refund of the charge when it was opened, or less. */
  amount: Cents,
  reason: Schema.String,
  status: DisputeStatus,
  /** The chargeback that took the amount back, once lost. */
  refundId: Schema.NullOr(RefundId),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "Dispute" })
export type Dispute = typeof Dispute.Type

/** 404: no dispute with this id on the account. */
export class DisputeNotFound extends Schema.TaggedError<DisputeNotFound>()("DISPUTE_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: the dispute was decided already. */
export class DisputeClosed extends Schema.TaggedError<DisputeClosed>()("DISPUTE_CLOSED", ErrorFields, {
  httpApiStatus: 400
}) {}

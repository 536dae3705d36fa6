/**
 * MED, the Pix special return mechanism: the payer's bank opens an
 * infraction on a Pix received; the amount in question is blocked in the
 * account (its retained balance, with its own statement line) until the
 * infraction is decided: released to the account, or returned to the payer.
 * The spec names the five `med.*` events and leaves their payloads unshown.
 */
import { Schema } from "effect"
import { Cents } from "../money/Money.ts"
import { ErrorFields } from "./Errors.ts"
import { AccountId, ChargeId, MedInfractionId, RefundId } from "./Ids.ts"

export const MedStatus = Schema.Literals(["OPEN", "RELEASED", "RETURNED"])
export type MedStatus = typeof MedStatus.Type

/** An infraction: the one definition its row, view and event bodies derive from. */
export const MedInfraction = Schema.Struct({
  id: MedInfractionId,
  accountId: AccountId,
  chargeId: ChargeId,
  endToEndId: Schema.String,
  /** The amount the payer's bank contests. */
  amount: Cents,
  /** What the account's balance could block of it when it was opened. */
  blocked: Cents,
  reason: Schema.String,
  status: MedStatus,
  /** The refund that returned the money to the payer, once returned. */
  refundId: Schema.NullOr(RefundId),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "MedInfraction" })
export type MedInfraction = typeof MedInfraction.Type

/** 404: no infraction with this id on the account. */
export class InfractionNotFound extends Schema.TaggedError<InfractionNotFound>()("INFRACTION_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: the infraction was decided already. */
export class InfractionClosed extends Schema.TaggedError<InfractionClosed>()("INFRACTION_CLOSED", ErrorFields, {
  httpApiStatus: 400
}) {}

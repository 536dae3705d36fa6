/**
 * `charge.dispute.updated`, the engine's own event (a registration gets it
 * only by naming it): a card dispute opened or decided, with the charge's
 * status after it and, once lost, the chargeback that took the amount back.
 */
import { Schema } from "effect"
import { ChargeStatus } from "../domain/Charge.ts"
import { Dispute, type Dispute as DisputeType } from "../domain/Dispute.ts"
import { Instant, ReaisJson } from "../domain/Wire.ts"

const f = Dispute.fields

export const DisputeUpdatedEvent = Schema.Struct({
  event: Schema.Literal("charge.dispute.updated"),
  timestamp: Instant,
  accountId: f.accountId,
  disputeId: f.id,
  chargeId: f.chargeId,
  amount: ReaisJson,
  reason: f.reason,
  status: f.status,
  chargeStatus: ChargeStatus,
  refundId: f.refundId
}).annotate({ identifier: "DisputeUpdatedEvent" })

const encode = Schema.encodeSync(DisputeUpdatedEvent)

export const disputeUpdatedBody = (d: DisputeType, chargeStatus: ChargeStatus, at: Date): string =>
  JSON.stringify(encode({
    event: "charge.dispute.updated",
    timestamp: at,
    accountId: d.accountId,
    disputeId: d.id,
    chargeId: d.chargeId,
    amount: d.amount,
    reason: d.reason,
    status: d.status,
    chargeStatus,
    refundId: d.refundId
  }))

/**
 * Bodies of the `med.*` events. The spec names them and leaves their
 * payloads unshown: each carries the common envelope (`event`, `timestamp`,
 * `accountId`), the infraction and the Pix it contests, and what the event
 * is about (the status, the amount blocked or unblocked, the return).
 */
import { Schema } from "effect"
import { MedInfraction, type MedInfraction as Infraction } from "../domain/Med.ts"
import type { Refund } from "../domain/Refund.ts"
import { Instant, ReaisJson } from "../domain/Wire.ts"

const f = MedInfraction.fields

const common = {
  timestamp: Instant,
  accountId: f.accountId,
  infractionId: f.id,
  chargeId: f.chargeId,
  endToEndId: f.endToEndId,
  amount: ReaisJson
}

export const MedInfractionUpdatedEvent = Schema.Struct({
  event: Schema.Literal("med.infraction.updated"),
  ...common,
  status: f.status,
  reason: f.reason
}).annotate({ identifier: "MedInfractionUpdatedEvent" })

/** `med.balance.blocked` and `med.balance.unblocked`: `blockedAmount` is what the account's balance held. */
export const MedBalanceEvent = Schema.Struct({
  event: Schema.Literals(["med.balance.blocked", "med.balance.unblocked"]),
  ...common,
  blockedAmount: ReaisJson
}).annotate({ identifier: "MedBalanceEvent" })

/** `med.refund.opened` (`PROCESSING`) and `med.refund.closed` (`CONFIRMED`, with the return's id). */
export const MedRefundEvent = Schema.Struct({
  event: Schema.Literals(["med.refund.opened", "med.refund.closed"]),
  ...common,
  refundId: Schema.String,
  status: Schema.Literals(["PROCESSING", "CONFIRMED"]),
  returnIdentification: Schema.NullOr(Schema.String)
}).annotate({ identifier: "MedRefundEvent" })

const commonOf = (m: Infraction, at: Date) => ({
  timestamp: at,
  accountId: m.accountId,
  infractionId: m.id,
  chargeId: m.chargeId,
  endToEndId: m.endToEndId,
  amount: m.amount
})

const encodeUpdated = Schema.encodeSync(MedInfractionUpdatedEvent)
const encodeBalance = Schema.encodeSync(MedBalanceEvent)
const encodeRefund = Schema.encodeSync(MedRefundEvent)

export const medInfractionUpdatedBody = (m: Infraction, at: Date): string =>
  JSON.stringify(encodeUpdated({ event: "med.infraction.updated", ...commonOf(m, at), status: m.status, reason: m.reason }))

export const medBalanceBody = (event: "med.balance.blocked" | "med.balance.unblocked", m: Infraction, at: Date): string =>
  JSON.stringify(encodeBalance({ event, ...commonOf(m, at), blockedAmount: m.blocked }))

export const medRefundBody = (event: "med.refund.opened" | "med.refund.closed", m: Infraction, refund: Refund, at: Date): string =>
  JSON.stringify(encodeRefund({
    event,
    ...commonOf(m, at),
    refundId: refund.id,
    status: event === "med.refund.opened" ? "PROCESSING" : "CONFIRMED",
    returnIdentification: event === "med.refund.opened" ? null : refund.returnIdentification
  }))

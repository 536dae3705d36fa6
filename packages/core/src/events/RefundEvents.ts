/**
 * Bodies of the refund events (spec: Refund payloads): common fields, then
 * per event its `status` and extras. The decision is by event name; the
 * status text of `refund.failed` is `ERROR`.
 */
import { Schema } from "effect"
import type { Charge } from "../domain/Charge.ts"
import { Refund, type Refund as RefundType } from "../domain/Refund.ts"
import { ReaisJson, Instant } from "../domain/Wire.ts"

const f = Refund.fields
const NullableString = Schema.NullOr(Schema.String)

/** The charge's customer as refund events carry it; every field `null` when the charge has none. */
const RefundCustomer = Schema.Struct({
  customerId: NullableString,
  name: NullableString,
  email: NullableString,
  taxId: NullableString,
  phone: NullableString
})

const common = {
  timestamp: Instant,
  accountId: f.accountId,
  refundId: f.id,
  chargeId: f.chargeId,
  amount: ReaisJson,
  customer: RefundCustomer
}

/** `refund.requested`: Pix with `endToEndId` and `reason`; card with `paymentType` and `providerChargeId`. */
export const RefundRequestedEvent = Schema.Struct({
  event: Schema.Literal("refund.requested"),
  ...common,
  status: Schema.Literal("PROCESSING"),
  endToEndId: Schema.optionalKey(f.endToEndId),
  reason: Schema.optionalKey(f.reason),
  paymentType: Schema.optionalKey(Schema.Literal("CREDIT_CARD")),
  providerChargeId: Schema.optionalKey(NullableString)
}).annotate({ identifier: "RefundRequestedEvent" })

const SplitReversalEvent = Schema.Struct({
  accountNumber: Schema.String,
  amount: ReaisJson,
  status: Schema.Literals(["REVERSED", "PENDING"]),
  debtId: Schema.optionalKey(Schema.String)
})

const settled = {
  ...common,
  returnIdentification: f.returnIdentification,
  splitReversals: Schema.optionalKey(Schema.Array(SplitReversalEvent))
}

/** `refund.confirmed`: `returnIdentification`, no `reason`; `splitReversals[]` when the charge had split. */
export const RefundConfirmedEvent = Schema.Struct({
  event: Schema.Literal("refund.confirmed"),
  ...settled,
  status: Schema.Literal("CONFIRMED")
}).annotate({ identifier: "RefundConfirmedEvent" })

/** `refund.failed`: as confirmed, status `ERROR`, with the `error`. */
export const RefundFailedEvent = Schema.Struct({
  event: Schema.Literal("refund.failed"),
  ...settled,
  status: Schema.Literal("ERROR"),
  error: Schema.String
}).annotate({ identifier: "RefundFailedEvent" })

const customerOf = (charge: Charge) => ({
  customerId: charge.customerId,
  name: charge.customer?.name ?? null,
  email: charge.customer?.email ?? null,
  taxId: charge.customer?.documentNumber ?? null,
  phone: charge.customer?.phone ?? null
})

const commonOf = (refund: RefundType, charge: Charge, at: Date) => ({
  timestamp: at,
  accountId: refund.accountId,
  refundId: refund.id,
  chargeId: refund.chargeId,
  amount: refund.amount,
  customer: customerOf(charge)
})

const encodeRequested = Schema.encodeSync(RefundRequestedEvent)
const encodeConfirmed = Schema.encodeSync(RefundConfirmedEvent)
const encodeFailed = Schema.encodeSync(RefundFailedEvent)

export const refundRequestedBody = (refund: RefundType, charge: Charge, at: Date): string =>
  JSON.stringify(encodeRequested({
    event: "refund.requested",
    ...commonOf(refund, charge, at),
    status: "PROCESSING",
    ...(refund.paymentType === "PIX"
      ? { endToEndId: refund.endToEndId, reason: refund.reason }
      : { paymentType: "CREDIT_CARD" as const, providerChargeId: refund.providerChargeId })
  }))

const reversalsOf = (refund: RefundType) =>
  refund.splitReversals.length === 0 ? {} : {
    splitReversals: refund.splitReversals.map((r) => ({
      accountNumber: r.accountNumber,
      amount: r.amount,
      status: r.status,
      ...(r.debtId === null ? {} : { debtId: r.debtId })
    }))
  }

export const refundConfirmedBody = (refund: RefundType, charge: Charge, at: Date): string =>
  JSON.stringify(encodeConfirmed({
    event: "refund.confirmed",
    ...commonOf(refund, charge, at),
    status: "CONFIRMED",
    returnIdentification: refund.returnIdentification,
    ...reversalsOf(refund)
  }))

export const refundFailedBody = (refund: RefundType, charge: Charge, at: Date): string =>
  JSON.stringify(encodeFailed({
    event: "refund.failed",
    ...commonOf(refund, charge, at),
    status: "ERROR",
    returnIdentification: refund.returnIdentification,
    error: refund.error ?? "ERROR",
    ...reversalsOf(refund)
  }))

/**
 * Bodies of the charge events, as Schemas derived from the charge and
 * serialized once when the event is recorded (amounts printed `10.00`,
 * instants ISO 8601). Standalone charges use the `accountId` key (spec:
 * Events, Common envelope).
 */
import { Schema } from "effect"
import { Charge } from "../domain/Charge.ts"
import { Instant, ReaisJson } from "../domain/Wire.ts"

const f = Charge.fields

/** `payment.success` of a standalone Pix charge (spec: Events, standalone `payment.success`). */
export const PaymentSuccessEvent = Schema.Struct({
  event: Schema.Literal("payment.success"),
  timestamp: Instant,
  accountId: f.accountId,
  chargeId: f.id,
  amount: ReaisJson,
  paymentMethod: f.paymentType,
  paymentId: Schema.String,
  paidAt: Instant,
  metadata: f.metadata,
  payer: f.payer
}).annotate({ identifier: "PaymentSuccessEvent" })

/** `charge.expired`: the payload is not shown by the spec; `status` is the charge status. */
export const ChargeExpiredEvent = Schema.Struct({
  event: Schema.Literal("charge.expired"),
  timestamp: Instant,
  accountId: f.accountId,
  chargeId: f.id,
  status: f.status,
  amount: ReaisJson,
  paymentType: f.paymentType,
  expiresAt: Instant,
  metadata: f.metadata
}).annotate({ identifier: "ChargeExpiredEvent" })

const encodePaymentSuccess = Schema.encodeSync(PaymentSuccessEvent)
const encodeChargeExpired = Schema.encodeSync(ChargeExpiredEvent)

/** The payment part of `payment.success`, standalone or a subscription's. */
export const paymentFieldsOf = (charge: Charge, at: Date) => ({
  chargeId: charge.id,
  amount: charge.amount,
  paymentMethod: charge.paymentType,
  paymentId: charge.endToEndId ?? charge.id,
  paidAt: charge.paidAt ?? at,
  payer: charge.payer
})

/** The body of `payment.success` for a paid charge, recorded at `at`. */
export const paymentSuccessBody = (charge: Charge, at: Date): string =>
  JSON.stringify(encodePaymentSuccess({
    event: "payment.success",
    timestamp: at,
    accountId: charge.accountId,
    metadata: charge.metadata,
    ...paymentFieldsOf(charge, at)
  }))

/** The body of `charge.expired` for an expired charge, recorded at `at`. */
export const chargeExpiredBody = (charge: Charge, at: Date): string =>
  JSON.stringify(encodeChargeExpired({
    event: "charge.expired",
    timestamp: at,
    accountId: charge.accountId,
    chargeId: charge.id,
    status: charge.status,
    amount: charge.amount,
    paymentType: charge.paymentType,
    expiresAt: charge.expiresAt,
    metadata: charge.metadata
  }))

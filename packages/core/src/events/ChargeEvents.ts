/**
 * Bodies of the charge events, serialized once when the event is recorded
 * (amounts printed `10.00`). Standalone charges use the `accountId` key
 * (spec: Events, Common envelope).
 */
import type { Charge } from "../domain/Charge.ts"
import { toJsonNumber } from "../money/Money.ts"

/** `payment.success` of a standalone Pix charge. */
export const paymentSuccessBody = (charge: Charge, at: Date): string =>
  JSON.stringify({
    event: "payment.success",
    timestamp: at.toISOString(),
    accountId: charge.accountId,
    chargeId: charge.id,
    amount: toJsonNumber(charge.amount),
    paymentMethod: charge.paymentType,
    paymentId: charge.endToEndId ?? charge.id,
    paidAt: charge.paidAt?.toISOString() ?? at.toISOString(),
    metadata: charge.metadata,
    payer: charge.payer
  })

/** `charge.expired`: the payload is not shown by the spec; `status` is the charge status. */
export const chargeExpiredBody = (charge: Charge, at: Date): string =>
  JSON.stringify({
    event: "charge.expired",
    timestamp: at.toISOString(),
    accountId: charge.accountId,
    chargeId: charge.id,
    status: charge.status,
    amount: toJsonNumber(charge.amount),
    paymentType: charge.paymentType,
    expiresAt: charge.expiresAt.toISOString(),
    metadata: charge.metadata
  })

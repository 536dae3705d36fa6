/**
 * What follows a Pix or boleto payment confirmed by the bank, whoever
 * confirmed it (the sandbox worker, a PSP's callback, the reconciliation
 * poll): the ledger credits, the subscription's cycle or plan change paid,
 * `payment.success`, the merchant's notifications and the fiscal note the
 * charge is owed. Call inside the
 * transaction that moved the charges to `PAID`.
 */
import { Effect } from "effect"
import type { Charge } from "../domain/Charge.ts"
import { enqueueChargeNotifications } from "../checkout/ChargeNotifications.ts"
import { notasOwedOnPayment } from "../nfse/NotaTiming.ts"
import { Ledger } from "../ports/Ledger.ts"
import { paymentShares } from "../rules/Postings.ts"
import { recordChargePaid } from "../subscriptions/SubscriptionPayments.ts"

export interface PaidCharge {
  readonly charge: Charge
  readonly at: Date
}

export const settlePaidCharges = Effect.fn("Charges.settlePaid")(function*(paid: ReadonlyArray<PaidCharge>) {
  // A batch credits several merchants one charge after another: their books are taken first, all in one order.
  yield* (yield* Ledger).lockBooks(paid.flatMap(({ charge }) => paymentShares(charge).map((share) => share.holder)))
  for (const { charge, at } of paid) {
    yield* recordChargePaid(charge, at)
    yield* enqueueChargeNotifications(charge, ["oneoff.payment.success", "new.sale"])
    yield* notasOwedOnPayment([charge], at)
  }
})

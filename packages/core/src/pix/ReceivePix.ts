/**
 * Pix coming in from a PSP (its callback, or the reconciliation poll that
 * catches what a callback missed): each Pix names the charge by its `txid`
 * and is confirmed through the same steps as a sandbox payment
 * (`settlePaidCharges`: ledger, subscription, `payment.success`).
 *
 * A PSP repeats callbacks and the poll overlaps them, so a Pix is taken once
 * by its `endToEndId`: the charge it paid already carries that id, and the
 * database refuses the same id on two charges. What cannot be confirmed (an
 * unknown `txid`, an amount other than the charge's, a charge no longer
 * open) is answered as such and logged, never failed: the PSP must not retry
 * it forever, and the money is the operator's to look into.
 */
import { Effect, Option } from "effect"
import type { Charge } from "../domain/Charge.ts"
import { settlePaidCharges, type PaidCharge } from "../charges/SettlePayments.ts"
import { Charges } from "../ports/Charges.ts"
import type { ReceivedPix } from "../ports/PixProvider.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ChargeTransitions, nextChargeStatus } from "../rules/ChargeTransitions.ts"

/** What became of one received Pix. */
export type ReceivedPixOutcome =
  | "confirmed"
  /** The charge already carries this `endToEndId`: a repeated callback, or the poll after the callback. */
  | "duplicate"
  | "unknownTxid"
  | "amountMismatch"
  /** Paid by another Pix, expired or canceled: the money came in all the same. */
  | "chargeNotOpen"

/** What to do with `pix` given the charge its txid names (none when unknown). */
export const judgeReceivedPix = (pix: ReceivedPix, charge: Option.Option<Charge>): ReceivedPixOutcome => {
  if (Option.isNone(charge)) return "unknownTxid"
  if (charge.value.endToEndId === pix.endToEndId) return "duplicate"
  if (nextChargeStatus(charge.value.status, "paymentConfirmed") === undefined) return "chargeNotOpen"
  if (charge.value.amount !== pix.amount) return "amountMismatch"
  return "confirmed"
}

const receiveOne = Effect.fn("Pix.receiveOne")(function*(pix: ReceivedPix) {
  const charges = yield* Charges
  const charge = yield* charges.lockByPixTxid(pix.txid)
  const outcome = judgeReceivedPix(pix, charge)
  if (outcome !== "confirmed" || Option.isNone(charge)) return { outcome, paid: Option.none<PaidCharge>() }
  const moved = yield* charges.transition(
    charge.value.id,
    ChargeTransitions.paymentConfirmed,
    { paidAt: pix.at, endToEndId: pix.endToEndId, payer: pix.payer, ...(pix.psp === undefined ? {} : { psp: pix.psp }) },
    pix.at
  )
  return { outcome, paid: Option.map(moved, (paid): PaidCharge => ({ charge: paid, at: pix.at })) }
})

/** Confirms the charges `received` pays, in one transaction; one outcome per Pix, in order. */
export const receivePix = Effect.fn("Pix.receive")(function*(received: ReadonlyArray<ReceivedPix>) {
  const outcomes = yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const results = yield* Effect.forEach(received, receiveOne)
    yield* settlePaidCharges(results.flatMap(({ paid }) => Option.toArray(paid)))
    return results.map(({ outcome }) => outcome)
  }))
  yield* Effect.forEach(received, (pix, i) =>
    outcomes[i] === "confirmed" || outcomes[i] === "duplicate"
      ? Effect.void
      : Effect.logWarning(`Pix ${pix.endToEndId} (txid ${pix.txid}) not confirmed: ${outcomes[i]}`), { discard: true })
  return outcomes
})

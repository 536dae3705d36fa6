/**
 * Boleto payments coming in from the bank (its callback, once confirmed at
 * the bank, or the poll of its paid list): each names the charge by the
 * boleto's "nosso número", the charge's `txid`, and is confirmed through the
 * same steps as a Pix (`settlePaidCharges`: ledger, subscription,
 * `payment.success`).
 *
 * A boleto is paid once, so a charge already paid is a repeat (the callback
 * and the poll both see it, in either order), never a second payment. The
 * amount rule: what the bank took may exceed the boleto's amount (interest
 * and a fine after the due date are the payer's to add) and confirms the
 * charge at its own amount, the excess logged for the operator; less than
 * the amount confirms nothing (the engine registers no discount at the
 * bank, so a bank that took less took an underpayment) and is logged. A
 * boleto paid for a charge already expired or canceled is logged too: the
 * money came in all the same.
 */
import { Clock, Effect, Option } from "effect"
import { endOfSaoPauloDay } from "../brazil/BankCalendar.ts"
import { settlePaidCharges, type PaidCharge } from "../charges/SettlePayments.ts"
import type { Charge } from "../domain/Charge.ts"
import { toDecimalString } from "../money/Money.ts"
import type { BoletoPayment } from "../ports/BoletoIssuer.ts"
import { Charges } from "../ports/Charges.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ChargeTransitions, nextChargeStatus } from "../rules/ChargeTransitions.ts"

/** What became of one boleto payment. */
export type ReceivedBoletoOutcome =
  | "confirmed"
  /** The charge is paid already: the callback after the poll, the poll after the callback, a repeated callback. */
  | "duplicate"
  /** No boleto charge has this "nosso número" (a boleto the bank registered for someone else). */
  | "unknownOurNumber"
  /** The bank took less than the boleto's amount. */
  | "underpaid"
  /** Expired or canceled: the money came in all the same. */
  | "chargeNotOpen"

/** What to do with `payment` given the charge its "nosso número" names (none when unknown). */
export const judgeBoletoPayment = (payment: BoletoPayment, charge: Option.Option<Charge>): ReceivedBoletoOutcome => {
  if (Option.isNone(charge)) return "unknownOurNumber"
  if (charge.value.paidAt !== null) return "duplicate"
  if (nextChargeStatus(charge.value.status, "paymentConfirmed") === undefined) return "chargeNotOpen"
  if (payment.amount < charge.value.amount) return "underpaid"
  return "confirmed"
}

/**
 * The charge's payment instant. The bank tells the day only: the instant the
 * engine learned it when that is still the day, else the day's last instant;
 * never before the charge existed.
 */
export const paidAtOf = (paidOn: string, learnedAt: number, charge: Charge): Date =>
  new Date(Math.max(charge.createdAt.getTime(), Math.min(learnedAt, endOfSaoPauloDay(paidOn).getTime())))

const receiveOne = Effect.fn("Boleto.receiveOne")(function*(payment: BoletoPayment, learnedAt: number) {
  const charges = yield* Charges
  const charge = yield* charges.lockBoletoByTxid(payment.ourNumber)
  const outcome = judgeBoletoPayment(payment, charge)
  if (outcome !== "confirmed" || Option.isNone(charge)) return { outcome, paid: Option.none<PaidCharge>() }
  const at = paidAtOf(payment.paidOn, learnedAt, charge.value)
  const moved = yield* charges.transition(charge.value.id, ChargeTransitions.paymentConfirmed, { paidAt: at }, at)
  return { outcome, paid: Option.map(moved, (paid): PaidCharge => ({ charge: paid, at })) }
})

/** Says what needs the operator: money the charge did not take as it came. */
const logOutcome = (payment: BoletoPayment, outcome: ReceivedBoletoOutcome, paid: Option.Option<PaidCharge>) => {
  const boleto = `boleto ${payment.ourNumber} (paid ${toDecimalString(payment.amount)} on ${payment.paidOn})`
  if (outcome === "underpaid" || outcome === "chargeNotOpen") return Effect.logWarning(`${boleto} not confirmed: ${outcome}`)
  if (Option.isSome(paid) && payment.amount > paid.value.charge.amount) {
    return Effect.logInfo(`${boleto} confirmed charge ${paid.value.charge.id} of ${toDecimalString(paid.value.charge.amount)}; the excess is the payer's interest or fine`)
  }
  return Effect.void
}

/**
 * Confirms the charges `payments` pay, in one transaction; one outcome per
 * payment, in order. An unknown "nosso número" is answered, not logged: the
 * poll lists every boleto of the bank account, the engine's or not.
 */
export const receiveBoletoPayments = Effect.fn("Boleto.receivePayments")(function*(payments: ReadonlyArray<BoletoPayment>) {
  if (payments.length === 0) return []
  const learnedAt = yield* Clock.currentTimeMillis
  const results = yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const results = yield* Effect.forEach(payments, (payment) => receiveOne(payment, learnedAt))
    yield* settlePaidCharges(results.flatMap(({ paid }) => Option.toArray(paid)))
    return results
  }))
  yield* Effect.forEach(payments, (payment, i) => logOutcome(payment, results[i]!.outcome, results[i]!.paid), { discard: true })
  return results.map(({ outcome }) => outcome)
})

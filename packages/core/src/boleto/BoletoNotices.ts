/**
 * A bank's callback says a boleto changed. Anyone can post to a URL, so a
 * notice is only a reason to ask: each boleto it names whose charge is still
 * open is looked up at the bank (`BoletoIssuer.status`), and only the bank's
 * own `Paid` is recorded (`receiveBoletoPayments`). A charge already paid
 * is not asked about again: the callback after the poll costs no call.
 */
import { Effect, Option } from "effect"
import { BoletoIssuer, type BoletoPayment } from "../ports/BoletoIssuer.ts"
import { Charges } from "../ports/Charges.ts"
import { nextChargeStatus } from "../rules/ChargeTransitions.ts"
import { boletoRefOf } from "./BankBoleto.ts"
import { receiveBoletoPayments, type ReceivedBoletoOutcome } from "./ReceiveBoleto.ts"

/** What became of a notice: a payment's outcome, or the bank saying it is not paid, or not answering. */
export type BoletoNoticeOutcome = ReceivedBoletoOutcome | "notPaid" | "bankUnavailable"

/** One notice: the payment the bank confirms (its outcome is the recording's), or what it came to without one. */
const askBank = Effect.fn("Boleto.askBank")(function*(ourNumber: string) {
  const charge = yield* (yield* Charges).findBoletoByTxid(ourNumber)
  if (Option.isNone(charge)) return { outcome: "unknownOurNumber" as BoletoNoticeOutcome }
  if (charge.value.paidAt !== null) return { outcome: "duplicate" as BoletoNoticeOutcome }
  if (nextChargeStatus(charge.value.status, "paymentConfirmed") === undefined) return { outcome: "chargeNotOpen" as BoletoNoticeOutcome }
  const ref = yield* boletoRefOf(charge.value)
  if (Option.isNone(ref)) return { outcome: "unknownOurNumber" as BoletoNoticeOutcome }
  const status = yield* Effect.result((yield* BoletoIssuer).status(ref.value))
  if (status._tag === "Failure") {
    yield* Effect.logWarning(`boleto ${ourNumber}: the bank could not confirm the callback (${status.failure.message}); the poll will`)
    return { outcome: "bankUnavailable" as BoletoNoticeOutcome }
  }
  if (status.success._tag !== "Paid") {
    yield* Effect.logWarning(`boleto ${ourNumber}: a callback said paid, the bank says ${status.success._tag}; nothing recorded`)
    return { outcome: "notPaid" as BoletoNoticeOutcome }
  }
  const payment: BoletoPayment = { ourNumber, amount: status.success.amount, paidOn: status.success.paidOn }
  return { outcome: "confirmed" as BoletoNoticeOutcome, payment }
})

/**
 * Confirms at the bank the boletos a callback names as paid (by "nosso
 * número", repeats taken once) and records what the bank confirms; one
 * outcome per distinct boleto, in order.
 */
export const receiveBoletoNotices = Effect.fn("Boleto.receiveNotices")(function*(ourNumbers: ReadonlyArray<string>) {
  const distinct = [...new Set(ourNumbers)]
  const asked = yield* Effect.forEach(distinct, askBank)
  const payments = asked.flatMap((a) => (a.payment === undefined ? [] : [a.payment]))
  const recorded = yield* receiveBoletoPayments(payments)
  let next = 0
  return asked.map((a): BoletoNoticeOutcome => (a.payment === undefined ? a.outcome : recorded[next++]!))
})

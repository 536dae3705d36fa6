/**
 * A charge taken off sale at its provider before the engine closes it
 * (cancels or expires it): a Pix at its PSP, a boleto at its bank. The
 * provider is asked first, outside any transaction, because a charge closed
 * here while still payable there can be paid later, and a payment of a
 * closed charge is money no charge records (`chargeNotOpen`). A payment the
 * provider holds, whose callback never came and which no poll found yet, is
 * recorded on the way, as the callback would have.
 */
import { Effect, Option } from "effect"
import { writeOffBoleto } from "../boleto/BankBoleto.ts"
import { type Charge, ChargeNotCancelable, paymentTypeOf } from "../domain/Charge.ts"
import { Accounts } from "../ports/Accounts.ts"
import type { BoletoIssuerError, BoletoRefused } from "../ports/BoletoIssuer.ts"
import { PixProvider, type PixProviderError, type ReceivedPix } from "../ports/PixProvider.ts"
import { receivePix } from "../pix/ReceivePix.ts"
import { ProviderUnavailable } from "./CreatePixCharge.ts"

/**
 * What the provider answered: the charge no longer payable there, or paid
 * there. `recorded` says whether that payment now confirms the charge; it
 * does not when it cannot be taken (a boleto paid short, a Pix of another
 * amount, a PSP that lists none), which the reconciliation then shows.
 */
export type ProviderClosing =
  | { readonly _tag: "Closed" }
  | { readonly _tag: "Paid"; readonly recorded: boolean }

const closed: ProviderClosing = { _tag: "Closed" }

/** Whether the charge is payable at a provider the engine must ask before closing it: a Pix, or a boleto registered at a bank. */
export const closesAtProvider = (charge: Charge) =>
  charge.paymentType === paymentTypeOf.pix || (charge.paymentType === paymentTypeOf.boleto && charge.boleto !== null)

/** The Pix that paid `charge` at its PSP, recorded; whether it now confirms the charge (confirmed now, or already). */
const recordPaidAtPsp = Effect.fnUntraced(function*(charge: Charge, pix: ReadonlyArray<ReceivedPix>) {
  const outcomes = yield* receivePix(pix)
  if (outcomes.some((outcome) => outcome === "confirmed" || outcome === "duplicate")) return true
  yield* Effect.logWarning(`charge ${charge.id}: its PSP holds it paid (${outcomes.join(", ") || "no Pix listed"}); left to the reconciliation`)
  return false
})

/** The charge's Pix taken off sale at the PSP that holds it (`PixProvider.closeCharge`; the sandbox's answers closed). */
export const closePixAtPsp = Effect.fn("Charges.closePixAtPsp")(function*(charge: Charge) {
  const receiver = yield* (yield* Accounts).findById(charge.accountId)
  if (Option.isNone(receiver)) return closed
  const closing = yield* (yield* PixProvider).closeCharge({ receiver: receiver.value, psp: charge.psp, txid: charge.txid, dueDate: charge.dueDate })
  if (closing._tag === "Closed") return closed
  const paid: ProviderClosing = { _tag: "Paid", recorded: yield* recordPaidAtPsp(charge, closing.pix) }
  return paid
})

/** The charge's boleto written off at its bank (`writeOffBoleto`, which records a payment the bank answers). */
const writeOffAtBank = Effect.fnUntraced(function*(charge: Charge) {
  const answer = yield* writeOffBoleto(charge)
  if (answer._tag === "WrittenOff") return closed
  const paid: ProviderClosing = { _tag: "Paid", recorded: answer.outcome === "confirmed" || answer.outcome === "duplicate" }
  return paid
})

/** Takes `charge` off sale at its provider; a charge no provider holds (a card) is closed at once. */
export const closeAtProvider = Effect.fn("Charges.closeAtProvider")(function*(charge: Charge) {
  if (!closesAtProvider(charge)) return closed
  return charge.paymentType === paymentTypeOf.pix ? yield* closePixAtPsp(charge) : yield* writeOffAtBank(charge)
})

/** The provider's failures on a charge's closing, as the answer of a cancel (of the charge, or of its subscription). */
export const closingRefusal = (charge: Charge) => (error: PixProviderError | BoletoIssuerError | BoletoRefused) => {
  if (error._tag === "PixProviderError") {
    return new ProviderUnavailable({ message: "Provedor Pix indisponível", details: { provider: "pix", reason: error.message } })
  }
  return error._tag === "BoletoRefused"
    ? new ChargeNotCancelable({
      message: "O banco recusou a baixa do boleto; ele continua pagável",
      details: { status: charge.status, provider: "boleto", reason: error.message }
    })
    : new ProviderUnavailable({ message: "Emissor de boleto indisponível", details: { provider: "boleto", reason: error.message } })
}

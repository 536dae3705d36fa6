/**
 * A boleto charge as its bank knows it, and the two questions the engine
 * asks the bank about one: write it off (a charge canceled or expired) and
 * where it stands (a callback's notice, confirmed before it is trusted).
 * Both are asked outside any transaction: a bank may take seconds, and no
 * row stays locked while it does.
 */
import { Effect, Option } from "effect"
import type { Charge } from "../domain/Charge.ts"
import { Accounts } from "../ports/Accounts.ts"
import { BoletoIssuer, type BoletoRef } from "../ports/BoletoIssuer.ts"
import { receiveBoletoPayments, type ReceivedBoletoOutcome } from "./ReceiveBoleto.ts"

/** The charge's boleto as the bank registered it (none for a charge that is no boleto). */
export const boletoRefOf = Effect.fn("Boleto.refOf")(function*(charge: Charge) {
  const { boleto } = charge
  if (boleto === null) return Option.none<BoletoRef>()
  const receiver = yield* (yield* Accounts).findById(charge.accountId)
  return Option.map(receiver, (account): BoletoRef => ({ receiver: account, reference: charge.id, ourNumber: boleto.ourNumber, dueDate: boleto.dueDate }))
})

/**
 * What the bank did with a write-off: `WrittenOff` (no longer payable; also
 * a boleto the bank does not hold, which no one can pay), or `Paid`, the
 * payment then recorded as the poll would (`outcome`).
 */
export type WriteOffAnswer =
  | { readonly _tag: "WrittenOff" }
  | { readonly _tag: "Paid"; readonly outcome: ReceivedBoletoOutcome }

/**
 * Writes the charge's boleto off at its bank. A boleto the bank says was
 * paid is money that came: it is confirmed on the charge before the answer.
 * Fails when the bank cannot be asked (`BoletoIssuerError`) or refuses the
 * write-off (`BoletoRefused`): the boleto is still payable then.
 */
export const writeOffBoleto = Effect.fn("Boleto.writeOff")(function*(charge: Charge) {
  const writtenOff: WriteOffAnswer = { _tag: "WrittenOff" }
  const ref = yield* boletoRefOf(charge)
  if (Option.isNone(ref)) return writtenOff
  const answer = yield* (yield* BoletoIssuer).writeOff(ref.value).pipe(
    Effect.catchTag("BoletoNotFound", (missing) =>
      Effect.as(Effect.logWarning(`charge ${charge.id}: ${missing.message}; nothing to write off`), { _tag: "WrittenOff" } as const))
  )
  if (answer._tag !== "Paid") return writtenOff
  const [outcome] = yield* receiveBoletoPayments([{ ourNumber: ref.value.ourNumber, amount: answer.amount, paidOn: answer.paidOn }])
  const paid: WriteOffAnswer = { _tag: "Paid", outcome: outcome ?? "unknownOurNumber" }
  return paid
})

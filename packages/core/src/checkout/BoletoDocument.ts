import { Effect, Option } from "effect"
import { boletoPdf } from "../brazil/BoletoPdf.ts"
import { ChargeNotBoleto, ChargeNotFound } from "../domain/Charge.ts"
import { formatReais } from "../money/Money.ts"
import { Charges } from "../ports/Charges.ts"
import { Accounts } from "../ports/Accounts.ts"
import type { ChargeId } from "../domain/Ids.ts"

/**
 * `GET /v1/charges/{chargeId}/boleto.pdf`: the PDF of a boleto charge. Public
 * like the provider's (the buyer opens it from an e-mail or a page), so it is
 * addressed only by the charge id, which is random and unguessable.
 */
export const boletoDocument = Effect.fn("Checkout.boletoDocument")(function*(chargeId: ChargeId) {
  const charge = yield* (yield* Charges).findForDocument(chargeId)
  if (Option.isNone(charge)) return yield* new ChargeNotFound({ message: `Cobrança ${chargeId} não encontrada`, details: null })
  const { boleto, address, customer } = charge.value
  if (boleto === null) return yield* new ChargeNotBoleto({ message: "A cobrança não é um boleto", details: null })
  const payee = yield* (yield* Accounts).findById(charge.value.accountId)
  return boletoPdf({
    payeeName: Option.match(payee, { onNone: () => "", onSome: (a) => a.name }),
    payeeDocument: Option.match(payee, { onNone: () => "", onSome: (a) => a.document }),
    payerName: customer?.name ?? "",
    payerDocument: customer?.documentNumber ?? "",
    payerAddress: address === null ? "" : `${address.street}, ${address.number} - ${address.neighborhood} - ${address.city}/${address.state} - CEP ${address.zipCode}`,
    dueDate: boleto.dueDate,
    // A plain space: the PDF's standard font is set in WinAnsi text runs.
    amount: formatReais(charge.value.amount, " "),
    barcode: boleto.barcode,
    digitableLine: boleto.digitableLine,
    ourNumber: boleto.ourNumber,
    instructions: typeof boleto.instructions === "string" ? [boleto.instructions] : []
  })
})

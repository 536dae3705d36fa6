/**
 * A Pix as a PSP reports it (`Pix` of the BCB API: in a callback or in
 * `GET /pix`), as the engine receives it (`Billing.ReceivedPix`): the
 * engine's txid behind the PSP's, the amount in centavos, the settlement
 * instant. The standard says nothing of the payer but what its end-to-end
 * id carries (the payer's institution, characters 2 to 9); a Pix whose
 * txid is not one the engine made (a static QR, another system's charge) is
 * none of ours.
 */
import { type Billing, Money } from "@billing/core"
import { Option, Result } from "effect"
import type { PixReceived } from "../pix/PixApiSchemas.ts"
import { engineTxid } from "../pix/PspIdentifiers.ts"

/** The engine's view of `pix`, as the PSP named `psp` (its name in the providers file, when known) received it. */
export const receivedPixOf = (pix: PixReceived, psp?: string): Option.Option<Billing.ReceivedPix> => {
  if (pix.txid === undefined) return Option.none()
  const amount = Money.parseReais(pix.valor)
  const at = new Date(pix.horario)
  if (Result.isFailure(amount) || Number.isNaN(at.getTime())) return Option.none()
  return Option.map(engineTxid(pix.txid), (txid) => ({
    txid,
    endToEndId: pix.endToEndId,
    amount: amount.success,
    at,
    payer: { name: "", taxId: "", bank: pix.endToEndId.slice(1, 9), account: "", branch: "", accountType: "CACC" as const },
    ...(psp === undefined ? {} : { psp })
  }))
}

import { Effect, Layer, Result } from "effect"
import { makeBoleto } from "../brazil/Boleto.ts"
import { BoletoIssuer, BoletoIssuerError } from "../ports/BoletoIssuer.ts"

/** The bank code of sandbox boletos: no real bank uses it, every validator accepts its shape. */
export const SANDBOX_BANK_CODE = "999"

/**
 * Sandbox boletos: a FEBRABAN barcode and line for bank 999 whose free field
 * carries a 17-digit "nosso número" derived from the charge reference, so
 * the same charge always gets the same codes.
 */
export const BoletoIssuerSandbox = Layer.succeed(BoletoIssuer, {
  issue: (request) => {
    let hash = 0n
    for (const c of request.reference) hash = (hash * 131n + BigInt(c.charCodeAt(0))) % 10n ** 17n
    const ourNumber = hash.toString().padStart(17, "0")
    const made = makeBoleto({ bankCode: SANDBOX_BANK_CODE, dueDate: request.dueDate, amountCents: request.amount, freeField: `${ourNumber}00000000` })
    return Result.isSuccess(made)
      ? Effect.succeed({ bankCode: SANDBOX_BANK_CODE, ourNumber, barcode: made.success.barcode, digitableLine: made.success.digitableLine })
      : Effect.fail(new BoletoIssuerError({ message: made.failure.message }))
  }
})

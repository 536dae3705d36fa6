import { Effect, Layer, Result } from "effect"
import { buildBrCode } from "../brazil/PixBrCode.ts"
import { PixProvider, PixProviderError } from "../ports/PixProvider.ts"

/** ISPB of the fictional bank of the sandbox (its payers and its Pix Automático recurrences). */
export const SANDBOX_ISPB = "99999999"

/**
 * Sandbox Pix: a static BR Code with the account's Pix key, name and city,
 * the charge amount and its txid. Valid for any bank app's parser; it moves
 * no money (payment is simulated by `POST /v1/wallet/pay/{chargeId}`).
 */
export const PixProviderSandbox = Layer.succeed(PixProvider, {
  /**
   * Pix Automático: a composite dynamic code whose payload and recurrence
   * locations are on a sandbox host, and an `idRec` in the BCB's layout: `RR`,
   * the receiver's ISPB (the sandbox bank's), the date, 11 characters.
   */
  createRecurrence: (input) => {
    const date = input.expiresAt.toISOString().slice(0, 10).replaceAll("-", "")
    const recurrencyId = `RR${SANDBOX_ISPB}${date}${input.txid.slice(0, 11).toUpperCase().padEnd(11, "0")}`
    const built = buildBrCode({
      kind: "dynamic",
      location: `pix.sandbox.billing.dev/cob/${input.txid}`,
      recurrenceLocation: `pix.sandbox.billing.dev/rec/${recurrencyId}`,
      merchantName: input.receiver.name,
      merchantCity: input.receiver.city
    })
    return Result.isSuccess(built)
      ? Effect.succeed({ emv: built.success, recurrencyId })
      : Effect.fail(new PixProviderError({ message: `${built.failure.field}: ${built.failure.message}` }))
  },
  createCharge: (input) => {
    const built = buildBrCode({
      kind: "static",
      key: input.receiver.pixKey ?? input.receiver.document,
      amountCents: input.amount,
      merchantName: input.receiver.name,
      merchantCity: input.receiver.city,
      txid: input.txid
    })
    return Result.isSuccess(built)
      ? Effect.succeed({ emv: built.success })
      : Effect.fail(new PixProviderError({ message: `${built.failure.field}: ${built.failure.message}` }))
  }
})

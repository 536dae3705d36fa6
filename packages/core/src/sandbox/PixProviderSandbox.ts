import { Effect, Layer, Result } from "effect"
import { buildBrCode } from "../brazil/PixBrCode.ts"
import { PixProvider, PixProviderError } from "../ports/PixProvider.ts"

/** ISPB of the fictional bank of the sandbox (its payers and its Pix Automático recurrences). */
export const SANDBOX_ISPB = "99999999"

/** An `idRec` in the BCB's layout: `RR`, the sandbox bank's ISPB, the date, 11 letters and digits of `reference`. */
const sandboxRecurrencyId = (at: Date, reference: string) =>
  `RR${SANDBOX_ISPB}${at.toISOString().slice(0, 10).replaceAll("-", "")}${reference.replace(/[^0-9a-z]/gi, "").slice(-11).toUpperCase().padStart(11, "0")}`

const codeOf = (recurrencyId: string, built: ReturnType<typeof buildBrCode>) =>
  Result.isSuccess(built)
    ? Effect.succeed({ emv: built.success, recurrencyId })
    : Effect.fail(new PixProviderError({ message: `${built.failure.field}: ${built.failure.message}` }))

/**
 * Sandbox Pix: a static BR Code with the account's Pix key, name and city,
 * the charge amount and its txid. Valid for any bank app's parser; it moves
 * no money (payment is simulated by `POST /v1/wallet/pay/{chargeId}`).
 */
export const PixProviderSandbox = Layer.succeed(PixProvider, {
  /** Pix Automático with a first charge: a composite dynamic code whose payload and recurrence locations are on a sandbox host. */
  createRecurrence: (input) => {
    const recurrencyId = sandboxRecurrencyId(input.expiresAt, input.txid)
    return codeOf(recurrencyId, buildBrCode({
      kind: "dynamic",
      location: `pix.sandbox.billing.dev/cob/${input.txid}`,
      recurrenceLocation: `pix.sandbox.billing.dev/rec/${recurrencyId}`,
      merchantName: input.receiver.name,
      merchantCity: input.receiver.city
    }))
  },
  requestRecurrence: (input) => {
    const recurrencyId = sandboxRecurrencyId(input.at, input.reference)
    return codeOf(recurrencyId, buildBrCode({
      kind: "recurrence",
      recurrenceLocation: `pix.sandbox.billing.dev/rec/${recurrencyId}`,
      merchantName: input.receiver.name,
      merchantCity: input.receiver.city
    }))
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

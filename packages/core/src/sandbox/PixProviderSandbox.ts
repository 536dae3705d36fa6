import { Effect, Layer, Result } from "effect"
import { buildBrCode } from "../brazil/PixBrCode.ts"
import { PixProvider, PixProviderError } from "../ports/PixProvider.ts"

/**
 * Sandbox Pix: a static BR Code with the account's Pix key, name and city,
 * the charge amount and its txid. Valid for any bank app's parser; it moves
 * no money (payment is simulated by `POST /v1/wallet/pay/{chargeId}`).
 */
export const PixProviderSandbox = Layer.succeed(PixProvider, {
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

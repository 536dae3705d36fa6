/**
 * At start, the providers file's boleto bank is told where to send its
 * callbacks (Inter: `PUT /cobranca/v3/cobrancas/webhook` with the URL of
 * `BoletoCallback`). A bank that cannot be reached or refuses (Inter takes
 * only an `https://` URL) is logged and skipped: the server starts anyway,
 * and the boleto poll confirms its payments meanwhile.
 */
import { Effect } from "effect"
import { makeInterCobrancas } from "../boleto/InterCobrancas.ts"
import type { InterHttpOptions } from "../boleto/InterHttp.ts"
import { Providers } from "../Providers.ts"
import { boletoCallbackSecret, boletoCallbackUrl } from "./BoletoCallback.ts"

export interface BoletoCallbackRegistration {
  readonly registered: boolean
  /** Why it was not, in the bank's words. */
  readonly problem: string | null
}

/** Registers the boleto bank's callback; `undefined` when the file names no bank. */
export const registerBoletoCallback = Effect.fn("BoletoCallback.register")(function*(options: InterHttpOptions = {}) {
  const providers = yield* Providers
  const bank = providers.boleto
  if (bank === undefined) return undefined
  return yield* Effect.gen(function*() {
    const url = boletoCallbackUrl(providers.publicUrl, yield* boletoCallbackSecret)
    yield* (yield* makeInterCobrancas(bank, options)).registerWebhook(url)
  }).pipe(
    Effect.scoped,
    Effect.matchEffect({
      onSuccess: () => Effect.as(Effect.logInfo("boleto bank: callbacks registered"), { registered: true, problem: null }),
      onFailure: (error): Effect.Effect<BoletoCallbackRegistration> =>
        Effect.as(Effect.logWarning(`boleto bank: callbacks not registered (${error.message}); its payments are confirmed by the boleto poll`), {
          registered: false,
          problem: error.message
        })
    })
  )
})

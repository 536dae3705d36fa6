/**
 * At start, each PSP of the providers file is told where to send its
 * callbacks (`PUT /webhook/{chave}` with the callback URL of `PixCallback`).
 * A PSP that cannot be reached or refuses is logged and skipped: the server
 * starts anyway, and the reconciliation poll confirms its Pix meanwhile.
 */
import { Effect } from "effect"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import { makePixApiClient } from "../pix/PixApiClient.ts"
import type { PspHttpOptions } from "../pix/PspHttp.ts"
import { Providers } from "../Providers.ts"
import { callbackSecret, callbackUrl } from "./PixCallback.ts"

export interface CallbackRegistration {
  readonly psp: string
  readonly registered: boolean
  /** Why it was not, in the PSP's words. */
  readonly problem: string | null
}

const registerOne = (publicUrl: string, options: PspHttpOptions) => (psp: PixPsp) =>
  Effect.gen(function*() {
    const url = callbackUrl(publicUrl, psp.name, yield* callbackSecret(psp.name))
    yield* (yield* makePixApiClient(psp, options)).registerWebhook(url)
  }).pipe(
    Effect.scoped,
    Effect.matchEffect({
      onSuccess: () =>
        Effect.as(Effect.logInfo(`PSP ${psp.name}: callbacks registered for key ${psp.pixKey.value}`), { psp: psp.name, registered: true, problem: null }),
      onFailure: (error): Effect.Effect<CallbackRegistration> =>
        Effect.as(Effect.logWarning(`PSP ${psp.name}: callbacks not registered (${error.message}); its Pix are confirmed by the reconciliation poll`), {
          psp: psp.name,
          registered: false,
          problem: error.message
        })
    })
  )

/** Registers the callbacks of every PSP; one outcome per PSP, in the file's order. */
export const registerCallbacks = Effect.fn("PixCallback.register")(function*(options: PspHttpOptions = {}) {
  const providers = yield* Providers
  return yield* Effect.forEach(providers.pix, registerOne(providers.publicUrl, options))
})

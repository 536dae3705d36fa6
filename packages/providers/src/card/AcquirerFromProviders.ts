/**
 * The `Acquirer` of the providers file: Mercado Pago when the file has a
 * `card` entry; without one, the sandbox's, as before the entry existed.
 * It serves every account alike: the port's requests do not say whose they
 * are, so sandbox accounts need the port to carry the environment (and an
 * `Acquirer.byEnvironment`, as `PixProvider` has) before this is wired for
 * an engine that serves both.
 */
import { Acquirer, AcquirerSandbox } from "@billing/core"
import { Effect, Layer } from "effect"
import { Providers } from "../Providers.ts"
import { makeMercadoPagoAcquirer } from "./MercadoPagoAcquirer.ts"

export const AcquirerFromProviders = Layer.unwrap(Effect.gen(function*() {
  const { card } = yield* Providers
  return card === undefined ? AcquirerSandbox : Layer.succeed(Acquirer, makeMercadoPagoAcquirer(card))
}))

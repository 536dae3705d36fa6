/**
 * The `Acquirer` of an engine: sandbox accounts always on the sandbox's card
 * table; production accounts on Mercado Pago when the providers file has a
 * `card` entry (`Acquirer.byEnvironment`), so one engine serves both and a
 * sandbox account's card never reaches Mercado Pago. Without the entry,
 * production accounts' cards are refused by the provider gate before any
 * acquirer is asked.
 */
import { Acquirer, AcquirerSandbox } from "@billing/core"
import { Context, Effect, Layer } from "effect"
import type { CardAcquirerConfig } from "../config/ProvidersConfig.ts"
import { Providers } from "../Providers.ts"
import { makeMercadoPagoAcquirer } from "./MercadoPagoAcquirer.ts"
import type { MercadoPagoHttpOptions } from "./MercadoPagoHttp.ts"

/** The acquirer for the file's `card` entry (none: the sandbox alone). */
export const acquirerFor = (card: CardAcquirerConfig | undefined, options: MercadoPagoHttpOptions = {}): Layer.Layer<Acquirer> =>
  card === undefined
    ? AcquirerSandbox
    : Layer.effect(
      Acquirer,
      Effect.map(Layer.build(AcquirerSandbox), (built) => Acquirer.byEnvironment(Context.get(built, Acquirer), makeMercadoPagoAcquirer(card, options)))
    )

/** `acquirerFor` the loaded providers file. */
export const AcquirerFromProviders = Layer.unwrap(Effect.map(Providers, ({ card }) => acquirerFor(card)))

/**
 * The boleto issuer of the providers file: sandbox accounts' boletos on the
 * sandbox bank, production accounts' on the file's bank (Banco Inter) when
 * it has a `boleto` entry; without one, only the sandbox exists (the
 * `ProviderGate` refuses a production account's boleto).
 */
import { BoletoIssuer, BoletoIssuerSandbox, type SandboxBoletoBank } from "@billing/core"
import { Context, Effect, Layer } from "effect"
import type { ProvidersConfig } from "../config/ProvidersConfig.ts"
import { type InterBoletoOptions, makeInterBoletoIssuer } from "./InterBoletoIssuer.ts"

export const BoletoIssuerFromProviders = (
  providers: ProvidersConfig | undefined,
  options: InterBoletoOptions = {}
): Layer.Layer<BoletoIssuer | SandboxBoletoBank> => {
  const bank = providers?.boleto
  if (bank === undefined) return BoletoIssuerSandbox
  return Layer.effect(
    BoletoIssuer,
    Effect.gen(function*() {
      const sandbox = Context.get(yield* Layer.build(BoletoIssuerSandbox), BoletoIssuer)
      return BoletoIssuer.byEnvironment(sandbox, yield* makeInterBoletoIssuer(bank, options))
    })
  ).pipe(Layer.provideMerge(BoletoIssuerSandbox))
}

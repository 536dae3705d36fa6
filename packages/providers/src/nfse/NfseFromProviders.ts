/**
 * The city of the providers file: sandbox accounts' notes on the sandbox
 * city, production accounts' on the national system when the file has an
 * `nfse` entry; without one, production accounts have no city (the
 * `ProviderGate` refuses their notes with `PROVIDER_NOT_CONFIGURED`).
 */
import { NfseCitySandbox, NfseProvider, sandboxCity } from "@billing/core"
import { Layer } from "effect"
import type { NfseCityConfig, ProvidersConfig } from "../config/ProvidersConfig.ts"
import { makeSefinNacional } from "./SefinNacional.ts"

/** The national system as the file configures it; `cNBS` from each issuer configuration. */
export const sefinOf = (city: NfseCityConfig): NfseProvider["Service"] =>
  makeSefinNacional({
    baseUrl: city.baseUrl,
    danfseUrl: city.danfseUrl,
    parametersUrl: city.parametersUrl,
    ambiente: city.ambiente,
    signatureAlgorithm: city.signatureAlgorithm,
    codigoNbs: (settings) => settings.codigo_nbs ?? null,
    requestTimeout: city.timeoutMillis,
    ...(city.ca === undefined ? {} : { ca: city.ca })
  })

export const NfseProviderFromProviders = (providers: ProvidersConfig | undefined): Layer.Layer<NfseProvider> =>
  providers?.nfse === undefined
    ? NfseCitySandbox
    : Layer.succeed(NfseProvider, NfseProvider.byEnvironment(sandboxCity, sefinOf(providers.nfse)))

/**
 * Loading the providers file: read, decode against `ProvidersFile`, resolve
 * secrets, read certificates. Every failure is one `ProvidersFileInvalid`
 * line naming the path of the first problem, so `serve`, `worker`, `run` and
 * `providers check` stop with the same words.
 */
import { Effect, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { dirname, resolve } from "node:path"
import { readConfigFile } from "./ConfigFiles.ts"
import { firstProblem } from "./ConfigIssue.ts"
import type { PixPspEntry } from "./PixPspEntry.ts"
import { resolveBoletoEntry } from "./BoletoEntry.ts"
import { type CardEntry, MERCADO_PAGO_API } from "./CardEntry.ts"
import {
  DANFSE_HOMOLOGATION,
  DANFSE_PRODUCTION,
  PARAMETERS_HOMOLOGATION,
  PARAMETERS_PRODUCTION,
  SEFIN_HOMOLOGATION,
  SEFIN_PRODUCTION
} from "../nfse/SefinNacional.ts"
import type { NfseEntry } from "./NfseEntry.ts"
import type { CardAcquirerConfig, NfseCityConfig, PixPsp, ProvidersConfig } from "./ProvidersConfig.ts"
import { ProvidersFile } from "./ProvidersFile.ts"
import { invalidAt, ProvidersFileInvalid } from "./ProvidersFileInvalid.ts"
import { type ResolveContext, resolveSecret } from "./Secret.ts"
import { readClientCertificate } from "./TlsFiles.ts"

/** Decodes a providers file's JSON value: unknown keys refused, the first problem reported. */
export const decodeProvidersFile = (input: unknown) =>
  Schema.decodeUnknownEffect(ProvidersFile)(input, { onExcessProperty: "error", errors: "first" }).pipe(
    Effect.mapError((error) => firstProblem(error.issue))
  )

const readText = (file: string, path: ReadonlyArray<PropertyKey>, baseDir: string) => readConfigFile(file, path, baseDir, (absolute) => readFile(absolute, "utf8"))

const resolvePsp = Effect.fnUntraced(function*(entry: PixPspEntry, index: number, context: ResolveContext) {
  const clientSecret = entry.clientSecret === undefined ? undefined : yield* resolveSecret(entry.clientSecret, ["pix", index, "clientSecret"], context)
  const { ca, certificate } = yield* readClientCertificate(entry.tls, ["pix", index, "tls"], context)
  return {
    name: entry.name,
    profile: entry.profile,
    baseUrl: entry.baseUrl,
    tokenUrl: entry.tokenUrl,
    clientId: entry.clientId,
    clientSecret,
    pixKey: entry.pixKey,
    certificate,
    ca,
    scopes: entry.scopes ?? [],
    appKey: entry.appKey
  } satisfies PixPsp
})

const resolveCard = Effect.fnUntraced(function*(entry: CardEntry, context: ResolveContext) {
  const accessToken = yield* resolveSecret(entry.accessToken, ["card", "accessToken"], context)
  return { provider: entry.provider, accessToken, publicKey: entry.publicKey, baseUrl: entry.baseUrl ?? MERCADO_PAGO_API } satisfies CardAcquirerConfig
})

const resolveNfse = Effect.fnUntraced(function*(entry: NfseEntry, context: ResolveContext) {
  const production = entry.ambiente === "producao"
  const ca = entry.ca === undefined ? undefined : yield* readText(entry.ca, ["nfse", "ca"], context.baseDir)
  if (ca !== undefined && !ca.includes("-----BEGIN CERTIFICATE-----")) return yield* invalidAt(["nfse", "ca"], "not a PEM certificate")
  return {
    provider: entry.provider,
    ambiente: production ? 1 : 2,
    signatureAlgorithm: entry.signatureAlgorithm ?? "RSA-SHA256",
    baseUrl: entry.baseUrl ?? (production ? SEFIN_PRODUCTION : SEFIN_HOMOLOGATION),
    danfseUrl: entry.danfseUrl ?? (production ? DANFSE_PRODUCTION : DANFSE_HOMOLOGATION),
    parametersUrl: entry.parametersUrl ?? (production ? PARAMETERS_PRODUCTION : PARAMETERS_HOMOLOGATION),
    timeoutMillis: (entry.timeoutSeconds ?? 10) * 1000,
    ca
  } satisfies NfseCityConfig
})

/**
 * A providers configuration given as a value (the library's
 * `BillingLive({ providers })`, or a parsed file): relative paths start at
 * `baseDir` (the file's folder; the working directory for a value) and
 * secrets named by `env` come from `env`.
 */
export const resolveProviders = Effect.fn("Providers.resolve")(function*(
  input: unknown,
  options: { readonly baseDir?: string | undefined; readonly env?: Readonly<Record<string, string | undefined>> | undefined } = {}
) {
  const decoded = yield* decodeProvidersFile(input)
  const context: ResolveContext = { baseDir: resolve(options.baseDir ?? "."), env: options.env ?? process.env }
  const pix = yield* Effect.forEach(decoded.pix, (entry, index) => resolvePsp(entry, index, context))
  const card = decoded.card === undefined ? undefined : yield* resolveCard(decoded.card, context)
  const boleto = decoded.boleto === undefined ? undefined : yield* resolveBoletoEntry(decoded.boleto, context)
  const nfse = decoded.nfse === undefined ? undefined : yield* resolveNfse(decoded.nfse, context)
  return { publicUrl: decoded.publicUrl, pix, card, boleto, nfse } satisfies ProvidersConfig
})

/** Reads and loads the providers file at `file` (`BILLING_PROVIDERS_FILE`). */
export const loadProvidersFile = Effect.fn("Providers.loadFile")(function*(
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env
) {
  const text = yield* Effect.tryPromise({
    try: () => readFile(file, "utf8"),
    catch: (error) =>
      new ProvidersFileInvalid({
        message: `providers file ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : "cannot be read"}`
      })
  })
  const json = yield* Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: (error) => new ProvidersFileInvalid({ message: `providers file ${file}: not valid JSON (${(error as Error).message})` })
  })
  return yield* resolveProviders(json, { baseDir: dirname(resolve(file)), env }).pipe(
    // The file named too: an operator with several installations knows which one to open.
    Effect.mapError((error) => new ProvidersFileInvalid({ message: `providers file ${file}: ${error.message}` }))
  )
})

/**
 * The composition root: which database, which providers. The only place where
 * all packages meet (DESIGN: arrows point `cli -> {adapters-*, worker} -> core`).
 */
import { Database, StorageLive } from "@billing/adapters-postgres"
import { WebhookTransportHttp } from "@billing/adapters-http"
import {
  Ids,
  KycSandbox,
  MailerSandbox,
  PixProvider,
  PixProviderSandbox,
  ProviderGate,
  SigningKey
} from "@billing/core"
import {
  BoletoIssuerFromProviders,
  type InterBoletoOptions,
  makePixProviderFailover,
  NfseProviderFromProviders,
  Providers,
  type ProvidersConfig,
  PspClients,
  type PspHttpOptions,
  ReconcileBoletoJob,
  ReconcilePixJob
} from "@billing/providers"
import { acquirerFor } from "@billing/providers/card/AcquirerFromProviders"
import type { MercadoPagoHttpOptions } from "@billing/providers/card/MercadoPagoHttp"
import { forkJobs } from "@billing/worker"
import { Context, Effect, Layer } from "effect"
import { SecretKeyLive } from "./SecretKeyLive.ts"
import { otelVariables, type OtelVariables, TracingFromEnv } from "./Tracing.ts"

export interface EngineConfig {
  /** PostgreSQL server URL; when absent, embedded PGlite in `dataDir`. */
  readonly databaseUrl?: string | undefined
  /** PGlite data folder; `memory://` (the default) keeps nothing. */
  readonly dataDir?: string | undefined
  /** Connections this process keeps to a PostgreSQL server (default 20). */
  readonly poolSize?: number | undefined
  /**
   * The installation's secret key (32 bytes, base64 or hex) sealing the JWT
   * signing key at rest. Required with `databaseUrl`; on PGlite it defaults
   * to a `secret.key` file generated in `dataDir`.
   */
  readonly secretKey?: string | undefined
  /** How this process opens an embedded data folder that another process may have open (see `Database.pglite`). */
  readonly pglite?: Database.PgliteOptions | undefined
  /** The `OTEL_*` variables: with an endpoint among them, spans are exported over OTLP (`Tracing.ts`). */
  readonly otel?: OtelVariables | undefined
}

/** The configuration of the `billing` commands, from `DATABASE_URL`, `BILLING_DATA_DIR`, `BILLING_DB_POOL` and `OTEL_*`. */
export const configFromEnv = (env: NodeJS.ProcessEnv = process.env, pglite?: Database.PgliteOptions): EngineConfig => ({
  databaseUrl: env.DATABASE_URL || undefined,
  dataDir: env.BILLING_DATA_DIR || ".data/pglite",
  poolSize: env.BILLING_DB_POOL ? Number(env.BILLING_DB_POOL) : undefined,
  secretKey: env.BILLING_SECRET_KEY || undefined,
  pglite,
  otel: otelVariables(env)
})

export const describeDatabase = (config: EngineConfig) =>
  config.databaseUrl ? `PostgreSQL (${config.databaseUrl.replace(/\/\/[^@/]*@/, "//***@")})` : `embedded PGlite (${config.dataDir ?? "memory://"})`

export const DatabaseLive = (config: EngineConfig) =>
  config.databaseUrl
    ? Database.postgres(config.databaseUrl, config.poolSize === undefined ? undefined : { maxConnections: config.poolSize })
    : Database.pglite(config.dataDir, config.pglite)

/** Sandbox accounts on the sandbox Pix provider, production accounts on the PSPs of the providers file (in order, failing over). */
const PixProviderWithPsps = Layer.effect(
  PixProvider,
  Effect.gen(function*() {
    const sandbox = Context.get(yield* Layer.build(PixProviderSandbox), PixProvider)
    return PixProvider.byEnvironment(sandbox, yield* makePixProviderFailover(yield* PspClients))
  })
)

/**
 * How long a PSP call may take before the next PSP is tried: a merchant's
 * request waits for it (a silent PSP with the client's defaults, 20 s and
 * three retries, would hold a charge over a minute). Worker jobs share the
 * clients and retry on their next tick.
 */
const PSP_CALLS: PspHttpOptions = { requestTimeout: "5 seconds", retries: 1 }

const hasPsps = (providers: ProvidersConfig | undefined): providers is ProvidersConfig => providers !== undefined && providers.pix.length > 0

/**
 * How long a card authorization may wait for Mercado Pago before its outcome
 * counts as unknown: the merchant's request waits for it and its one retry.
 * Cutting the wait short never charges twice: an unknown outcome is asked
 * about again under the same idempotency key.
 */
const CARD_CALLS: MercadoPagoHttpOptions = { requestTimeout: "8 seconds", retries: 1 }

/**
 * How long a boleto registration may wait for the bank: the merchant's
 * request waits for it. Inter registers asynchronously, so the registration
 * is read again up to ten times, a second apart (the adapter's defaults); a
 * registration cut short is found again by its reference, never made twice.
 */
const BOLETO_CALLS: InterBoletoOptions = { requestTimeout: "8 seconds", retries: 1 }

/**
 * The Pix provider and the gate of production accounts: with PSPs in the
 * providers file, production accounts take Pix through them (`Providers` and
 * `PspClients` tell the callback route and the reconciliation poll which;
 * with none, they have nothing to do); without, only the sandbox exists.
 */
const PixLayers = (providers: ProvidersConfig | undefined) =>
  (hasPsps(providers) ? PixProviderWithPsps : PixProviderSandbox).pipe(
      Layer.provideMerge(PspClients.layerWith(PSP_CALLS)),
      // The whole file, whatever it names: the boleto bank's callback and poll read their entry from it too.
      Layer.provideMerge(providers === undefined ? Providers.none : Layer.succeed(Providers, providers))
    )

/**
 * The gate of production accounts: the providers the file configures (Pix
 * with PSPs, cards with a `card` acquirer, boletos with a `boleto` bank,
 * NFS-e with a city); any other is refused with `PROVIDER_NOT_CONFIGURED`.
 */
const GateLive = (providers: ProvidersConfig | undefined) =>
  ProviderGate.layer([
    ...(hasPsps(providers) ? ["pix" as const] : []),
    ...(providers?.card === undefined ? [] : ["card" as const]),
    ...(providers?.boleto === undefined ? [] : ["boleto" as const]),
    ...(providers?.nfse === undefined ? [] : ["nfse" as const])
  ])

/** The worker's jobs of the providers: the reconciliation poll of the PSPs, when there are some, and the boleto bank's poll, when there is one. */
export const ProviderJobsLive = (providers: ProvidersConfig | undefined) =>
  Layer.effectDiscard(Effect.andThen(
    hasPsps(providers) ? forkJobs([ReconcilePixJob]) : Effect.void,
    providers?.boleto === undefined ? Effect.void : forkJobs([ReconcileBoletoJob])
  ))

/**
 * Every service the use cases need, on a migrated database. Production and
 * sandbox share it: the provider layers are the only difference (`providers`,
 * the loaded providers file: see `PixLayers`).
 */
export const EngineLive = (
  config: EngineConfig,
  options: { readonly migrate?: boolean; readonly providers?: ProvidersConfig | undefined } = {}
) =>
  Layer.mergeAll(
    SigningKey.layer,
    WebhookTransportHttp,
    PixLayers(options.providers),
    GateLive(options.providers),
    NfseProviderFromProviders(options.providers),
    // Sandbox accounts on the sandbox's card table; production accounts on the file's acquirer.
    acquirerFor(options.providers?.card, CARD_CALLS),
    // Sandbox accounts on the sandbox bank; production accounts on the file's bank.
    BoletoIssuerFromProviders(options.providers, BOLETO_CALLS),
    MailerSandbox,
    KycSandbox
  ).pipe(
    Layer.provideMerge(Layer.mergeAll(StorageLive, Ids.layer)),
    // `migrate: false` for processes whose parent already migrated (the HTTP processes of `serve --processes`).
    Layer.provideMerge(options.migrate === false ? Layer.empty : Database.MigrationsLive),
    Layer.provideMerge(DatabaseLive(config)),
    // A missing key refuses to start before any connection is opened.
    Layer.provideMerge(SecretKeyLive(config)),
    // Last, so it is built first and closed last: every layer above is traced, and the spans of the
    // last requests are exported once they are answered.
    Layer.provideMerge(TracingFromEnv(config.otel))
  )

/**
 * Starts the real engine for end-to-end tests: migrations on a fresh
 * database (a new PostgreSQL database per suite, or an in-memory PGlite),
 * the HTTP server on a free port, and helpers to open accounts and get tokens.
 */
import { HttpServerLive } from "@billing/adapters-http"
import { PixCallbackLive, type ProvidersConfig } from "@billing/providers"
import { Billing, ProviderGate, type ProviderKind } from "@billing/core"
import { Clock, Effect, Layer, ManagedRuntime, References } from "effect"
import { HttpServer } from "effect/http"
import type { IpNetwork } from "effect/net"
import { DatabaseLive, EngineLive } from "../../packages/cli/src/Engine.ts"
import pg from "./pg.ts"

export type DatabaseKind = "postgres" | "pglite"

export const databaseKinds: ReadonlyArray<DatabaseKind> = ["postgres", "pglite"]

const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** A fresh, empty PostgreSQL database; dropped by the returned function. */
export const freshPostgresDatabase = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
  const name = `billing_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  await pg(adminUrl, `CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => pg(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}

/**
 * The secret key of test installations (a PostgreSQL server requires one).
 * `vitest.config.ts` sets the same as `BILLING_SECRET_KEY` for the `billing`
 * processes the CLI tests spawn.
 */
export const TEST_SECRET_KEY = process.env.BILLING_SECRET_KEY ?? "dGVzdC1vbmx5LXNlY3JldC1rZXktMzItYnl0ZXMhISE="

export const engineConfig = async (kind: DatabaseKind) => {
  if (kind === "pglite") return { config: { dataDir: "memory://", secretKey: TEST_SECRET_KEY }, drop: async () => {} }
  const db = await freshPostgresDatabase()
  return { config: { databaseUrl: db.url, secretKey: TEST_SECRET_KEY }, drop: db.drop }
}

export interface TestEngine {
  readonly baseUrl: string
  /** What the engine was started with, for a second engine on the same database. */
  readonly config: Parameters<typeof EngineLive>[0]
  readonly runtime: ManagedRuntime.ManagedRuntime<any, any>
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  readonly createAccount: (input?: Partial<Parameters<typeof Billing.createAccount>[0]>) => Promise<Billing.CreatedAccount>
  readonly token: (account: Billing.CreatedAccount, scope?: string) => Promise<string>
  readonly dispose: () => Promise<void>
}

let documentSeq = 0
// Valid CNPJs for test accounts (check digits hand-verified).
const documents = ["11444777000161", "11222333000181", "45723174000110", "07526557000100"]

/** The next test account's CNPJ, taken in turn from a few valid ones. */
export const nextTestDocument = (): string => documents[documentSeq++ % documents.length]!

/** The address of the HTTP server a runtime started, as a base URL for `fetch`. */
export const serverBaseUrl = async (runtime: ManagedRuntime.ManagedRuntime<any, any>): Promise<string> => {
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP server")
  return `http://127.0.0.1:${address.port}`
}

export interface EngineOptions {
  /**
   * Loggers and log level of the engine (HTTP requests, `run`). By default
   * only warnings and errors reach the console: one line per request would
   * drown the test report.
   */
  readonly logging?: Layer.Layer<never>
  /** Networks of the reverse proxies the server trusts (`HttpServerLive`); none by default. */
  readonly trustedProxies?: ReadonlyArray<IpNetwork.IpNetwork>
  /** The clock of the whole engine (for example `offsetClock()` to start on a chosen day); the real one by default. */
  readonly clock?: Clock.Clock
  /** Start on the database of this engine (migrated already; dropped by its own `dispose`), as a second process would. */
  readonly sameDatabaseAs?: TestEngine
  /**
   * The providers production accounts may use here, as if configured: the
   * sandbox layers stand in for them (none by default, as in `billing serve`
   * until the providers file names some).
   */
  readonly productionProviders?: ReadonlyArray<ProviderKind>
  /** A loaded providers file (PSPs): production accounts take Pix through them, and the server takes their callbacks. */
  readonly providers?: ProvidersConfig
  /** `/metrics` only for this bearer token (`BILLING_METRICS_TOKEN` of `serve`). */
  readonly metricsToken?: string
  /** How long one reading of the backlogs serves `/metrics`; 0 by default here, so each scrape sees the database as it is. */
  readonly backlogReadingMillis?: number
}

export const startEngine = async (kind: DatabaseKind, options: EngineOptions = {}): Promise<TestEngine> => {
  const { config, drop } = options.sameDatabaseAs === undefined
    ? await engineConfig(kind)
    : { config: options.sameDatabaseAs.config, drop: async () => {} }
  const logging = options.logging ?? Layer.succeed(References.MinimumLogLevel, "Warn")
  // Merged after the engine, the stand-in gate replaces the engine's own.
  const engine = options.productionProviders === undefined
    ? EngineLive(config, { providers: options.providers })
    : Layer.merge(EngineLive(config), ProviderGate.layer(options.productionProviders))
  const server = HttpServerLive({ port: 0, host: "127.0.0.1", trustedProxies: options.trustedProxies, metricsToken: options.metricsToken, backlogReadingMillis: options.backlogReadingMillis ?? 0, routes: PixCallbackLive }).pipe(
    Layer.provideMerge(engine),
    Layer.provideMerge(logging)
  )
  const layer = options.clock === undefined ? server : server.pipe(Layer.provideMerge(Layer.succeed(Clock.Clock, options.clock)))
  const runtime = ManagedRuntime.make(layer)
  const baseUrl = await serverBaseUrl(runtime)
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect as Effect.Effect<A, E, never>)
  return {
    baseUrl,
    config,
    runtime,
    run,
    createAccount: (input) =>
      run(Billing.createAccount({
        name: "Loja Teste",
        document: nextTestDocument(),
        sandbox: true,
        ...input
      })),
    token: async (account, scope) => {
      const body = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: account.clientId,
        client_secret: account.clientSecret,
        ...(scope === undefined ? {} : { scope })
      })
      const response = await fetch(`${baseUrl}/auth/token`, { method: "POST", body })
      if (response.status !== 200) throw new Error(`token: HTTP ${response.status} ${await response.text()}`)
      return ((await response.json()) as { access_token: string }).access_token
    },
    dispose: async () => {
      await runtime.dispose()
      await drop()
    }
  }
}

/** A second process-like engine on the same database, without HTTP: for racing workers. */
export const workerRuntime = (config: Parameters<typeof EngineLive>[0]) => ManagedRuntime.make(EngineLive(config))

export { DatabaseLive }

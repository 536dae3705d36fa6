/**
 * `@billing/cli` as a library: the whole engine as one layer, for a Node
 * service that embeds it.
 *
 * ```ts
 * import { BillingLive } from "@billing/cli"
 * import { Billing, cents } from "@billing/core"
 *
 * const program = Effect.gen(function*() {
 *   const { accountId } = yield* Billing.createAccount({ name: "Minha Loja", document: "11444777000161", sandbox: true })
 *   return yield* Billing.createPixCharge({ amount: cents(1990) }).pipe(Billing.asAccount(accountId))
 * })
 * Effect.runPromise(program.pipe(Effect.provide(BillingLive())))
 * ```
 */
import { type ProvidersFileInput, resolveProviders } from "@billing/providers"
import { WorkerLive } from "@billing/worker"
import { Effect, Layer } from "effect"
import { EngineLive } from "./Engine.ts"

export { configFromEnv, DatabaseLive, type EngineConfig, EngineLive } from "./Engine.ts"

/** Where `BillingLive` keeps its data, and whether it runs the scheduler. */
export interface BillingOptions {
  /** A PostgreSQL server; takes precedence over `dataDir`. */
  readonly databaseUrl?: string | undefined
  /**
   * An embedded PGlite data folder. When `billing serve` runs on it, the
   * engine connects to that server instead of opening the files; otherwise it
   * takes the folder for as long as the layer lives.
   */
  readonly dataDir?: string | undefined
  /**
   * The installation's secret key (32 bytes, base64 or hex) sealing the token
   * signing key: required with `databaseUrl`; generated into `dataDir` (or
   * kept in memory) when absent on PGlite.
   */
  readonly secretKey?: string | undefined
  /**
   * Also run the scheduler loops (webhook delivery, sandbox payment
   * confirmation, expiry, notices) in this process. Off by default: a
   * library starts no background work unasked.
   */
  readonly worker?: boolean | undefined
  /**
   * The production providers, in the providers file's shape (what
   * `BILLING_PROVIDERS_FILE` holds): checked and loaded when the layer is
   * built (a bad one fails it with `ProvidersFileInvalid` naming the key),
   * relative paths from the working directory. With PSPs in it, production
   * accounts take Pix through them; an embedding service mounts the PSPs'
   * callbacks itself (`PixCallbackLive` of `@billing/providers`) or relies
   * on the worker's reconciliation poll. With a `card` entry, production
   * accounts' cards go to its acquirer (Mercado Pago); sandbox accounts'
   * never leave the sandbox's card table.
   */
  readonly providers?: ProvidersFileInput | undefined
}

/**
 * Every service the use cases of `Billing` need, on a migrated database:
 * PostgreSQL with `databaseUrl`, PGlite in `dataDir`, else PGlite in memory
 * (nothing kept; right for tests and trials). Sandbox accounts run on the
 * sandbox providers; production accounts on those of `providers`.
 * Use cases that act for a merchant also need the `Caller`: wrap them in
 * `Billing.asAccount(accountId)`.
 */
export const BillingLive = (options: BillingOptions = {}) =>
  // The providers first, so a bad configuration fails before a database is opened.
  Layer.unwrap(Effect.map(options.providers === undefined ? Effect.succeed(undefined) : resolveProviders(options.providers), (providers) => {
    const engine = EngineLive({
      databaseUrl: options.databaseUrl,
      dataDir: options.dataDir ?? "memory://",
      secretKey: options.secretKey,
      pglite: { holder: "an embedded billing engine" }
    }, { providers })
    return options.worker === true ? Layer.provideMerge(WorkerLive(), engine) : engine
  }))

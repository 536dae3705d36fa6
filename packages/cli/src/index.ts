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
import { WorkerLive } from "@billing/worker"
import { Layer } from "effect"
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
}

/**
 * Every service the use cases of `Billing` need, on a migrated database:
 * PostgreSQL with `databaseUrl`, PGlite in `dataDir`, else PGlite in memory
 * (nothing kept; right for tests and trials). Provider ports are the sandbox
 * ones. Use cases that act for a merchant also need the `Caller`: wrap them
 * in `Billing.asAccount(accountId)`.
 */
export const BillingLive = (options: BillingOptions = {}) => {
  const engine = EngineLive({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir ?? "memory://",
    secretKey: options.secretKey,
    pglite: { holder: "an embedded billing engine" }
  })
  return options.worker === true ? Layer.provideMerge(WorkerLive(), engine) : engine
}

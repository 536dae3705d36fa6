/**
 * The world of one run: the whole engine as a library on a fresh in-memory
 * PGlite, with ids the seed decides, the sandbox providers under the seed's
 * faults, and the in-process webhook receiver. Time is not in here: the run
 * provides its own `TestClock` around the simulation (`Simulation.ts`), so
 * the database and its migrations start on the live clock and every use
 * case after them sees only simulated time.
 */
import { Database, StorageLive } from "@billing/adapters-postgres"
import { BoletoIssuerSandbox, KycSandbox, MailerSandbox, NfseCitySandbox, ProviderGate, SecretKey } from "@billing/core"
import { Layer, References } from "effect"
import { Faults, type FaultRates } from "./Faults.ts"
import * as SimIds from "./Ids.ts"
import { AcquirerSim, PixProviderSim } from "./Providers.ts"
import { Receiver } from "./Receiver.ts"
import { EngineLog } from "./EngineLog.ts"

/**
 * A fixed installation key: it seals the token signing key, which no
 * simulated step uses, and a fixed one keeps the run free of chance.
 */
const SIM_SECRET_KEY = "c2ltdWxhdGlvbi1zZWNyZXQta2V5LTMyLWJ5dGVzISE="

/** The providers: sandbox layers, the Pix PSP and the acquirer under the seed's faults; webhooks to the receiver. */
const ProvidersSim = Layer.mergeAll(
  PixProviderSim,
  AcquirerSim,
  Receiver.transport,
  BoletoIssuerSandbox,
  MailerSandbox,
  KycSandbox,
  NfseCitySandbox,
  // Sandbox accounts only: no production provider is configured.
  ProviderGate.layer([])
)

/** Every service the use cases and the worker's jobs need, for a run of `seed`. */
export const WorldLive = (seed: number, rates?: FaultRates) =>
  ProvidersSim.pipe(
    Layer.provideMerge(Receiver.layer),
    Layer.provideMerge(Layer.mergeAll(StorageLive, SimIds.layer(seed), Faults.layer(seed, rates))),
    Layer.provideMerge(Database.MigrationsLive),
    Layer.provideMerge(Database.pglite("memory://")),
    Layer.provideMerge(SecretKey.fromText(SIM_SECRET_KEY)),
    // The engine's own log lines are kept, not printed: a run prints only what failed.
    Layer.provideMerge(EngineLog.layer),
    Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, "Warn"))
  )


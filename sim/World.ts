/**
 * The world of one run, everything that outlives the engine's process: a
 * fresh database (`Store.ts`: in-memory PGlite, or one on a PostgreSQL
 * server; migrated once, on the live clock), ids and Effect's
 * `Random` the seed decides, the seed's faults and crash points, the
 * simulated production providers' books (two PSPs, the acquirer, the city)
 * and the merchants' webhook receiver. The engine's process runs over it
 * (`Engine.ts`) and may die and start again; the world stays. Time is not
 * in here: the run provides its own `TestClock` around the simulation
 * (`Simulation.ts`), so every use case sees only simulated time.
 */
import { Database } from "@billing/adapters-postgres"
import { SecretKey } from "@billing/core"
import { Layer, References } from "effect"
import { CardBook } from "./CardAcquirer.ts"
import { issuerCertificate } from "./Certificates.ts"
import { CityBook } from "./City.ts"
import { Crash } from "./Crash.ts"
import { EngineLog } from "./EngineLog.ts"
import { Faults, type FaultRates } from "./Faults.ts"
import * as SimIds from "./Ids.ts"
import { MERCHANT_DOCUMENTS } from "./People.ts"
import { Psps } from "./Psps.ts"
import { Receiver } from "./Receiver.ts"
import { storeLayer } from "./Store.ts"

/**
 * A fixed installation key: it seals the token signing key, webhook secrets
 * and issuers' certificates at rest; a fixed one keeps the run free of chance.
 */
const SIM_SECRET_KEY = "c2ltdWxhdGlvbi1zZWNyZXQta2V5LTMyLWJ5dGVzISE="

/** 2031-01-06 00:00 in São Paulo (UTC-3, no daylight saving since 2019), a Monday: the first simulated day. */
export const START = Date.UTC(2031, 0, 6, 3)

/** The simulated providers' books and the receiver, over the seed's faults and crash points. */
const outside = () => Layer.mergeAll(Receiver.receipts.pipe(Layer.provideMerge(Receiver.layer)), CardBook.layer, CityBook.layer, Psps.layer(issuerCertificate(MERCHANT_DOCUMENTS[0], START), START))

/** Everything of a run of `seed` but the engine's process and the clock; its database on the server at `serverUrl` when given. */
export const WorldLive = (seed: number, rates?: FaultRates, serverUrl?: string) =>
  outside().pipe(
    Layer.provideMerge(Layer.mergeAll(SimIds.layer(seed), SimIds.randomLayer(seed))),
    Layer.provideMerge(Layer.mergeAll(Crash.layer, Faults.layer(seed, rates))),
    Layer.provideMerge(Database.MigrationsLive),
    Layer.provideMerge(storeLayer(seed, serverUrl)),
    Layer.provideMerge(SecretKey.fromText(SIM_SECRET_KEY)),
    // The engine's own log lines are kept, not printed: a run prints only what failed.
    Layer.provideMerge(EngineLog.layer),
    Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, "Warn"))
  )

export type WorldServices = Layer.Success<ReturnType<typeof WorldLive>>

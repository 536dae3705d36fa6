/**
 * Where the data lives: a PostgreSQL server (`DATABASE_URL`) or an embedded
 * PGlite, the zero-setup default. Both give the same `SqlClient` through the
 * same `@effect/sql-pg` driver, so every statement and migration is shared:
 * PGlite is reached over the wire protocol on a unix socket (`PgliteServer`).
 */
import { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Clock, Context, Effect, Layer, Redacted } from "effect"
import { Migrator } from "effect/sql"
import * as DataFolder from "./DataFolder.ts"
import { migrations } from "./migrations/index.ts"
import * as PgliteServer from "./PgliteServer.ts"

export { DataFolderInUse } from "./DataFolder.ts"

/**
 * Where the lines about slow first-start steps go (creating an embedded
 * database, applying migrations). Silent by default, which suits a library;
 * the CLI prints them.
 */
export const Progress = Context.Reference<(line: string) => Effect.Effect<void>>("@billing/adapters-postgres/Progress", {
  defaultValue: () => () => Effect.void
})

const progress = Effect.fnUntraced(function*(line: string) {
  const report = yield* Progress
  yield* report(line)
})

/** A PostgreSQL server; `maxConnections` bounds this process's pool. */
export const postgres = (url: string, options?: { readonly maxConnections?: number }) =>
  PgClient.layer({
    url: Redacted.make(url),
    maxConnections: options?.maxConnections ?? 20,
    applicationName: "billing-engine",
    // No JIT: its compile time is paid per statement, and the engine's statements are short. A lease of webhook
    // deliveries estimated expensive (10,000 registrations, a recursive scan) spent 460 ms compiling to run in 2.
    startupParameters: { jit: "off" }
  })

/** How a process opens an embedded data folder; see `DataFolder`. */
export type PgliteOptions = Partial<DataFolder.AccessOptions>

// One connection per process: PGlite runs one session, so more would only
// queue behind each other. Named statements would outlive a turn on the
// shared session (see `PgliteServer`), hence `prepare: false`.
const connect = (path: string) => PgClient.makeClient({ path, username: "postgres", database: "postgres", prepare: false })

/** Opens the PGlite files and serves them on `socket`; closed with the scope. */
const open = Effect.fnUntraced(function*(dataDir: string, socket: string) {
  const db = yield* Effect.acquireRelease(
    Effect.promise(() => PGlite.create(dataDir)),
    (db) => Effect.promise(() => db.close())
  )
  yield* PgliteServer.serve(db, socket).pipe(Effect.orDie)
})

/**
 * An embedded PGlite. `dataDir` keeps the data between runs; `memory://`
 * (the default) keeps nothing, which suits tests.
 *
 * A data folder is opened by one process at a time (`DataFolder`): the first
 * takes its lock; a later one connects to the first when that one shares
 * (`share`), waits while a short command holds it, and with `exclusive`
 * fails with `DataFolderInUse` instead of connecting.
 *
 * Transactions of all connections queue behind each other on the one
 * session: correct, and fast enough for development and small
 * installations. Use a PostgreSQL server beyond that.
 */
export const pglite = (dataDir = "memory://", options: PgliteOptions = {}) =>
  PgClient.layerFrom(Effect.gen(function*() {
    if (dataDir.startsWith("memory://")) {
      const socket = yield* DataFolder.privateSocket
      yield* open(dataDir, socket)
      return yield* connect(socket)
    }
    const { access, ready } = yield* DataFolder.access(dataDir, { holder: options.holder ?? "an embedded billing engine", ...options })
    if (access._tag === "Guest") {
      yield* progress(`using the database of ${access.owner.holder} (pid ${access.owner.pid}) in ${dataDir}`)
      return yield* connect(access.socket)
    }
    if (access.created) yield* progress(`creating the embedded database in ${dataDir} (first start)`)
    yield* open(dataDir, access.socket)
    yield* ready
    return yield* connect(access.socket)
  }))

/**
 * Applies pending migrations; returns the ones it ran. Each one is announced
 * through `Progress` before it runs.
 */
export const migrate = Effect.gen(function*() {
  const report = yield* Progress
  const started = yield* Clock.currentTimeMillis
  const loader = Effect.map(migrations, (all) =>
    all.map(([id, name, load]) =>
      [id, name, Effect.map(load, (migration) => Effect.andThen(report(`applying migration ${id}_${name}`), migration))] as const
    ))
  const ran = yield* Migrator.make({})({ loader })
  if (ran.length > 0) {
    const elapsed = (yield* Clock.currentTimeMillis) - started
    yield* report(`applied ${ran.length} migration${ran.length === 1 ? "" : "s"} in ${(elapsed / 1000).toFixed(1)} s`)
  }
  return ran
})

/** Runs pending migrations when the layer is built. */
export const MigrationsLive = Layer.effectDiscard(migrate)

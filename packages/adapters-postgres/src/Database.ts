/**
 * Where the data lives: a PostgreSQL server (`DATABASE_URL`) or an embedded
 * PGlite, the zero-setup default. Both give the same `SqlClient` through the
 * same `@effect/sql-pg` driver, so every statement and migration is shared:
 * PGlite is reached over its wire-protocol socket on a private unix socket.
 */
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { Migrator } from "effect/sql"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { migrations } from "./migrations/index.ts"

/** A PostgreSQL server; `maxConnections` bounds this process's pool. */
export const postgres = (url: string, options?: { readonly maxConnections?: number }) =>
  PgClient.layer({
    url: Redacted.make(url),
    maxConnections: options?.maxConnections ?? 20,
    applicationName: "billing-engine"
  })

/**
 * An embedded PGlite. `dataDir` keeps the data between runs; `memory://`
 * (the default) keeps nothing, which suits tests.
 *
 * PGlite serves one session, so the client holds a single connection and
 * transactions queue behind each other: correct, and fast enough for
 * development and small installations. Use a PostgreSQL server beyond that.
 */
export const pglite = (dataDir = "memory://") =>
  PgClient.layerFrom(Effect.gen(function*() {
    if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true })
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => PGlite.create(dataDir)),
      (db) => Effect.promise(() => db.close())
    )
    const socketDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "billing-pglite-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const path = join(socketDir, ".s.PGSQL.5432")
    yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const server = new PGLiteSocketServer({ db, path, maxConnections: 1 })
        await server.start()
        return server
      }),
      (server) => Effect.promise(() => server.stop())
    )
    return yield* PgClient.makeClient({ path, username: "postgres", database: "postgres", prepare: false })
  }))

/** Applies pending migrations; returns the ones it ran. */
export const migrate = Migrator.make({})({ loader: migrations })

/** Runs pending migrations when the layer is built. */
export const MigrationsLive = Layer.effectDiscard(migrate)

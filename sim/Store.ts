/**
 * The database a run writes: a fresh in-memory PGlite by default (a run a
 * few seconds long, nothing to set up), or, given a server's URL, a fresh
 * database on that PostgreSQL server, created for the run and dropped when
 * it ends, so that the longer runs meet the server's own locking and
 * concurrency rather than PGlite's single connection.
 */
import { Database } from "@billing/adapters-postgres"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** Runs `statement` on the server's maintenance connection (`CREATE DATABASE` cannot run in a transaction or a pool's session of another database). */
const onServer = (serverUrl: string, statement: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
    Effect.provide(Database.postgres(serverUrl, { maxConnections: 1 })),
    Effect.orDie
  )

/** A database on the server at `serverUrl` for the run of `seed`, named apart from any other process's. */
const freshDatabase = (serverUrl: string, seed: number) => {
  const name = `sim_${seed}_${process.pid}`
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return Layer.unwrap(
    Effect.acquireRelease(
      Effect.as(onServer(serverUrl, `CREATE DATABASE ${name}`), Database.postgres(url.href)),
      () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    )
  )
}

/** The run's database: on the PostgreSQL server at `serverUrl` when given, else in memory. */
export const storeLayer = (seed: number, serverUrl: string | undefined) =>
  serverUrl === undefined ? Database.pglite("memory://") : freshDatabase(serverUrl, seed)

/**
 * The probes a load balancer or an orchestrator calls, through real HTTP on
 * PostgreSQL: `/healthz` answers while the process runs; `/readyz` answers
 * 200 while the database answers and holds this code's schema, and 503
 * naming what is not ready otherwise (here: a schema behind the code, as
 * when a process starts before another one migrated).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import pg from "./support/pg.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("health and readiness probes", () => {
  let engine: TestEngine
  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  const probe = async (path: string) => {
    const response = await fetch(`${engine.baseUrl}${path}`)
    return { status: response.status, cache: response.headers.get("cache-control"), body: await response.json() }
  }

  it("answers /healthz and /readyz without a token", async () => {
    expect(await probe("/healthz")).toEqual({ status: 200, cache: "no-store", body: { status: "ok" } })
    expect(await probe("/readyz")).toEqual({ status: 200, cache: "no-store", body: { status: "ready", checks: ["database", "migrations"] } })
  })

  it("is not ready while the schema is behind the code, and ready again once it is current", async () => {
    const url = engine.config.databaseUrl!
    const latest = "(SELECT max(migration_id) FROM effect_sql_migrations)"
    await pg(url, `CREATE TABLE held_migration AS SELECT * FROM effect_sql_migrations WHERE migration_id = ${latest}`)
    await pg(url, `DELETE FROM effect_sql_migrations WHERE migration_id = ${latest}`)
    const behind = await probe("/readyz")
    expect(behind.status).toBe(503)
    expect(behind.body.status).toBe("not ready")
    expect(behind.body.notReady).toHaveLength(1)
    expect(behind.body.notReady[0].name).toBe("migrations")
    // Liveness does not depend on it: the process is alive, only not ready.
    expect((await probe("/healthz")).status).toBe(200)

    await pg(url, "INSERT INTO effect_sql_migrations SELECT * FROM held_migration")
    expect((await probe("/readyz")).status).toBe(200)
  })
})

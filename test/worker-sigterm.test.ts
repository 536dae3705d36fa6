/**
 * A `billing worker` process stopped with SIGTERM in the middle of a billing
 * run (issue 33): it exits by itself, leaves no claim behind (every cycle it
 * had taken is handed back, not left until its one-minute lease runs out),
 * and a second worker started right after issues the rest, every cycle
 * exactly once, well within that minute.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, TEST_SECRET_KEY, type TestEngine } from "./support/Engine.ts"
import { pollUntil } from "./support/PollUntil.ts"
import { CLONE_PREFIX, seedDueSubscriptions } from "./support/SeedSubscriptions.ts"

const N = 3_000
const main = join(dirname(fileURLToPath(import.meta.url)), "../packages/cli/src/main.ts")

describe("billing worker stopped with SIGTERM during a run", () => {
  let engine: TestEngine
  const workers: Array<ChildProcess> = []
  const count = async (query: string) => Number((await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<{ n: string }>(query))))[0]!.n)
  const clones = `starts_with(subscription_id, '${CLONE_PREFIX}')`
  const issued = () => count(`SELECT count(*)::text AS n FROM billing_cycles WHERE ${clones} AND cycle_number = 2 AND status <> 'SCHEDULED'`)
  const startWorker = () => {
    // The default lease (a minute): a claim left behind would hold its cycles past this test's deadline.
    const env = { ...process.env, DATABASE_URL: (engine.config as { databaseUrl: string }).databaseUrl, BILLING_SECRET_KEY: TEST_SECRET_KEY }
    const worker = spawn(process.execPath, [main, "worker"], { env, stdio: ["ignore", "ignore", "inherit"] })
    workers.push(worker)
    return worker
  }
  const until = (done: () => Promise<boolean>, seconds: number, what: string) =>
    pollUntil(done, seconds, async () => `${what}: ${await issued()} of ${N} issued`)

  beforeAll(async () => {
    engine = await startEngine("postgres")
    await seedDueSubscriptions(engine, N)
  }, 120_000)
  afterAll(async () => {
    for (const worker of workers) worker.kill("SIGKILL")
    await engine?.dispose()
  })

  it("exits without a claim left, and the next worker issues the rest at once, each cycle once", async () => {
    const first = startWorker()
    await until(async () => (await issued()) >= 200, 120, "the first worker's start")
    const exited = once(first, "exit")
    first.kill("SIGTERM")
    const [code, signal] = await exited
    // It stopped by itself (no signal killed it), with SIGTERM's conventional code.
    expect([code, signal]).toEqual([143, null])
    const stoppedAt = await issued()
    expect(stoppedAt).toBeLessThan(N)
    // Nothing held: every cycle still to issue is free to take (a claim's lease is a minute otherwise).
    expect(await count(`SELECT count(*)::text AS n FROM billing_cycles WHERE ${clones} AND cycle_number = 2 AND status = 'SCHEDULED'
      AND claimed_until > now()`)).toBe(0)

    startWorker()
    // Far less than the lease: the second worker did not wait for a claim of the first to lapse.
    await until(async () => (await count(`SELECT count(*)::text AS n FROM billing_cycles WHERE ${clones} AND cycle_number = 2
      AND status IN ('SCHEDULED', 'PROCESSING')`)) === 0, 40, "the rest issued")
    expect(await count(`SELECT count(*)::text AS n FROM charges WHERE ${clones} AND cycle_number = 2`)).toBe(N)
    expect(await count(`SELECT count(DISTINCT subscription_id)::text AS n FROM charges WHERE ${clones} AND cycle_number = 2`)).toBe(N)
    expect(await count(`SELECT count(*)::text AS n FROM billing_cycles WHERE ${clones} AND cycle_number = 3`)).toBe(N)
  }, 180_000)
})

/**
 * Four `billing worker` processes against one PostgreSQL over 20,000
 * subscriptions due today (a third by card, a third by Pix, a third by
 * boleto): two are killed with SIGKILL while the run is under way and
 * started again. Every cycle is issued exactly once and none is missed,
 * counted in SQL: one charge, one invoice and one `charge.created` per
 * cycle, every card paid once, the next cycle scheduled once. The workers'
 * claim lease is 3 seconds, so the killed workers' claims (and card
 * attempts they left unanswered) return to the others within the test.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, TEST_SECRET_KEY, type TestEngine } from "./support/Engine.ts"
import { pollUntil } from "./support/PollUntil.ts"
import { CLONE_PREFIX, seedDueSubscriptions } from "./support/SeedSubscriptions.ts"

const N = Number(process.env.BILLING_WORKERS_N ?? 20_000)
const main = join(dirname(fileURLToPath(import.meta.url)), "../packages/cli/src/main.ts")

describe("billing run with four workers, two killed", () => {
  let engine: TestEngine
  const workers: Array<ChildProcess> = []
  const count = async (query: string) => {
    const rows = await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<{ n: string }>(query)))
    return Number(rows[0]!.n)
  }
  const startWorker = () => {
    const env = { ...process.env, DATABASE_URL: (engine.config as { databaseUrl: string }).databaseUrl, BILLING_SECRET_KEY: TEST_SECRET_KEY, BILLING_CLAIM_LEASE_SECONDS: "3" }
    const worker = spawn(process.execPath, [main, "worker"], { env, stdio: ["ignore", "ignore", "inherit"] })
    workers.push(worker)
    return worker
  }
  // The clones only: the nine templates bought through the API bill next month.
  const clonesOf = (alias = "") => `starts_with(${alias}subscription_id, '${CLONE_PREFIX}')`
  const clones = clonesOf()
  const issued = () => count(`SELECT count(*)::text AS n FROM billing_cycles WHERE ${clones} AND cycle_number = 2 AND status <> 'SCHEDULED'`)
  /** What is left, for the failure message. */
  const stuck = async () =>
    JSON.stringify(await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`SELECT c.status, c.attempt_count, c.claimed_until < now() AS lapsed,
        ch.status AS charge, count(*)::int AS n FROM billing_cycles c LEFT JOIN charges ch ON ch.id = c.charge_id
      WHERE ${clonesOf("c.")} AND c.cycle_number = 2 AND c.status IN ('SCHEDULED', 'PROCESSING') GROUP BY 1, 2, 3, 4`))))
  const until = (done: () => Promise<boolean>, seconds: number) =>
    pollUntil(done, seconds, async () => `${await issued()} of ${N} issued; ${await stuck()}`, 100)

  beforeAll(async () => {
    engine = await startEngine("postgres")
    await seedDueSubscriptions(engine, N)
  }, 120_000)
  afterAll(async () => {
    for (const worker of workers) worker.kill("SIGKILL")
    await engine?.dispose()
  })

  it("issues every cycle exactly once", async () => {
    const first = [startWorker(), startWorker(), startWorker(), startWorker()]
    await until(async () => (await issued()) >= N / 5, 120)
    first[0]!.kill("SIGKILL")
    first[1]!.kill("SIGKILL")
    const killedAt = await issued()
    expect(killedAt).toBeLessThan(N)
    startWorker()
    startWorker()
    // Done: no cycle left to issue, no card left unanswered.
    await until(async () => (await count(`SELECT count(*)::text AS n FROM billing_cycles
      WHERE ${clones} AND cycle_number = 2 AND status IN ('SCHEDULED', 'PROCESSING')`)) === 0, Number(process.env.BILLING_WORKERS_WAIT ?? 240))

    const cycle2 = `SELECT count(*)::text AS n FROM billing_cycles WHERE ${clones} AND cycle_number = 2`
    expect(await count(`${cycle2} AND status IN ('AWAITING_PAYMENT', 'PAID')`)).toBe(N)
    // One charge per cycle, each subscription's own.
    expect(await count(`SELECT count(*)::text AS n FROM charges WHERE ${clones} AND cycle_number = 2`)).toBe(N)
    expect(await count(`SELECT count(DISTINCT subscription_id)::text AS n FROM charges WHERE ${clones} AND cycle_number = 2`)).toBe(N)
    // One invoice per cycle, naming the cycle's charge, with its lines.
    expect(await count(`SELECT count(*)::text AS n FROM invoices WHERE ${clones} AND cycle_number = 2`)).toBe(N)
    expect(await count(`SELECT count(*)::text AS n FROM invoices i JOIN billing_cycles c
      ON c.subscription_id = i.subscription_id AND c.cycle_number = i.cycle_number AND c.charge_id = i.charge_id WHERE ${clonesOf("i.")} AND i.cycle_number = 2`)).toBe(N)
    expect(await count(`SELECT count(*)::text AS n FROM invoices i WHERE ${clonesOf("i.")} AND i.cycle_number = 2
      AND NOT EXISTS (SELECT 1 FROM invoice_lines l WHERE l.invoice_id = i.id)`)).toBe(0)
    // The next cycle scheduled once for each.
    expect(await count(`SELECT count(*)::text AS n FROM billing_cycles WHERE ${clones} AND cycle_number = 3 AND status = 'SCHEDULED'`)).toBe(N)
    // One charge.created per charge; every card paid, once.
    expect(await count(`SELECT count(*)::text AS n FROM outbox o JOIN charges c ON c.id = o.body::jsonb ->> 'chargeId'
      WHERE o.event = 'charge.created' AND ${clonesOf("c.")} AND c.cycle_number = 2`)).toBe(N)
    const cards = await count(`SELECT count(*)::text AS n FROM charges WHERE ${clones} AND cycle_number = 2 AND payment_type = 'CREDIT_CARD'`)
    expect(cards).toBeGreaterThan(N / 4)
    expect(await count(`SELECT count(*)::text AS n FROM charges WHERE ${clones} AND cycle_number = 2 AND payment_type = 'CREDIT_CARD' AND status = 'PAID'`)).toBe(cards)
    expect(await count(`SELECT count(*)::text AS n FROM outbox o JOIN charges c ON c.id = o.body::jsonb ->> 'chargeId'
      WHERE o.event = 'payment.success' AND ${clonesOf("c.")} AND c.cycle_number = 2`)).toBe(cards)
    expect(await count(`${cycle2} AND status = 'PAID'`)).toBe(cards)
  }, 300_000)
})

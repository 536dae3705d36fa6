/**
 * `npm run bench -- pix`: `POST /v1/charges/pix` on PostgreSQL at a fixed
 * concurrency, against the baseline of the same database: single-row INSERT
 * transactions of a charge-sized row at the same concurrency through the same
 * driver. The server runs as it would in production, apart from the load
 * generator: `billing serve --no-worker --processes N`, one HTTP process per
 * core by default.
 *
 * Settings: BENCH_SECONDS (20), BENCH_CONCURRENCY (32), BENCH_PROCESSES (the
 * number of cores), DATABASE_URL (else a fresh database on the local server,
 * dropped at the end), SERVER_PROFILE=dir (CPU profiles of the server).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { spawn } from "node:child_process"
import { availableParallelism } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { freshPostgresDatabase } from "../test/support/Engine.ts"
import { makeClient } from "./_support/http.ts"
import { fmt, runLoad } from "./_support/load.ts"

const seconds = Number(process.env.BENCH_SECONDS ?? 20)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32)
const processes = Number(process.env.BENCH_PROCESSES ?? availableParallelism())
const root = join(dirname(fileURLToPath(import.meta.url)), "..")

const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, drop: async () => {} } : await freshPostgresDatabase()
const env = { ...process.env, DATABASE_URL: db.url, BILLING_SANDBOX_CLIENT_ID: "bench-client", BILLING_SANDBOX_CLIENT_SECRET: "bench-secret" }

const profile = process.env.SERVER_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.SERVER_PROFILE}`] : []

const server = spawn(
  process.execPath,
  [...profile, join(root, "packages/cli/src/main.ts"), "serve", "--no-worker", "--port", "0", "--processes", String(processes)],
  { env, stdio: ["ignore", "pipe", "inherit"] }
)
const base = await new Promise<string>((resolve, reject) => {
  let out = ""
  const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000)
  server.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString()
    const match = out.match(/base URL:\s+(\S+)\/v1/)
    if (match && out.includes("sandbox:")) {
      clearTimeout(timer)
      resolve(match[1]!)
    }
  })
})

try {
  const tokenResponse = await fetch(`${base}/auth/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: "bench-client", client_secret: "bench-secret", scope: "pix.cob/write" })
  })
  const { access_token } = (await tokenResponse.json()) as { access_token: string }
  const headers = { authorization: `Bearer ${access_token}`, "content-type": "application/json" }
  const body = JSON.stringify({ amount: "10.00", metadata: { orderId: "bench" } })
  const client = makeClient(base, concurrency)
  const createCharge = async () => (await client.send("POST", "/v1/charges/pix", headers, body)).status === 200

  await runLoad({ concurrency, durationMillis: 2_000, task: createCharge }) // warm-up: JIT, pools, caches
  const pix = await runLoad({ concurrency, durationMillis: seconds * 1000, task: createCharge })
  client.close()
  console.log(`POST /v1/charges/pix  ${fmt(pix.perSecond)} req/s  p50 ${fmt(pix.p50Millis)} ms  p99 ${fmt(pix.p99Millis)} ms  (${pix.completed} ok, ${pix.failed} failed, ${concurrency} connections, ${processes} server processes)`)

  // Baseline: what this database does with one charge-sized row per transaction, same driver, same concurrency.
  const baseline = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const sql = yield* PgClient.make({ url: Redacted.make(db.url), maxConnections: concurrency })
    yield* sql`CREATE TABLE IF NOT EXISTS bench_baseline (id text PRIMARY KEY, account_id text NOT NULL, status text NOT NULL,
      amount_cents bigint NOT NULL, emv text, metadata text, created_at timestamptz NOT NULL)`
    const emv = "00020126580014br.gov.bcb.pix0136".padEnd(170, "0")
    const insert = (w: number, n: number) =>
      Effect.runPromise(sql.withTransaction(
        sql`INSERT INTO bench_baseline VALUES (${`b_${w}_${n}_${Date.now()}`}, 'acc', 'PENDING', 1000, ${emv}, '{"orderId":"bench"}', now())`
      )).then(() => true)
    yield* Effect.promise(() => runLoad({ concurrency, durationMillis: 2_000, task: insert }))
    return yield* Effect.promise(() => runLoad({ concurrency, durationMillis: seconds * 1000, task: insert }))
  })).pipe(Effect.provide(Reactivity.layer)))
  console.log(`baseline INSERT tx     ${fmt(baseline.perSecond)} tx/s   p50 ${fmt(baseline.p50Millis)} ms  p99 ${fmt(baseline.p99Millis)} ms`)
  console.log(`RESULT pix rps=${fmt(pix.perSecond, 0)} baseline_tps=${fmt(baseline.perSecond, 0)} ratio=${fmt(pix.perSecond / baseline.perSecond, 2)} p50_ms=${fmt(pix.p50Millis)} p99_ms=${fmt(pix.p99Millis)}`)
} finally {
  server.kill("SIGTERM")
  await new Promise((r) => server.once("exit", r))
  await db.drop()
}

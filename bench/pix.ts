/**
 * `npm run bench -- pix`: `POST /v1/charges/pix` on PostgreSQL at a fixed
 * concurrency, against the baseline of the same database: single-row INSERT
 * transactions of a charge-sized row at the same concurrency through the same
 * driver. The server runs as it would in production, apart from the load
 * generator: `billing serve --no-worker --processes N`, one HTTP process per
 * core by default.
 *
 * The two loads run in alternating slices (BENCH_SLICES, 4 by default, each
 * load BENCH_SECONDS in all), so that a slow spell of a shared host weighs on
 * both figures alike rather than on one of them.
 *
 * Settings: BENCH_SECONDS (20), BENCH_CONCURRENCY (32), BENCH_PROCESSES (the
 * number of cores), BENCH_SLICES (4), DATABASE_URL (else a fresh database on the local server,
 * dropped at the end), SERVER_PROFILE=dir (CPU profiles of the server).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { spawn } from "node:child_process"
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { freshPostgresDatabase } from "../test/support/Engine.ts"
import { makeClient } from "./_support/http.ts"
import { combineLoads, fmt, type LoadResult, runLoad } from "./_support/load.ts"

const seconds = Number(process.env.BENCH_SECONDS ?? 20)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32)
const processes = Number(process.env.BENCH_PROCESSES ?? availableParallelism())
const slices = Number(process.env.BENCH_SLICES ?? 4)
const root = join(dirname(fileURLToPath(import.meta.url)), "..")

const db = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, drop: async () => {} } : await freshPostgresDatabase()
const env = {
  ...process.env,
  DATABASE_URL: db.url,
  // A PostgreSQL server requires a secret key; a fresh bench database can take any.
  BILLING_SECRET_KEY: process.env.BILLING_SECRET_KEY ?? "YmVuY2gtb25seS1zZWNyZXQta2V5LTMyLWJ5dGVzISE=",
  BILLING_SANDBOX_CLIENT_ID: "bench-client",
  BILLING_SANDBOX_CLIENT_SECRET: "bench-secret"
}

const profile = process.env.SERVER_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.SERVER_PROFILE}`] : []

// The server writes its request log to a file, as a production process
// writes to its log collector: reading it back here would take CPU from the
// load generator, which shares the machine.
const logDir = mkdtempSync(join(tmpdir(), "bench-pix-"))
const logPath = join(logDir, "server.log")
const logFd = openSync(logPath, "w")
const server = spawn(
  process.execPath,
  [...profile, join(root, "packages/cli/src/main.ts"), "serve", "--no-worker", "--port", "0", "--processes", String(processes)],
  { env, stdio: ["ignore", logFd, "inherit"] }
)
closeSync(logFd)
/** The banner's base URL, once the banner (up to its sandbox line) is in the log. */
const bannerBase = () => {
  const out = readFileSync(logPath, "utf8")
  const match = out.match(/base URL:\s+(\S+)\/v1/)
  return match && out.includes("sandbox:") ? match[1]! : undefined
}
const base = await new Promise<string>((resolve, reject) => {
  const started = performance.now()
  const poll = setInterval(() => {
    const found = bannerBase()
    if (found !== undefined) {
      clearInterval(poll)
      resolve(found)
    } else if (performance.now() - started > 60_000) {
      clearInterval(poll)
      reject(new Error(`server did not start: ${readFileSync(logPath, "utf8")}`))
    }
  }, 50)
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

  // Baseline: what this database does with one charge-sized row per transaction, same driver, same concurrency.
  const scope = Effect.runSync(Scope.make())
  const sql = await Effect.runPromise(
    PgClient.make({ url: Redacted.make(db.url), maxConnections: concurrency }).pipe(Scope.provide(scope), Effect.provide(Reactivity.layer))
  )
  await Effect.runPromise(sql`CREATE TABLE IF NOT EXISTS bench_baseline (id text PRIMARY KEY, account_id text NOT NULL, status text NOT NULL,
    amount_cents bigint NOT NULL, emv text, metadata text, created_at timestamptz NOT NULL)`)
  const emv = "00020126580014br.gov.bcb.pix0136".padEnd(170, "0")
  let inserted = 0
  const insert = () =>
    Effect.runPromise(sql.withTransaction(
      sql`INSERT INTO bench_baseline VALUES (${`b_${inserted++}`}, 'acc', 'PENDING', 1000, ${emv}, '{"orderId":"bench"}', now())`
    )).then(() => true)

  // Warm-up (JIT, pools, caches), then the two loads in alternating slices,
  // so that a slow spell of the host falls on both and not on one.
  await runLoad({ concurrency, durationMillis: 2_000, task: createCharge })
  await runLoad({ concurrency, durationMillis: 2_000, task: insert })
  const pixRuns: Array<LoadResult> = []
  const baselineRuns: Array<LoadResult> = []
  for (let i = 0; i < slices; i++) {
    pixRuns.push(await runLoad({ concurrency, durationMillis: (seconds * 1000) / slices, task: createCharge }))
    baselineRuns.push(await runLoad({ concurrency, durationMillis: (seconds * 1000) / slices, task: insert }))
  }
  client.close()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  const pix = combineLoads(pixRuns)
  const baseline = combineLoads(baselineRuns)
  console.log(`slices (${slices} of ${fmt(seconds / slices)} s each): pix ${pixRuns.map((r) => fmt(r.perSecond, 0)).join(", ")} req/s; baseline ${baselineRuns.map((r) => fmt(r.perSecond, 0)).join(", ")} tx/s`)
  console.log(`POST /v1/charges/pix  ${fmt(pix.perSecond)} req/s  p50 ${fmt(pix.p50Millis)} ms  p99 ${fmt(pix.p99Millis)} ms  (${pix.completed} ok, ${pix.failed} failed, ${concurrency} connections, ${processes} server processes)`)
  console.log(`baseline INSERT tx     ${fmt(baseline.perSecond)} tx/s   p50 ${fmt(baseline.p50Millis)} ms  p99 ${fmt(baseline.p99Millis)} ms`)
  console.log(`RESULT pix rps=${fmt(pix.perSecond, 0)} baseline_tps=${fmt(baseline.perSecond, 0)} ratio=${fmt(pix.perSecond / baseline.perSecond, 2)} p50_ms=${fmt(pix.p50Millis)} p99_ms=${fmt(pix.p99Millis)}`)
} finally {
  server.kill("SIGTERM")
  await new Promise((r) => server.once("exit", r))
  rmSync(logDir, { recursive: true, force: true })
  await db.drop()
}

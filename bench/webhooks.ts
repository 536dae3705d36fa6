/**
 * `npm run bench -- webhooks`: signed webhooks delivered by a `billing
 * worker` process on PostgreSQL to local receivers.
 *
 * Seeds BENCH_EVENTS deliveries (50,000: half as many `payment.success`
 * outbox events, each fanned out to the two registrations of its account;
 * 5 accounts, 10 registrations, each on its own receiver), then starts the
 * worker and waits for every receipt. Prints deliveries per second from the
 * first receipt to the last, p50 and p99 from the events' commit to their
 * receipt, the worker's peak RSS and CPU time per delivery. Baseline, in
 * the same run: the same number of bodies POSTed to the same receivers by a
 * bare keep-alive client (`node:http`), as many in flight per receiver as
 * the worker allows (16), with its CPU time per POST.
 * Then the same seeding again with receiver 0 answering after 4.5 s: the
 * rate of the other nine, against their rate in the first run.
 *
 * Receivers run in their own process (bench/_support/receivers.ts).
 * Settings: BENCH_EVENTS (50000), BENCH_WORKER_ARGS (Node flags of the worker),
 * BENCH_IDLE_REGISTRATIONS (0: accounts with a registration each, and no events).
 */
import { Billing } from "@billing/core"
import { DEFAULT_DISPATCHER } from "@billing/worker"
import { type ChildProcess, fork, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import http from "node:http"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { startEngine, TEST_SECRET_KEY } from "../test/support/Engine.ts"
import { fmt } from "./_support/load.ts"

const here = dirname(fileURLToPath(import.meta.url))
const N = Number(process.env.BENCH_EVENTS ?? 50_000)
const RECEIVERS = 10
const ACCOUNTS = 5
const SLOW_MILLIS = 4_500
const PER_RECEIVER = DEFAULT_DISPATCHER.perRegistration

const engine = await startEngine("postgres")
const databaseUrl = (engine.config as { databaseUrl: string }).databaseUrl
const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))

type Message = { type: "ready"; ports: Array<number> } | { type: "counts"; counts: Array<number> } | { type: "times"; times: Array<Array<number>> }

/** The receivers' process, and a way to ask it something. */
const startReceivers = async (slowIndex: number) => {
  const child = fork(join(here, "_support/receivers.ts"), [JSON.stringify({ count: RECEIVERS, slowIndex, slowMillis: SLOW_MILLIS })])
  const next = <T extends Message["type"]>(type: T) =>
    new Promise<Extract<Message, { type: T }>>((resolve) => {
      const on = (m: Message) => {
        if (m.type !== type) return
        child.off("message", on)
        resolve(m as Extract<Message, { type: T }>)
      }
      child.on("message", on)
    })
  const { ports } = await next("ready")
  const ask = <T extends "counts" | "times">(type: T) => {
    const answer = next(type)
    child.send({ type })
    return answer
  }
  return { child, ports, ask }
}

// Five accounts with two registrations each; registration r goes to receiver r.
const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, () => engine.createAccount()))
const registrations: Array<string> = []
for (let r = 0; r < RECEIVERS; r++) {
  const registered = await engine.run(
    Billing.registerWebhook({ url: "http://127.0.0.1:1/", events: ["payment.success"] }).pipe(Billing.asAccount(accounts[r % ACCOUNTS]!.accountId))
  )
  registrations.push(registered.webhookId)
}
// Merchants with a registration and nothing to receive, as a large installation has: a lease must not visit each of them.
const IDLE_REGISTRATIONS = Number(process.env.BENCH_IDLE_REGISTRATIONS ?? 0)
await sql((s) => s`INSERT INTO accounts (id, number, name, document, person_type, sandbox, created_at)
  SELECT 'acc_idle_' || i, 'idle' || i, 'Idle', '11444777000161', 'PJ', true, now() FROM generate_series(1, ${IDLE_REGISTRATIONS}) AS i`)
await sql((s) => s`INSERT INTO webhooks (id, account_id, url, events, secret, status, created_at)
  SELECT 'uwh_idle_' || i, 'acc_idle_' || i, 'http://127.0.0.1:1/', '[]'::jsonb, 'unused', 'active', now()
  FROM generate_series(1, ${IDLE_REGISTRATIONS}) AS i`)

const pointAt = (ports: ReadonlyArray<number>) =>
  sql((s) => Effect.forEach(registrations, (id, r) => s`UPDATE webhooks SET url = ${`http://127.0.0.1:${ports[r]}/hooks`} WHERE id = ${id}`))

const bodyOf = (i: number) =>
  JSON.stringify({ event: "payment.success", timestamp: new Date().toISOString(), accountId: "acc", chargeId: `cha_bench_${i}`, amount: 10.5, status: "PAID" })

/** N deliveries: N / 2 events, each to its account's two registrations. Answers when they were committed. */
const seed = async (run: number) => {
  const ids = accounts.map((a) => a.accountId)
  await sql((s) => s`INSERT INTO outbox (account_id, event, body, created_at)
    SELECT (${ids})[1 + i % ${ACCOUNTS}], 'payment.success',
      json_build_object('event', 'payment.success', 'timestamp', now(), 'accountId', 'acc', 'chargeId', 'cha_bench_' || ${run} || '_' || i,
        'amount', 10.5, 'status', 'PAID')::text, now()
    FROM generate_series(0, ${N / 2 - 1}) AS i`)
  return Date.now()
}

const startWorker = () =>
  // BENCH_WORKER_ARGS: Node flags for the worker (`--cpu-prof` to see where its time goes).
  spawn(process.execPath, [...(process.env.BENCH_WORKER_ARGS?.split(" ").filter((a) => a !== "") ?? []), join(here, "../packages/cli/src/main.ts"), "worker"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, BILLING_SECRET_KEY: TEST_SECRET_KEY, BILLING_LOG_LEVEL: "error" },
    stdio: ["ignore", "ignore", "inherit"]
  })

/** The peak resident memory of `child` while `until` is pending, in MB. */
const peakRss = (child: ChildProcess) => {
  let peak = 0
  const timer = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0)
      peak = Math.max(peak, kb / 1024)
    } catch {
      // The process ended.
    }
  }, 200)
  return () => {
    clearInterval(timer)
    return peak
  }
}

/** Stops a worker as an operator would (SIGTERM, so a profile it writes is complete), and for good after 5 s. */
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill("SIGTERM")
  })

/** The CPU time `pid` has used so far (user and system), in seconds, from `/proc` (clock ticks of 1/100 s). */
const cpuSecondsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const waitFor = async (done: () => Promise<boolean>, seconds: number, what: string) => {
  const deadline = Date.now() + seconds * 1000
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done within ${seconds} s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

/** Receipts per second of the receivers `which`, from their first receipt to their last. */
const rateOf = (times: ReadonlyArray<ReadonlyArray<number>>, which: ReadonlyArray<number>) => {
  const all = which.flatMap((r) => times[r]!)
  // Folded rather than spread: a spread of 200,000 arguments overflows the stack.
  const first = all.reduce((a, b) => Math.min(a, b), Infinity)
  const last = all.reduce((a, b) => Math.max(a, b), -Infinity)
  return all.length / Math.max(0.001, (last - first) / 1000)
}

// Run 1: every receiver answers at once.
const receivers = await startReceivers(-1)
await pointAt(receivers.ports)
const committedAt = await seed(1)
const worker = startWorker()
const rss = peakRss(worker)
await waitFor(async () => (await receivers.ask("counts")).counts.reduce((a, b) => a + b, 0) >= N, 600, "deliveries")
const peakMb = rss()
// Per delivery, with the worker's start (loading its modules) and its fan-out.
const workerCpuMicros = (cpuSecondsOf(worker.pid!) / N) * 1e6
await stop(worker)
const { times } = await receivers.ask("times")
const everyReceiver = Array.from({ length: RECEIVERS }, (_, r) => r)
const perSecond = rateOf(times, everyReceiver)
const othersPerSecond = rateOf(times, everyReceiver.slice(1))
const latencies = times.flat().map((t) => t - committedAt).sort((a, b) => a - b)
console.log(`worker: ${N} deliveries at ${fmt(perSecond, 0)}/s; from commit to receipt p50 ${fmt(percentile(latencies, 50), 0)} ms, p99 ${fmt(percentile(latencies, 99), 0)} ms; peak RSS ${fmt(peakMb, 0)} MB; CPU ${fmt(workerCpuMicros, 0)} µs per delivery`)
receivers.child.kill()

// Baseline: the same bodies by a bare keep-alive client, PER_RECEIVER in flight per receiver.
const bare = await startReceivers(-1)
const agent = new http.Agent({ keepAlive: true, maxSockets: RECEIVERS * PER_RECEIVER })
const post = (port: number, body: string) =>
  new Promise<void>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/hooks", method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume()
      res.on("end", () => resolve())
    })
    req.on("error", reject)
    req.end(body)
  })
const perLane = N / (RECEIVERS * PER_RECEIVER)
const clientCpuBefore = process.cpuUsage()
await Promise.all(Array.from({ length: RECEIVERS * PER_RECEIVER }, async (_, lane) => {
  const receiver = lane % RECEIVERS
  for (let i = 0; i < perLane; i++) await post(bare.ports[receiver]!, bodyOf(lane * perLane + i))
}))
const clientCpu = process.cpuUsage(clientCpuBefore)
const baselineCpuMicros = (clientCpu.user + clientCpu.system) / N
const baselinePerSecond = rateOf((await bare.ask("times")).times, everyReceiver)
console.log(`baseline: ${N} bare keep-alive POSTs at ${fmt(baselinePerSecond, 0)}/s; client CPU ${fmt(baselineCpuMicros, 0)} µs per POST`)
bare.child.kill()
agent.destroy()

// Run 2: receiver 0 answers after 4.5 s; the other nine's rate, from the same starting state as run 1.
await sql((s) => s`TRUNCATE webhook_deliveries, webhook_counters, outbox`)
const slow = await startReceivers(0)
await pointAt(slow.ports)
await seed(2)
const second = startWorker()
const share = N / RECEIVERS
await waitFor(async () => (await slow.ask("counts")).counts.slice(1).every((c) => c >= share), 600, "the nine fast receivers")
await stop(second)
const slowTimes = (await slow.ask("times")).times
const slowOthersPerSecond = rateOf(slowTimes, everyReceiver.slice(1))
console.log(`one slow receiver (${SLOW_MILLIS} ms): the other nine at ${fmt(slowOthersPerSecond, 0)}/s (${fmt(othersPerSecond, 0)}/s without it); the slow one got ${slowTimes[0]!.length}`)
slow.child.kill()
await engine.dispose()

console.log(
  `RESULT webhooks per_s=${fmt(perSecond, 0)} baseline_per_s=${fmt(baselinePerSecond, 0)} ratio=${fmt(perSecond / baselinePerSecond, 2)} ` +
    `p50_ms=${fmt(percentile(latencies, 50), 0)} p99_ms=${fmt(percentile(latencies, 99), 0)} rss_mb=${fmt(peakMb, 0)} ` +
    `cpu_us=${fmt(workerCpuMicros, 0)} baseline_cpu_us=${fmt(baselineCpuMicros, 0)} ` +
    `slow_others_per_s=${fmt(slowOthersPerSecond, 0)} others_per_s=${fmt(othersPerSecond, 0)} slow_others_ratio=${fmt(slowOthersPerSecond / othersPerSecond, 2)}`
)

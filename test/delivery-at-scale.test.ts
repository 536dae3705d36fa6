/**
 * Event delivery at scale, on PostgreSQL with real receivers: a slow or
 * dead receiver holds only its own few slots while other registrations'
 * deliveries flow, and two worker processes share a backlog, one of them
 * killed mid-run, with every event delivered and none sent twice at the
 * same time.
 */
import { runDispatcher, runJob, workerJob } from "@billing/worker"
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer, Logger, References, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiCaller } from "./support/Api.ts"
import { startEngine, TEST_SECRET_KEY, type TestEngine } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

const main = join(dirname(fileURLToPath(import.meta.url)), "../packages/cli/src/main.ts")

describe("event delivery at scale on postgres", () => {
  let engine: TestEngine
  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))

  /** An account with one registration for `payment.success` at `url`; its id, its registration and its API client. */
  const registered = async (url: string) => {
    const account = await engine.createAccount()
    const call = apiCaller(engine.baseUrl, await engine.token(account))
    const hook = await call("POST", "/v1/users/webhooks", { url, events: ["payment.success"] })
    expect(hook.status).toBe(201)
    return { accountId: account.accountId, webhookId: hook.body.webhookId as string, call }
  }

  /** `n` committed `payment.success` events of the account, each about its own charge. */
  const seed = (accountId: string, n: number) =>
    sql((s) => s`INSERT INTO outbox (account_id, event, body, created_at)
      SELECT ${accountId}, 'payment.success', json_build_object('event', 'payment.success', 'chargeId', ${accountId} || '_' || i, 'n', i)::text, now()
      FROM generate_series(1, ${n}) AS i`)

  /** How many deliveries to a registration are recorded as delivered. */
  const deliveredTo = async (webhookId: string) =>
    (await sql((s) => s<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND status = 'delivered'`))[0]!.n

  /** Runs the fan-out job and the dispatcher in this process until `done` answers true (polled every 20 ms), then stops them. */
  const dispatchUntil = (done: () => Promise<boolean>, seconds = 30, logging: Layer.Layer<never> = Layer.empty) =>
    engine.run(Effect.scoped(Effect.gen(function*() {
      yield* Effect.forkScoped(runJob(workerJob("fanOut", { pollInterval: "50 millis" })))
      yield* Effect.forkScoped(runDispatcher({ pollInterval: "50 millis" }))
      yield* Effect.promise(done).pipe(
        Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (finished) => finished }),
        Effect.timeout(`${seconds} seconds`)
      )
    })).pipe(Effect.provide(logging)))

  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  it("lets a fast receiver get all of its 500 events while a slow receiver holds only its 16 slots", async () => {
    // The slow receiver answers only once the fast one has had everything: an ordering, whatever the machine's pace.
    const fastDone = Promise.withResolvers<void>()
    const slow = await startReceiver(() => ({ status: 200, answerWhen: fastDone.promise }))
    const fast = await startReceiver()
    try {
      const slowOne = await registered(slow.url)
      const fastOne = await registered(fast.url)
      await seed(slowOne.accountId, 500)
      await seed(fastOne.accountId, 500)
      let slowWhenFastDone = -1
      await dispatchUntil(async () => {
        if (fast.received.length < 500) return false
        if (slowWhenFastDone < 0) slowWhenFastDone = slow.received.length
        // Then until its outcomes are written: a stop abandons what is in flight.
        return (await deliveredTo(fastOne.webhookId)) >= 500
      })
      fastDone.resolve()
      expect(fast.received).toHaveLength(500)
      // Not one slow answer had come: the slow registration had its 16 slots busy, and no more.
      expect(slowWhenFastDone).toBeGreaterThan(0)
      expect(slowWhenFastDone).toBeLessThanOrEqual(16)
      // The fast registration's counters, through the API.
      const detail = (await fastOne.call("GET", `/v1/users/webhooks/${fastOne.webhookId}`)).body
      expect(detail.deliveries).toMatchObject({ delivered: 500, failed: 0, inFlight: 0, pending: 0, oldestPendingAt: null })
      const waiting = (await slowOne.call("GET", `/v1/users/webhooks/${slowOne.webhookId}`)).body.deliveries
      expect(waiting.delivered + waiting.inFlight + waiting.pending).toBe(500)
      expect(waiting.oldestPendingAt).not.toBeNull()
    } finally {
      fastDone.resolve()
      await slow.close()
      await fast.close()
    }
  }, 60_000)

  it("hands back what it leased ahead for a receiver that turns slow, and sends it later: each delivered once, its attempt counted once", async () => {
    // Fast, then 4.5 s for the 61st to 76th requests (its 16 slots), then fast again.
    let requests = 0
    const receiver = await startReceiver(() => {
      requests++
      return { status: 200, delayMillis: requests > 60 && requests <= 76 ? 4_500 : 0 }
    })
    const one = await registered(receiver.url)
    const handedBack: Array<number> = []
    const logger = Logger.make(({ fiber, message }) => {
      const annotations = fiber.getRef(References.CurrentLogAnnotations)
      if (String(message).includes("handed back") && annotations.webhookId === one.webhookId) handedBack.push(Number(annotations.deliveries))
    })
    try {
      await seed(one.accountId, 200)
      // Until every outcome is written, not only received: a stop abandons what is in flight.
      await dispatchUntil(async () => (await deliveredTo(one.webhookId)) >= 200, 30, Layer.mergeAll(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, "Info")))
      // What waited behind the slow answers went back rather than start past its lease, then went out once.
      expect(handedBack.length).toBeGreaterThan(0)
      const ids = receiver.received.map((r) => r.headers["x-webhook-event-id"])
      expect(new Set(ids).size).toBe(200)
      const rows = await sql((s) => s<{ status: string; attempt: number }>`SELECT status, attempt FROM webhook_deliveries WHERE webhook_id = ${one.webhookId}`)
      expect(rows).toHaveLength(200)
      expect(rows.every((r) => r.status === "delivered" && r.attempt === 1)).toBe(true)
    } finally {
      await receiver.close()
    }
  }, 60_000)

  it("hands back, when it stops, what it had leased ahead, so no delivery waits out a lease no one will use", async () => {
    // Quick for 30 requests, then each answer takes 3 s: its 2 slots stay busy and its lane holds what was leased ahead.
    let requests = 0
    const receiver = await startReceiver(() => ({ status: 200, delayMillis: ++requests > 30 ? 3_000 : 0 }))
    const one = await registered(receiver.url)
    const leased = () =>
      sql((s) => s<{ n: number }>`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ${one.webhookId} AND status = 'pending' AND lease_until IS NOT NULL`)
    try {
      await seed(one.accountId, 60)
      let heldAhead = 0
      await engine.run(Effect.scoped(Effect.gen(function*() {
        yield* Effect.forkScoped(runJob(workerJob("fanOut", { pollInterval: "50 millis" })))
        yield* Effect.forkScoped(runDispatcher({ pollInterval: "50 millis", perRegistration: 2, prefetch: 8 }))
        // Until both slots wait on slow answers and the lane has filled behind them.
        yield* Effect.promise(async () => receiver.received.length >= 32 && (heldAhead = (await leased())[0]!.n) > 2).pipe(
          Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (ready) => ready }),
          Effect.timeout("20 seconds")
        )
      })))
      expect(heldAhead).toBeGreaterThan(2)
      // Stopped: only the 2 abandoned in flight are still leased; the rest are due again at once, their attempts uncounted.
      expect((await leased())[0]!.n).toBeLessThanOrEqual(2)
      const waiting = await sql((s) => s<{ attempt: number }>`SELECT attempt FROM webhook_deliveries
        WHERE webhook_id = ${one.webhookId} AND status = 'pending' AND lease_until IS NULL`)
      expect(waiting.length).toBe(60 - 30 - (await leased())[0]!.n)
      expect(waiting.every((d) => d.attempt === 0)).toBe(true)
    } finally {
      await receiver.close()
    }
  }, 60_000)

  it("sends one charge's events to a registration in the order they were committed, while different charges go at once", async () => {
    // A receiver that answers in 5 ms and notes a charge's event arriving while another of that charge is still unanswered.
    const received: Array<{ chargeId: string; n: number }> = []
    const open = new Set<string>()
    let overlaps = 0
    const server = createServer((req, res) => {
      let text = ""
      req.on("data", (chunk: Buffer) => (text += chunk.toString()))
      req.on("end", () => {
        const body = JSON.parse(text) as { chargeId: string; n: number }
        if (open.has(body.chargeId)) overlaps++
        open.add(body.chargeId)
        received.push(body)
        setTimeout(() => {
          open.delete(body.chargeId)
          res.writeHead(200).end()
        }, 5)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const one = await registered(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`)
      // 60 events over 3 charges, interleaved: charge i % 3, in the order of n.
      await sql((s) => s`INSERT INTO outbox (account_id, event, body, created_at)
        SELECT ${one.accountId}, 'payment.success', json_build_object('event', 'payment.success', 'chargeId', 'cha_' || (i % 3), 'n', i)::text, now()
        FROM generate_series(1, 60) AS i ORDER BY i`)
      await dispatchUntil(async () => received.length >= 60)
      for (const charge of ["cha_0", "cha_1", "cha_2"]) {
        const order = received.filter((b) => b.chargeId === charge).map((b) => b.n)
        expect(order, charge).toEqual([...order].sort((a, b) => a - b))
        expect(order).toHaveLength(20)
      }
      // One charge's next event waits for the answer to its last; the three charges go side by side.
      expect(overlaps).toBe(0)
      expect(new Set(received.slice(0, 3).map((b) => b.chargeId)).size).toBe(3)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it("fails a receiver that never answers at 5 s each, while another account's deliveries complete meanwhile", async () => {
    // A receiver that never answers, and counts the requests it holds open: the worker gives up on one by closing it.
    let open = 0
    let mostOpen = 0
    let received = 0
    // How many of the live account's events had arrived when the worker first gave up on the dead receiver.
    let liveAtFirstGiveUp = -1
    const live = await startReceiver()
    const dead = createServer((req) => {
      received++
      mostOpen = Math.max(mostOpen, ++open)
      req.resume()
      req.socket.once("close", () => {
        open--
        if (liveAtFirstGiveUp < 0) liveAtFirstGiveUp = live.received.length
      })
    })
    await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve))
    try {
      const deadOne = await registered(`http://127.0.0.1:${(dead.address() as AddressInfo).port}/hooks`)
      const liveOne = await registered(live.url)
      await seed(deadOne.accountId, 20)
      await seed(liveOne.accountId, 300)
      const failed = async () => {
        const rows = await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM webhook_deliveries WHERE webhook_id = ${deadOne.webhookId} AND status = 'failed'`)
        return rows[0]!.n === "20"
      }
      await dispatchUntil(failed, 40)
      // 20 deliveries, 16 at a time (its slots): a first round of 16, then the other 4 once those were given up.
      expect(received).toBe(20)
      expect(mostOpen).toBe(16)
      // Orderings, not durations: the live account's 300 all came before the worker gave up on the first dead one.
      expect(liveAtFirstGiveUp).toBe(300)
      const errors = await sql((s) => s<{ error: string }>`SELECT DISTINCT error FROM webhook_deliveries WHERE webhook_id = ${deadOne.webhookId}`)
      expect(errors.map((e) => e.error)).toEqual(["no answer within 5000 ms"])
      expect((await deadOne.call("GET", `/v1/users/webhooks/${deadOne.webhookId}`)).body.deliveries).toMatchObject({ delivered: 0, failed: 20, pending: 0 })
    } finally {
      dead.closeAllConnections()
      dead.close()
      await live.close()
    }
  }, 60_000)

  // Correctness only, at a size that proves it (the first worker holds leases in flight when it is killed);
  // how fast workers deliver is bench/webhooks.ts's (`npm run bench -- webhooks`).
  it("delivers 2,000 events with two worker processes, one killed mid-run: every one sent and answered, none sent twice at once, the killed worker's leased again under their own ids", async () => {
    // A receiver that notices one delivery arriving while the same one is still being answered.
    const arrivals = new Map<string, number>()
    const open = new Set<string>()
    let overlaps = 0
    const server = createServer((req, res) => {
      const id = String(req.headers["x-webhook-event-id"])
      if (open.has(id)) overlaps++
      open.add(id)
      arrivals.set(id, (arrivals.get(id) ?? 0) + 1)
      req.resume()
      req.on("end", () =>
        setTimeout(() => {
          open.delete(id)
          if (!res.destroyed) res.writeHead(200).end()
        }, 2))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
    const workers: Array<ChildProcess> = []
    try {
      const accounts = await Promise.all(Array.from({ length: 4 }, () => registered(url)))
      for (const a of accounts) await seed(a.accountId, 500)
      const start = () => {
        const env = { ...process.env, DATABASE_URL: (engine.config as { databaseUrl: string }).databaseUrl, BILLING_SECRET_KEY: TEST_SECRET_KEY, BILLING_LOG_LEVEL: "error" }
        const child = spawn(process.execPath, [main, "worker"], { env, stdio: ["ignore", "ignore", "inherit"] })
        workers.push(child)
        return child
      }
      const received = (n: number) => expect.poll(() => arrivals.size, { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(n)
      // The first worker is delivering (deliveries in flight, results not yet written) when it is killed.
      const killed = start()
      await received(200)
      start()
      await received(400)
      killed.kill("SIGKILL")
      // Every delivery ends with an outcome: the killed worker's, left in flight, once their lease (10 s) runs out and the other
      // worker sends them again. Delivered, or failed only for an answer later than 5 s (the receiver shares the machine with
      // the other test files, and the spec retries nothing by itself).
      await expect.poll(async () => (await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM webhook_deliveries
        WHERE webhook_id IN ${s.in(accounts.map((a) => a.webhookId))} AND status <> 'pending'`))[0]!.n, { timeout: 60_000, interval: 200 }).toBe("2000")
      const ids = await sql((s) => s<{ id: string; attempt: number; status: string; error: string | null }>`SELECT id, attempt, status, error
        FROM webhook_deliveries WHERE webhook_id IN ${s.in(accounts.map((a) => a.webhookId))}`)
      expect(ids).toHaveLength(2_000)
      expect(ids.filter((d) => d.status !== "delivered" && d.error !== "no answer within 5000 ms")).toEqual([])
      expect(new Set(arrivals.keys())).toEqual(new Set(ids.map((d) => d.id)))
      expect(overlaps).toBe(0)
      // The killed worker's leased deliveries were leased again once their lease ran out, and reached the receiver under their own
      // x-webhook-event-id (every id arrived, and none other).
      expect(ids.filter((d) => d.attempt >= 2).length).toBeGreaterThan(0)
    } finally {
      for (const w of workers) w.kill("SIGKILL")
      server.closeAllConnections()
      server.close()
    }
  }, 120_000)
})

/**
 * The worker's job loop: fairness between jobs, draining a backlog, surviving
 * a failing batch, stopping on interruption (in memory, under `TestClock`);
 * then the real jobs of `WorkerLive` on PostgreSQL.
 */
import { SandboxMailbox } from "@billing/core"
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { Clock, type Duration, Effect, Exit, Fiber, Layer, Logger, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { startEngine, type TestEngine } from "../../../test/support/Engine.ts"
import { startReceiver } from "../../../test/support/Receiver.ts"
import { type ClaimableJob, forkJobs, runJob } from "../src/ClaimableJob.ts"
import { dispatcherOptions, workerJobs, WorkerLive, type WorkerOptions } from "../src/Worker.ts"

interface Batch {
  readonly at: number
  readonly limit: number
  readonly handled: number
}

/**
 * An in-memory claimable queue of `rows` rows whose batches each take
 * `batchTime` of clock time; `pending` may be raised to make new rows due.
 */
const queueJob = (options: {
  readonly name: string
  readonly rows: number
  readonly batchSize: number
  readonly pollInterval: Duration.Input
  readonly batchTime?: Duration.Input
}) => {
  const state = { pending: options.rows, batches: [] as Array<Batch> }
  const job: ClaimableJob = {
    name: options.name,
    batchSize: options.batchSize,
    pollInterval: options.pollInterval,
    runBatch: (limit) =>
      Effect.gen(function*() {
        const claimed = Math.min(limit, state.pending)
        if (claimed > 0 && options.batchTime !== undefined) yield* Effect.sleep(options.batchTime)
        state.pending -= claimed
        state.batches.push({ at: yield* Clock.currentTimeMillis, limit, handled: claimed })
        return claimed
      })
  }
  return { job, state }
}

const busy = (batches: ReadonlyArray<Batch>) => batches.filter((b) => b.handled > 0)

/** Collects the messages logged at level Error. */
const errorLog = () => {
  const messages: Array<unknown> = []
  const logger = Logger.make((options) => {
    if (options.logLevel === "Error") messages.push((options.message as ReadonlyArray<unknown>)[0])
  })
  return { messages, layer: Logger.layer([logger]) }
}

describe("claimable job loop", () => {
  it.effect("a job with 10,000 rows does not delay another job's row by more than one poll interval", () =>
    Effect.gen(function*() {
      // 100 batches of 100 rows, one second each: a 100-second backlog.
      const expiry = queueJob({ name: "expiry", rows: 10_000, batchSize: 100, pollInterval: "250 millis", batchTime: "1 second" })
      const delivery = queueJob({ name: "delivery", rows: 0, batchSize: 50, pollInterval: "250 millis" })
      yield* forkJobs([expiry.job, delivery.job])

      yield* TestClock.adjust("5100 millis")
      delivery.state.pending = 1 // a webhook falls due at 5.1 s
      yield* TestClock.adjust("250 millis")
      // Idle delivery ticks fall at 0, 250, ..., 5000, 5250 ms: the next one after 5.1 s sends it.
      expect(busy(delivery.state.batches)).toEqual([{ at: 5_250, limit: 50, handled: 1 }])
      // Meanwhile expiry has finished its batches ending at 1, 2, 3, 4 and 5 s, and is in its sixth.
      expect(expiry.state.pending).toBe(10_000 - 5 * 100)

      yield* TestClock.adjust("95 seconds")
      expect(expiry.state.pending).toBe(0)
      expect(busy(expiry.state.batches).map((b) => b.at)).toEqual(Array.from({ length: 100 }, (_, i) => (i + 1) * 1_000))
    }))

  it.effect("drains a backlog larger than its batch size without waiting a poll interval between full batches", () =>
    Effect.gen(function*() {
      const queue = queueJob({ name: "backlog", rows: 250, batchSize: 100, pollInterval: "1 minute" })
      yield* forkJobs([queue.job])
      yield* TestClock.adjust(0)
      // 250 rows in batches of 100: 100, 100, 50, then an empty batch ends the tick; all at time 0.
      expect(queue.state.batches).toEqual([
        { at: 0, limit: 100, handled: 100 },
        { at: 0, limit: 100, handled: 100 },
        { at: 0, limit: 100, handled: 50 },
        { at: 0, limit: 100, handled: 0 }
      ])
      queue.state.pending = 1
      yield* TestClock.adjust("59 seconds")
      expect(queue.state.batches).toHaveLength(4)
      yield* TestClock.adjust("1 second")
      expect(queue.state.batches.slice(4)).toEqual([{ at: 60_000, limit: 100, handled: 1 }, { at: 60_000, limit: 100, handled: 0 }])
    }))

  it.effect("a failing batch is logged and the job runs again at the next tick", () => {
    const log = errorLog()
    return Effect.gen(function*() {
      const calls: Array<number> = []
      // A typed failure, then a defect, then three rows, then nothing.
      const outcomes: Array<Effect.Effect<number, Error>> = [
        Effect.fail(new Error("database restarting")),
        Effect.die("a bug on one row"),
        Effect.succeed(3)
      ]
      const flaky: ClaimableJob<Error> = {
        name: "flaky",
        batchSize: 10,
        pollInterval: "1 second",
        runBatch: () =>
          Effect.gen(function*() {
            calls.push(yield* Clock.currentTimeMillis)
            return yield* (outcomes.shift() ?? Effect.succeed(0))
          })
      }
      yield* forkJobs([flaky])
      yield* TestClock.adjust("2500 millis")
      // Ticks at 0 (fails), 1 s (dies), 2 s (3 rows, then an empty batch).
      expect(calls).toEqual([0, 1_000, 2_000, 2_000])
      expect(log.messages).toEqual(["flaky batch failed", "flaky batch failed"])
      yield* TestClock.adjust("1 second")
      expect(calls).toEqual([0, 1_000, 2_000, 2_000, 3_000])
    }).pipe(Effect.provide(log.layer))
  })

  it.effect("interruption stops the loop, even in the middle of a batch, and is not logged as a failure", () => {
    const log = errorLog()
    return Effect.gen(function*() {
      const queue = queueJob({ name: "slow", rows: 1_000, batchSize: 100, pollInterval: "1 second", batchTime: "1 second" })
      const fiber = yield* Effect.forkChild(runJob(queue.job))
      yield* TestClock.adjust("2500 millis")
      yield* Fiber.interrupt(fiber)
      assert.isTrue(Exit.hasInterrupts(yield* Fiber.await(fiber)))
      yield* TestClock.adjust("1 minute")
      // Batches ended at 1 s and 2 s; the third, begun at 2 s, never completed.
      expect(queue.state.batches.map((b) => b.at)).toEqual([1_000, 2_000])
      expect(queue.state.pending).toBe(800)
      expect(log.messages).toEqual([])
    }).pipe(Effect.provide(log.layer))
  })
})

describe("WorkerOptions", () => {
  const tuning = (options?: Parameters<typeof workerJobs>[0]) =>
    workerJobs(options).map(({ batchSize, name, pollInterval }) => ({ name, batchSize, pollInterval }))

  const billingRun = (pollInterval: string) => [
    { name: "periodEnd", batchSize: 100, pollInterval },
    { name: "issueCycles", batchSize: 100, pollInterval },
    { name: "retryCycles", batchSize: 50, pollInterval },
    { name: "stalledCards", batchSize: 50, pollInterval },
    { name: "overdueCycles", batchSize: 100, pollInterval },
    { name: "dunningEnd", batchSize: 100, pollInterval }
  ]
  const wallet = (pollInterval: string) => [
    { name: "receivables", batchSize: 250, pollInterval },
    { name: "payouts", batchSize: 50, pollInterval },
    { name: "refunds", batchSize: 50, pollInterval }
  ]
  const onboarding = (pollInterval: string) => [{ name: "onboarding", batchSize: 50, pollInterval }]
  // Each note is a call to the city: smaller batches.
  const notas = (pollInterval: string) => [{ name: "notasDue", batchSize: 25, pollInterval }, { name: "notasAnswered", batchSize: 25, pollInterval }]

  it("runs the claimable jobs with their defaults (250 ms; 500 events fanned out, 100 rows, 50 card outcomes), the billing run's, the wallet's, onboarding and the notes'", () => {
    expect(tuning()).toEqual([
      { name: "fanOut", batchSize: 500, pollInterval: "250 millis" },
      { name: "sandboxPayments", batchSize: 100, pollInterval: "250 millis" },
      // Each charge is a call to the acquirer: smaller batches.
      { name: "cardOutcomes", batchSize: 50, pollInterval: "250 millis" },
      { name: "expiry", batchSize: 100, pollInterval: "250 millis" },
      { name: "notifications", batchSize: 100, pollInterval: "250 millis" },
      ...billingRun("250 millis"),
      ...wallet("250 millis"),
      ...onboarding("250 millis"),
      ...notas("250 millis")
    ])
  })

  it("keeps pollInterval and fanOutBatch, and lets one job's own settings win", () => {
    expect(tuning({
      pollInterval: "1 second",
      fanOutBatch: 7,
      deliveryBatch: 9,
      jobs: { fanOut: { batch: 20 }, expiry: { batch: 500, pollInterval: "5 seconds" } }
    })).toEqual([
      { name: "fanOut", batchSize: 20, pollInterval: "1 second" },
      { name: "sandboxPayments", batchSize: 100, pollInterval: "1 second" },
      { name: "cardOutcomes", batchSize: 50, pollInterval: "1 second" },
      { name: "expiry", batchSize: 500, pollInterval: "5 seconds" },
      { name: "notifications", batchSize: 100, pollInterval: "1 second" },
      ...billingRun("1 second"),
      ...wallet("1 second"),
      ...onboarding("1 second"),
      ...notas("1 second")
    ])
  })

  it("gives the dispatcher the worker's poll interval and deliveryBatch as its lease batch, its own settings winning", () => {
    expect(dispatcherOptions({ pollInterval: "1 second", deliveryBatch: 9 })).toEqual({ pollInterval: "1 second", leaseBatch: 9 })
    expect(dispatcherOptions({ deliveryBatch: 9, dispatcher: { leaseBatch: 50, perRegistration: 2 } })).toEqual({ leaseBatch: 50, perRegistration: 2 })
    expect(dispatcherOptions()).toEqual({})
  })
})

describe("WorkerLive on postgres", () => {
  let engine: TestEngine
  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" }
  const client = async (account: Awaited<ReturnType<TestEngine["createAccount"]>>) => {
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    return async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${engine.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      return response.json()
    }
  }

  /** Runs `WorkerLive(options)` until `done` answers true (polled every 20 ms, at most 30 s), then stops it. */
  const runWorkerUntil = (options: WorkerOptions, done: () => Promise<boolean>) =>
    engine.run(Effect.scoped(Effect.gen(function*() {
      yield* Layer.build(WorkerLive(options))
      yield* Effect.promise(done).pipe(
        Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (finished) => finished }),
        Effect.timeout("30 seconds")
      )
    })))

  it("runs every job with no pass called: a sandbox payment is confirmed, e-mailed and its webhook sent; an overdue charge expires", async () => {
    const receiver = await startReceiver()
    try {
      const api = await client(await engine.createAccount())
      await api("POST", "/v1/users/webhooks", { url: receiver.url, events: ["payment.success", "charge.expired"] })
      const paid = await api("POST", "/v1/charges", { paymentMethod: "pix", amount: 12, customer, notifications: ["oneoff.payment.success"] })
      expect((await api("POST", `/v1/wallet/pay/${paid.chargeId}`)).status).toBe("PROCESSING")
      const overdue = await api("POST", "/v1/charges/pix", { amount: 6 })
      await sql((s) => s`UPDATE charges SET expires_at = now() - interval '1 second' WHERE id = ${overdue.chargeId}`)

      const mailed = () => engine.run(Effect.map(SandboxMailbox, (m) => m.messages.some((x) => x.body.includes(paid.chargeId))))
      await runWorkerUntil({ pollInterval: "20 millis" }, async () => receiver.received.length >= 2 && (await mailed()))
      const events = receiver.received.map((r) => JSON.parse(r.body) as { event: string; chargeId: string })
      expect(events.map(({ chargeId, event }) => ({ chargeId, event })).sort((a, b) => a.event.localeCompare(b.event))).toEqual([
        { event: "charge.expired", chargeId: overdue.chargeId },
        { event: "payment.success", chargeId: paid.chargeId }
      ])
      expect((await api("GET", `/v1/charges/${paid.chargeId}`)).status).toBe("PAID")
      expect((await api("GET", `/v1/charges/${overdue.chargeId}`)).status).toBe("EXPIRED")
      const mailbox = await engine.run(Effect.map(SandboxMailbox, (m) => m.messages.filter((x) => x.body.includes(paid.chargeId))))
      expect(mailbox.map((m) => [m.to, m.subject])).toEqual([["ana@example.com", "Pagamento de R$ 12,00 confirmado"]])
    } finally {
      await receiver.close()
    }
  }, 60_000)

  it("sends an e-mail while 10,000 charges are being expired, without waiting for the backlog", async () => {
    const account = await engine.createAccount({ name: "Loja Cheia" })
    const api = await client(account)
    // 10,000 overdue copies of one real charge (new ids and txids), so the expiry job has 100 full batches to work through.
    const template = await api("POST", "/v1/charges/pix", { amount: 5 })
    // (LATERAL: `(f(x)).*` would call f once per column.)
    await sql((s) => s`INSERT INTO charges
      SELECT copy.* FROM charges c, generate_series(1, 10000) g,
        LATERAL jsonb_populate_record(NULL::charges, to_jsonb(c) || jsonb_build_object(
          'id', c.id || '_' || g,
          'txid', left(c.txid, length(c.txid) - 5) || lpad(g::text, 5, '0'),
          'expires_at', now() - interval '1 second')) copy
      WHERE c.id = ${template.chargeId}`)
    const mailed = await api("POST", "/v1/charges", { paymentMethod: "pix", amount: 12, customer, notifications: ["oneoff.pix.generated"] })
    const expired = () =>
      sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM charges WHERE account_id = ${account.accountId} AND status = 'EXPIRED'`)
        .then((rows) => Number(rows[0]!.n))

    await runWorkerUntil({ pollInterval: "1 second" }, async () => (await expired()) === 10_000)

    const [mail] = await sql((s) => s<{ status: string; sent_at: Date }>`SELECT status, sent_at FROM notifications WHERE charge_id = ${mailed.chargeId}`)
    const [expiry] = await sql((s) => s<{ n: string; before: string }>`SELECT count(*)::text AS n,
        count(*) FILTER (WHERE created_at < ${mail!.sent_at})::text AS before FROM outbox
      WHERE account_id = ${account.accountId} AND event = 'charge.expired'`)
    expect(mail!.status).toBe("sent")
    expect(Number(expiry!.n)).toBe(10_000)
    // An ordering, not a duration (the pace in time is the in-memory test's, under TestClock): behind the
    // expiry backlog (one fiber draining the charge queues in turn) the e-mail would wait for all 10,000
    // expiries; beside it, it goes out in the first tick, with most of the backlog still to expire.
    expect(Number(expiry!.before)).toBeLessThan(5_000)
  }, 120_000)
})

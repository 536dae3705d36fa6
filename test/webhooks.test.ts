/**
 * Webhook registration, signed delivery from the outbox by the worker,
 * failure recording, manual retry, test deliveries and concurrent workers,
 * through real HTTP on PostgreSQL (and the management routes on PGlite).
 */
import { type AccountId, Billing, type EventName, Outbox, Transactor, verifyWebhookSignature, WebhookDeliveries, WebhookDeliveryId, WebhookId, Webhooks } from "@billing/core"
import { SqlClient } from "effect/sql"
import { deliveryPass } from "@billing/worker"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseKinds, engineConfig, startEngine, type TestEngine, workerRuntime } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

type Account = Awaited<ReturnType<TestEngine["createAccount"]>>

const json = (method: string, body?: unknown) => ({
  method,
  headers: { "content-type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) })
})

/** Commits an event to the outbox as a use case would, in its own transaction. */
const emit = (engine: TestEngine, accountId: AccountId, event: EventName, payload: Record<string, unknown>) =>
  engine.run(Effect.gen(function*() {
    const outbox = yield* Outbox
    const transactor = yield* Transactor
    yield* transactor.withTransaction(outbox.append({ accountId, event, body: JSON.stringify({ event, ...payload }) }))
  }))

describe.each(databaseKinds)("webhook management on %s", (kind) => {
  let engine: TestEngine
  let account: Account
  let auth: Record<string, string>
  beforeAll(async () => {
    engine = await startEngine(kind)
    account = await engine.createAccount()
    auth = { authorization: `Bearer ${await engine.token(account, "webhooks/write webhooks/read")}` }
  })
  afterAll(() => engine?.dispose())

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${engine.baseUrl}/v1/users/webhooks${path}`, { ...init, headers: { ...auth, ...(init.headers as object) } })

  it("registers, lists, reads, updates and deletes a registration; the secret is shown once", async () => {
    const created = await call("", json("POST", { url: "https://example.com/hooks", events: ["payment.success"] }))
    expect(created.status).toBe(201)
    const registration = await created.json()
    expect(registration.webhookId).toMatch(/^SANDBOX_uwh_/)
    expect(registration.secret).toMatch(/^whsec_/)
    expect(registration.events).toEqual(["payment.success"])

    const list = await (await call("")).json()
    expect(list.items.map((r: { webhookId: string }) => r.webhookId)).toContain(registration.webhookId)
    expect(list.items[0].secret).toBeUndefined()

    const updated = await call(`/${registration.webhookId}`, json("PUT", { status: "inactive", events: [] }))
    expect(updated.status).toBe(200)
    expect(await updated.json()).toMatchObject({ status: "inactive", events: [] })

    const removed = await call(`/${registration.webhookId}`, { method: "DELETE" })
    expect(removed.status).toBe(200)
    const gone = await call(`/${registration.webhookId}`)
    expect(gone.status).toBe(404)
    expect((await gone.json()).error.code).toBe("WEBHOOK_NOT_FOUND")
  })

  it("keeps registrations private to their account", async () => {
    const other = await engine.createAccount({ name: "Outra" })
    const otherAuth = { authorization: `Bearer ${await engine.token(other, "webhooks/read")}` }
    const mine = await (await call("", json("POST", { url: "https://example.com/mine" }))).json()
    const peek = await fetch(`${engine.baseUrl}/v1/users/webhooks/${mine.webhookId}`, { headers: otherAuth })
    expect(peek.status).toBe(404)
    expect((await peek.json()).error.code).toBe("WEBHOOK_NOT_FOUND")
  })

  it("answers bad input with 400 INVALID_DATA naming the field, and stores nothing", async () => {
    const before = (await (await call("")).json()).items.length
    const cases: Array<[unknown, string]> = [
      [{ url: 42 }, "url"],
      [{}, "url"],
      [{ url: "not a url" }, "url"],
      [{ url: "ftp://example.com" }, "url"],
      [{ url: "https://example.com", events: ["charge.paid"] }, "events"],
      [{ url: "https://example.com", events: "payment.success" }, "events"],
      [{ url: "https://example.com", secret: "short" }, "secret"]
    ]
    for (const [body, field] of cases) {
      const response = await call("", json("POST", body))
      expect(response.status, JSON.stringify(body)).toBe(400)
      const error = (await response.json()).error
      expect(error.code).toBe("INVALID_DATA")
      expect(JSON.stringify(error.details)).toContain(field)
    }
    const malformed = await call("", { method: "POST", headers: { "content-type": "application/json" }, body: "{\"url\":" })
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).error.code).toBe("INVALID_DATA")
    const textBody = await call("", { method: "POST", headers: { "content-type": "text/plain" }, body: "url=x" })
    expect(textBody.status).toBe(400)
    expect((await textBody.json()).error.code).toBe("INVALID_DATA")
    const badLimit = await call("/events?limit=abc")
    expect(badLimit.status).toBe(400)
    expect((await badLimit.json()).error.code).toBe("INVALID_DATA")
    const badStatus = await call("/whatever", json("PUT", { status: "paused" }))
    expect(badStatus.status).toBe(400)
    expect((await (await call("")).json()).items.length).toBe(before)
  })

  it("accepts and ignores fields it does not know", async () => {
    const response = await call("", json("POST", { url: "https://example.com/x", description: "extra", retries: 3 }))
    expect(response.status).toBe(201)
  })

  it("answers 404 WEBHOOK_EVENT_NOT_FOUND when retrying an unknown delivery", async () => {
    const response = await call("/whe_nope/retry", { method: "POST" })
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe("WEBHOOK_EVENT_NOT_FOUND")
  })
})

// On PGlite too: the embedded database is the default of `billing serve`, whose worker delivers.
describe.each(databaseKinds)("webhook delivery on %s", (kind) => {
  let engine: TestEngine
  let account: Account
  let auth: Record<string, string>
  beforeAll(async () => {
    engine = await startEngine(kind)
    account = await engine.createAccount()
    auth = { authorization: `Bearer ${await engine.token(account, "webhooks/write webhooks/read")}` }
  })
  afterAll(() => engine?.dispose())

  const register = async (body: Record<string, unknown>) => {
    const response = await fetch(`${engine.baseUrl}/v1/users/webhooks`, { ...json("POST", body), headers: { ...auth, "content-type": "application/json" } })
    expect(response.status).toBe(201)
    return (await response.json()) as { webhookId: string; secret: string }
  }
  const pass = () => engine.run(deliveryPass())
  const deliveries = async () =>
    (await (await fetch(`${engine.baseUrl}/v1/users/webhooks/events`, { headers: auth })).json()).items as Array<{
      webhookEventId: string
      status: string
      attempt: number
      error: string | null
      responseStatusCode: number | null
      webhookId: string
    }>

  /** Leases what is due for 30 s from `now`, as a worker would; the leases of `webhookId`'s deliveries. */
  const leaseFor = async (webhookId: string, now: number) => {
    const leaseUntil = new Date(now + 30_000)
    const leased = await engine.run(Effect.flatMap(WebhookDeliveries, (d) =>
      d.lease({ limit: 100, room: { others: 100, of: new Map() }, now: new Date(now), leaseUntil })))
    return leased.filter((d) => d.webhookId === webhookId).map((d) => ({ id: d.id, leaseUntil }))
  }
  /** The leases of `webhookId`'s deliveries run out (moved into the past instead of waiting 30 s): the worker holding them died. */
  const expireLeases = (webhookId: string) =>
    engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`UPDATE webhook_deliveries SET lease_until = now() - interval '1 second' WHERE webhook_id = ${webhookId} AND lease_until IS NOT NULL`))

  it("POSTs each event to its subscribers, signed so that the receiver helper verifies it", async () => {
    const receiver = await startReceiver()
    try {
      const hook = await register({ url: receiver.url, events: ["payment.success"], authToken: "static-token-123" })
      await emit(engine, account.accountId, "payment.success", { chargeId: "cha_1", amount: 10 })
      await emit(engine, account.accountId, "refund.requested", { refundId: "ref_1" }) // not subscribed
      await pass()
      expect(receiver.received).toHaveLength(1)
      const got = receiver.received[0]!
      expect(JSON.parse(got.body)).toEqual({ event: "payment.success", chargeId: "cha_1", amount: 10 })
      expect(got.headers["x-access-token"]).toBe("static-token-123")
      expect(got.headers["content-type"]).toBe("application/json")
      const header = got.headers["x-webhook-signature"] as string
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)

      expect(await verifyWebhookSignature({ header, body: got.body, secret: hook.secret })).toMatchObject({ valid: true })
      expect(await verifyWebhookSignature({ header, body: got.body.replace("10", "99"), secret: hook.secret }))
        .toEqual({ valid: false, reason: "bad_signature" })
      expect(await verifyWebhookSignature({ header, body: got.body, secret: "whsec_wrong" }))
        .toEqual({ valid: false, reason: "bad_signature" })
      expect(await verifyWebhookSignature({ header, body: got.body, secret: hook.secret, nowMillis: got.at + 301_000 }))
        .toEqual({ valid: false, reason: "stale" })

      const list = await deliveries()
      const mine = list.filter((d) => d.webhookId === hook.webhookId)
      expect(mine).toHaveLength(1)
      expect(mine[0]).toMatchObject({ status: "delivered", attempt: 1, responseStatusCode: 200 })

      // The event was fanned out once: a second pass sends nothing again.
      await pass()
      expect(receiver.received).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })

  it("records a receiver's 500 as failed, does not retry by itself, and retry delivers the same body with a new signature", async () => {
    let healthy = false
    const receiver = await startReceiver(() => ({ status: healthy ? 204 : 500 }))
    try {
      const hook = await register({ url: receiver.url, events: ["refund.confirmed"] })
      await emit(engine, account.accountId, "refund.confirmed", { refundId: "ref_500" })
      await pass()
      await pass()
      expect(receiver.received).toHaveLength(1)
      const failed = (await deliveries()).find((d) => d.webhookId === hook.webhookId)!
      expect(failed).toMatchObject({ status: "failed", responseStatusCode: 500, attempt: 1 })
      expect(failed.error).toContain("500")

      healthy = true
      // A new `t`, to the millisecond: the retry is signed once the clock has passed the instant the first was received.
      while (Date.now() <= receiver.received[0]!.at) await new Promise((r) => setImmediate(r))
      const retried = await fetch(`${engine.baseUrl}/v1/users/webhooks/${failed.webhookEventId}/retry`, { method: "POST", headers: auth })
      expect(retried.status).toBe(200)
      expect(await retried.json()).toMatchObject({ webhookEventId: failed.webhookEventId, status: "delivered", attempt: 2 })
      expect(receiver.received).toHaveLength(2)
      const [first, second] = receiver.received
      expect(second!.body).toBe(first!.body)
      expect(second!.headers["x-webhook-signature"]).not.toBe(first!.headers["x-webhook-signature"])
      expect(await verifyWebhookSignature({ header: second!.headers["x-webhook-signature"] as string, body: second!.body, secret: hook.secret }))
        .toMatchObject({ valid: true })
      const after = (await deliveries()).find((d) => d.webhookEventId === failed.webhookEventId)!
      expect(after).toMatchObject({ status: "delivered", attempt: 2 })
    } finally {
      await receiver.close()
    }
  })

  it("records a receiver that takes more than 5 s as failed, and retry then delivers", async () => {
    let slow = true
    // The slow answer comes only once the pass is over: the pass can only end by giving up on it.
    const passOver = Promise.withResolvers<void>()
    const receiver = await startReceiver(() => (slow ? { status: 200, answerWhen: passOver.promise } : { status: 200 }))
    try {
      const hook = await register({ url: receiver.url, events: ["charge.expired"] })
      await emit(engine, account.accountId, "charge.expired", { chargeId: "cha_slow" })
      await pass()
      passOver.resolve()
      expect(receiver.received).toHaveLength(1)
      const failed = (await deliveries()).find((d) => d.webhookId === hook.webhookId)!
      expect(failed.status).toBe("failed")
      // Given up at the spec's 5 s limit.
      expect(failed.error).toBe("no answer within 5000 ms")
      slow = false
      const retried = await fetch(`${engine.baseUrl}/v1/users/webhooks/${failed.webhookEventId}/retry`, { method: "POST", headers: auth })
      expect(await retried.json()).toMatchObject({ status: "delivered" })
    } finally {
      passOver.resolve()
      await receiver.close()
    }
  }, 20_000)

  it("a delivery leased by a worker that died is sent by another once the lease runs out, never before", async () => {
    const receiver = await startReceiver()
    try {
      const hook = await register({ url: receiver.url, events: ["subscription.renewed"] })
      await emit(engine, account.accountId, "subscription.renewed", { subscriptionId: "sub_dead" })
      // A worker fans the event out and leases the delivery, then dies before POSTing.
      await engine.run(Billing.fanOut(100))
      expect(await leaseFor(hook.webhookId, Date.now())).toHaveLength(1)
      // While the lease holds, other workers leave the row alone.
      await pass()
      expect(receiver.received).toHaveLength(0)
      await expireLeases(hook.webhookId)
      await pass()
      expect(receiver.received).toHaveLength(1)
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ subscriptionId: "sub_dead" })
      const delivery = (await deliveries()).find((d) => d.webhookId === hook.webhookId)!
      expect(delivery).toMatchObject({ status: "delivered", attempt: 2 })
    } finally {
      await receiver.close()
    }
  })

  it("a leased delivery handed back unsent is due again at once with its attempt uncounted; a hand-back under a lease it no longer holds changes nothing", async () => {
    const receiver = await startReceiver()
    try {
      const hook = await register({ url: receiver.url, events: ["subscription.expired"] })
      await emit(engine, account.accountId, "subscription.expired", { subscriptionId: "sub_handed_back" })
      await engine.run(Billing.fanOut(100))
      const lease = (now: number) => leaseFor(hook.webhookId, now)
      const release = (leases: ReadonlyArray<{ id: WebhookDeliveryId; leaseUntil: Date }>) => engine.run(Effect.flatMap(WebhookDeliveries, (d) => d.release(leases)))
      const mine = async () => (await deliveries()).find((d) => d.webhookId === hook.webhookId)!

      const first = await lease(Date.now())
      expect(first).toHaveLength(1)
      // Under a lease, the delivery reads as in flight.
      expect(await mine()).toMatchObject({ status: "sending", attempt: 1 })
      await release(first)
      expect(await mine()).toMatchObject({ status: "pending", attempt: 0 })

      // Another worker leases it; a late hand-back under the first lease must not take it from that worker.
      const second = await lease(Date.now() + 1_000)
      expect(second).toHaveLength(1)
      await release(first)
      expect(await mine()).toMatchObject({ status: "sending", attempt: 1 })
      // That worker dies; its lease runs out and the delivery goes out once.
      await expireLeases(hook.webhookId)
      await pass()
      expect(receiver.received).toHaveLength(1)
      expect(await mine()).toMatchObject({ status: "delivered", attempt: 2 })
    } finally {
      await receiver.close()
    }
  })

  it("records an outcome only under the lease it was sent under: one that comes after another worker leased the delivery again counts nothing", async () => {
    const hook = await register({ url: "http://127.0.0.1:1/hooks", events: ["subscription.expired"] })
    await emit(engine, account.accountId, "subscription.expired", { subscriptionId: "sub_late_outcome" })
    await engine.run(Billing.fanOut(100))
    const leaseAt = async (now: number) => (await leaseFor(hook.webhookId, now))[0]!
    const outcome = (id: WebhookDeliveryId, lease: Date | null) => ({
      id,
      webhookId: WebhookId.make(hook.webhookId),
      event: "subscription.expired",
      status: "delivered" as const,
      responseStatusCode: 200,
      error: null,
      at: new Date(),
      lease
    })
    const record = (o: ReturnType<typeof outcome>) => engine.run(Effect.flatMap(WebhookDeliveries, (d) => d.completeMany([o])))
    const counters = () => engine.run(Effect.flatMap(WebhookDeliveries, (d) => d.counters(WebhookId.make(hook.webhookId))))

    // A worker leases it and is slow to record; its lease runs out and another worker leases it.
    // A second later: a lease is named by its end, and two taken in the same millisecond would be one.
    const leasedAt = Date.now()
    const first = await leaseAt(leasedAt)
    await expireLeases(hook.webhookId)
    const second = await leaseAt(leasedAt + 1_000)
    expect(second.id).toBe(first.id)
    await record(outcome(first.id, first.leaseUntil))
    expect((await deliveries()).find((d) => d.webhookEventId === first.id)).toMatchObject({ status: "sending", attempt: 2 })
    expect(await counters()).toMatchObject({ delivered: 0, inFlight: 1 })
    // The worker holding it records it.
    await record(outcome(first.id, second.leaseUntil))
    expect((await deliveries()).find((d) => d.webhookEventId === first.id)).toMatchObject({ status: "delivered", attempt: 2 })
    expect(await counters()).toMatchObject({ delivered: 1, inFlight: 0 })
  })

  it("fails what a removed registration had waiting, leased by a worker or not", async () => {
    const hook = await register({ url: "http://127.0.0.1:1/hooks", events: ["subscription.expired"] })
    for (const id of ["sub_removed_1", "sub_removed_2"]) await emit(engine, account.accountId, "subscription.expired", { subscriptionId: id })
    await engine.run(Billing.fanOut(100))
    // One of the two leased by a worker (the other waits behind nothing: different subscriptions).
    const now = Date.now()
    await engine.run(Effect.flatMap(WebhookDeliveries, (d) =>
      d.lease({ limit: 1, room: { others: 0, of: new Map([[hook.webhookId, 1]]) }, now: new Date(now), leaseUntil: new Date(now + 30_000) })))
    const mine = async () => (await deliveries()).filter((d) => d.webhookId === hook.webhookId)
    expect((await mine()).map((d) => d.status).sort()).toEqual(["pending", "sending"])
    const removed = await fetch(`${engine.baseUrl}/v1/users/webhooks/${hook.webhookId}`, { method: "DELETE", headers: auth })
    expect(removed.status).toBe(200)
    const after = await mine()
    expect(after).toHaveLength(2)
    for (const d of after) expect(d).toMatchObject({ status: "failed", error: "webhook registration removed" })
  })

  it("test delivery: only the payload reaches the receiver, signed when webhookId is given", async () => {
    const receiver = await startReceiver()
    try {
      const hook = await register({ url: receiver.url, events: [] })
      const signed = await fetch(`${engine.baseUrl}/v1/users/webhooks/test`, {
        ...json("POST", { entity: "subscription.trial", webhookId: hook.webhookId }),
        headers: { ...auth, "content-type": "application/json" }
      })
      expect(signed.status).toBe(200)
      const diagnostic = await signed.json()
      expect(diagnostic).toMatchObject({ success: true, url: receiver.url, event: "subscription.trial", response: { statusCode: 200 } })
      expect(diagnostic.payload.trial).toBeDefined()
      expect(diagnostic.payload.accountNumber).toBe(account.accountNumber)
      const got = receiver.received.at(-1)!
      expect(JSON.parse(got.body)).toEqual(diagnostic.payload)
      expect(await verifyWebhookSignature({ header: got.headers["x-webhook-signature"] as string, body: got.body, secret: hook.secret }))
        .toMatchObject({ valid: true })

      const bare = await fetch(`${engine.baseUrl}/v1/users/webhooks/test`, {
        ...json("POST", { entity: "subscription.canceled", url: receiver.url }),
        headers: { ...auth, "content-type": "application/json" }
      })
      const bareBody = await bare.json()
      expect(bareBody.payload.currentCycle).toBeNull()
      expect(receiver.received.at(-1)!.headers["x-webhook-signature"]).toBeUndefined()

      const missing = await fetch(`${engine.baseUrl}/v1/users/webhooks/test`, {
        ...json("POST", { entity: "payment.success" }),
        headers: { ...auth, "content-type": "application/json" }
      })
      expect(missing.status).toBe(400)
      expect((await missing.json()).error.code).toBe("INVALID_DATA")
    } finally {
      await receiver.close()
    }
  })
})

describe("concurrent workers on postgres", () => {
  it("two workers racing over 200 outbox events deliver each exactly once", async () => {
    const { config, drop } = await engineConfig("postgres")
    const a = workerRuntime(config)
    const b = workerRuntime(config)
    const receiver = await startReceiver()
    try {
      const { accountId } = await a.runPromise(Billing.createAccount({ name: "Corrida", document: "11444777000161", sandbox: true }))
      await a.runPromise(Effect.gen(function*() {
        const outbox = yield* Outbox
        const transactor = yield* Transactor
        const webhooks = yield* Webhooks
        yield* transactor.withTransaction(Effect.gen(function*() {
          yield* webhooks.insert({
            id: WebhookId.make("uwh_race"),
            accountId,
            url: receiver.url,
            events: [],
            secret: "whsec_race_secret_0123456789",
            authToken: null,
            status: "active",
            createdAt: new Date()
          })
          for (let n = 0; n < 200; n++) {
            yield* outbox.append({ accountId, event: "payment.success", body: JSON.stringify({ event: "payment.success", n }) })
          }
        }))
      }))
      const drain = (runtime: typeof a) =>
        runtime.runPromise(Effect.gen(function*() {
          for (;;) {
            const { fanned, sent } = yield* deliveryPass({ fanOutBatch: 7, deliveryBatch: 9 })
            if (fanned === 0 && sent === 0) return
          }
        }))
      await Promise.all([drain(a), drain(b), drain(a), drain(b)])
      const seen = receiver.received.map((r) => JSON.parse(r.body).n as number)
      expect(seen).toHaveLength(200)
      expect(new Set(seen).size).toBe(200)
    } finally {
      await receiver.close()
      await a.dispose()
      await b.dispose()
      await drop()
    }
  }, 60_000)
})

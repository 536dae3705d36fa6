/**
 * What the engine logs, read back as an operator would: one line per HTTP
 * request with its method, path, status, duration, account and request id,
 * and nothing secret (tokens, client secrets, card numbers, query strings,
 * bodies); the request id echoed on every response; a failed webhook
 * delivery as one warning; and, through the real `billing serve`, JSON logs
 * that are one valid JSON object per line.
 */
import { chargesPass, deliveryPass, runDispatcher, runJob, workerJob } from "@billing/worker"
import { Effect, Layer, Logger, References, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { once } from "node:events"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshPostgresDatabase, startEngine, type TestEngine } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

interface Entry {
  readonly level: string
  readonly message: unknown
  readonly annotations: Readonly<Record<string, unknown>>
}

/** A logger that keeps every entry, at every level, with its annotations. */
const capture = () => {
  const entries: Array<Entry> = []
  const logger = Logger.make(({ fiber, logLevel, message }) => {
    entries.push({
      level: logLevel,
      message: Array.isArray(message) && message.length === 1 ? message[0] : message,
      annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
    })
  })
  return { entries, layer: Layer.mergeAll(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, "Debug")) }
}

describe("request log and structured logs", () => {
  let engine: TestEngine
  const logs = capture()
  /** The request lines of one request id (the line is written once the response is sent). */
  const requestLines = (requestId: string) =>
    logs.entries.filter((e) => e.annotations.requestId === requestId && "status" in e.annotations)
  /**
   * Sends one more request and waits for its line: the requests answered
   * before it have written every line they were going to by then, so a count
   * read afterwards is final, without sleeping on a guess.
   */
  const markEnd = async (requestId: string) => {
    await (await fetch(`${engine.baseUrl}/nowhere`, { headers: { "x-request-id": requestId } })).arrayBuffer()
    await expect.poll(() => requestLines(requestId).length).toBe(1)
  }

  beforeAll(async () => {
    engine = await startEngine("postgres", { logging: logs.layer })
  })
  afterAll(async () => {
    await engine?.dispose()
  })

  it("writes exactly one line per request, with method, path, status, duration, account and request id, and nothing secret", async () => {
    const account = await engine.createAccount()
    const token = await engine.token(account)
    const card = "4111111111111111"
    const response = await fetch(`${engine.baseUrl}/v1/charges/pix?access_token=query-secret-123&document=52998224725`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-request-id": "client-req.42_a" },
      body: JSON.stringify({ amount: 10.5, metadata: { card, note: "body-secret-456" } })
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("x-request-id")).toBe("client-req.42_a")

    await expect.poll(() => requestLines("client-req.42_a").length).toBe(1)
    await markEnd("after-client-req.42_a")
    const lines = requestLines("client-req.42_a")
    expect(lines).toHaveLength(1)
    const [line] = lines
    expect(line!.level).toBe("Info")
    expect(line!.annotations).toEqual({
      method: "POST",
      path: "/v1/charges/pix",
      status: 200,
      durationMs: expect.any(Number),
      accountId: account.accountId,
      requestId: "client-req.42_a"
    })
    expect(line!.annotations.durationMs).toBeGreaterThan(0)
    expect(line!.message).toMatch(/^POST \/v1\/charges\/pix 200 [\d.]+ms$/)

    const everything = JSON.stringify(logs.entries)
    for (const secret of [token, card, "query-secret-123", "52998224725", "body-secret-456", account.clientSecret]) {
      expect(everything).not.toContain(secret)
    }
  })

  it("logs the token route without the client secret and without an account", async () => {
    const account = await engine.createAccount()
    const response = await fetch(`${engine.baseUrl}/auth/token`, {
      method: "POST",
      headers: { "x-request-id": "token-request" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: account.clientId, client_secret: account.clientSecret })
    })
    expect(response.status).toBe(200)
    const { access_token } = await response.json()
    await expect.poll(() => requestLines("token-request").length).toBe(1)
    expect(requestLines("token-request")[0]!.annotations).not.toHaveProperty("accountId")
    const everything = JSON.stringify(logs.entries)
    expect(everything).not.toContain(account.clientSecret)
    expect(everything).not.toContain(access_token)
  })

  it("echoes a sane x-request-id and generates one otherwise, on errors too", async () => {
    const sent = async (id: string | undefined, path = "/v1/charges/nope") => {
      const response = await fetch(`${engine.baseUrl}${path}`, { headers: id === undefined ? {} : { "x-request-id": id } })
      await response.arrayBuffer()
      return { status: response.status, id: response.headers.get("x-request-id") }
    }
    // 401 without a token: echoed all the same.
    expect(await sent("abc-123_X.y")).toEqual({ status: 401, id: "abc-123_X.y" })
    expect(await sent("a".repeat(100))).toEqual({ status: 401, id: "a".repeat(100) })
    // Unknown route, answered by the error handling.
    expect(await sent("route-404", "/nowhere")).toEqual({ status: 404, id: "route-404" })

    const generated = [await sent(undefined), await sent("a".repeat(101)), await sent("has space"), await sent("new\\nline"), await sent("")]
    for (const { id } of generated) expect(id).toMatch(/^req_[0-9a-z]{21}$/)
    expect(new Set(generated.map((g) => g.id)).size).toBe(generated.length)

    await expect.poll(() => requestLines("route-404").length).toBe(1)
    expect(requestLines("route-404")[0]!.annotations).toMatchObject({ method: "GET", path: "/nowhere", status: 404 })
    await expect.poll(() => requestLines(generated[1]!.id!).length).toBe(1)
    expect(JSON.stringify(logs.entries)).not.toContain("a".repeat(101))
  })

  it("logs a failed webhook delivery once, as a warning naming delivery, registration, event and reason", async () => {
    const receiver = await startReceiver(() => ({ status: 500 }))
    try {
      const account = await engine.createAccount()
      const token = await engine.token(account)
      const call = (path: string, body?: unknown) =>
        fetch(`${engine.baseUrl}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body)
        }).then(async (r) => ({ status: r.status, body: await r.json() }))
      const registered = await call("/v1/users/webhooks", { url: receiver.url, events: ["payment.success"] })
      expect(registered.status).toBe(201)
      const charge = await call("/v1/charges/pix", { amount: 7 })
      expect((await call(`/v1/wallet/pay/${charge.body.chargeId}`)).status).toBe(200)
      await engine.run(chargesPass())
      await engine.run(deliveryPass())
      expect(receiver.received.length).toBeGreaterThan(0)

      const warnings = logs.entries.filter((e) => e.message === "webhook delivery failed" && e.annotations.webhookId === registered.body.webhookId)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]!.level).toBe("Warn")
      expect(warnings[0]!.annotations).toMatchObject({
        deliveryId: expect.stringMatching(/whe_/),
        webhookId: registered.body.webhookId,
        event: "payment.success",
        reason: "receiver answered HTTP 500"
      })
      expect(JSON.stringify(warnings)).not.toContain(receiver.url)
    } finally {
      await receiver.close()
    }
  })

  it("logs each registration's delivery counters while its deliveries move, and not while they rest", async () => {
    const receiver = await startReceiver()
    try {
      const account = await engine.createAccount()
      const token = await engine.token(account)
      const registered = await fetch(`${engine.baseUrl}/v1/users/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["payment.success"] })
      }).then((r) => r.json())
      await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO outbox (account_id, event, body, created_at)
        SELECT ${account.accountId}, 'payment.success', json_build_object('event', 'payment.success', 'chargeId', 'cha_log_' || i)::text, now()
        FROM generate_series(1, 3) AS i`))
      // A second registration, whose one delivery moves once the first's are at rest: its report marks a report
      // tick that came after, at which the first, at rest, must not be logged.
      const marker = await fetch(`${engine.baseUrl}/v1/users/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url: receiver.url, events: ["charge.expired"] })
      }).then((r) => r.json())
      const reportsOf = (webhookId: string) => logs.entries.filter((e) => e.message === "webhook deliveries" && e.annotations.webhookId === webhookId)
      const reports = () => reportsOf(registered.webhookId)
      const until = (done: () => boolean) =>
        Effect.sync(done).pipe(Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (finished) => finished }))
      let whenAllReported = 0
      await engine.run(Effect.scoped(Effect.gen(function*() {
        yield* Effect.forkScoped(runJob(workerJob("fanOut", { pollInterval: "20 millis" })))
        yield* Effect.forkScoped(runDispatcher({ pollInterval: "20 millis", reportInterval: "100 millis" }))
        // All three reported; then the marker moves, and a later tick reports it.
        yield* until(() => reports().at(-1)?.annotations.delivered === 3)
        whenAllReported = reports().length
        yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO outbox (account_id, event, body, created_at)
          VALUES (${account.accountId}, 'charge.expired', ${JSON.stringify({ event: "charge.expired", chargeId: "cha_log_marker" })}, now())`)
        yield* until(() => reportsOf(marker.webhookId).at(-1)?.annotations.delivered === 1)
      })))
      expect(reports()).toHaveLength(whenAllReported)
      expect(reports().at(-1)!.level).toBe("Info")
      expect(reports().at(-1)!.annotations).toMatchObject({ delivered: 3, failed: 0, inFlight: 0 })
    } finally {
      await receiver.close()
    }
  })
})

describe("billing serve with BILLING_LOG_FORMAT=json", () => {
  const main = "packages/cli/src/main.ts"
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>
  let child: ChildProcess | undefined
  beforeAll(async () => {
    db = await freshPostgresDatabase()
  })
  afterAll(async () => {
    // The database is dropped once the server has exited, not after a guess at how long that takes.
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit")
      child.kill("SIGTERM")
      await exited
    }
    await db?.drop()
  })

  it("writes one JSON object per line on stdout, the request line among them", async () => {
    child = spawn(process.execPath, [main, "serve", "--port", "0", "--no-worker"], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        BILLING_SANDBOX_CLIENT_ID: "json-log-client",
        BILLING_SANDBOX_CLIENT_SECRET: "json-log-secret",
        BILLING_LOG_FORMAT: "json",
        BILLING_LOG_LEVEL: "debug"
      }
    })
    let out = ""
    let err = ""
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()))
    // The banner is for people: on stderr when stdout carries JSON.
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}${err}`)), 30_000)
      child!.stderr!.on("data", (chunk: Buffer) => {
        err += chunk.toString()
        const match = err.match(/base URL:\s+(\S+)\/v1/)
        if (match && err.includes("sandbox:")) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    const response = await fetch(`${base}/auth/token`, {
      method: "POST",
      headers: { "x-request-id": "json-line-1" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "json-log-client", client_secret: "json-log-secret" })
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("x-request-id")).toBe("json-line-1")

    const parsed = () => out.split("\n").filter((l) => l !== "").map((line) => JSON.parse(line) as { message: unknown; level: string; annotations: Record<string, unknown> })
    await expect.poll(() => parsed().filter((e) => e.annotations.requestId === "json-line-1").length, { timeout: 10_000 }).toBe(1)
    const entries = parsed()
    // Debug lines (migrations) prove the level; every line parsed.
    expect(entries.some((e) => e.level === "DEBUG")).toBe(true)
    const line = entries.find((e) => e.annotations.requestId === "json-line-1")!
    expect(line.level).toBe("INFO")
    expect(line.annotations).toMatchObject({ method: "POST", path: "/auth/token", status: 200, requestId: "json-line-1" })
    expect(out).not.toContain("json-log-secret")
  }, 60_000)

  it("refuses an unknown BILLING_LOG_LEVEL or BILLING_LOG_FORMAT with one line naming it", () => {
    const level = spawnSync(process.execPath, [main, "migrate"], {
      env: { ...process.env, DATABASE_URL: db.url, BILLING_LOG_LEVEL: "verbose" },
      encoding: "utf8"
    })
    expect(level.status).toBe(2)
    expect(level.stderr).toContain("invalid BILLING_LOG_LEVEL verbose")
    const format = spawnSync(process.execPath, [main, "migrate"], {
      env: { ...process.env, DATABASE_URL: db.url, BILLING_LOG_FORMAT: "xml" },
      encoding: "utf8"
    })
    expect(format.status).toBe(2)
    expect(format.stderr).toContain("invalid BILLING_LOG_FORMAT xml")
  })
})

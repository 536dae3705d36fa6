/**
 * Throttle of `POST /auth/token` through real HTTP on PostgreSQL: failed
 * attempts counted per client id at one address and per address in 15-minute
 * windows, 429 with `Retry-After` past the limit (even for the right secret
 * from that address), a per-client ceiling that refuses only the addresses
 * that failed for the client, and the window ending by the engine's Clock,
 * which the test moves instead of sleeping. Where the server trusts 127.0.0.1
 * as its proxy, a case speaks from its own address through
 * `X-Forwarded-For`; elsewhere it connects from 127.0.0.1 or 127.0.0.2 (Linux
 * routes all of 127/8 to loopback).
 */
import { HttpServerLive } from "@billing/adapters-http"
import { Billing, TokenThrottle } from "@billing/core"
import { Clock, Layer, ManagedRuntime, References } from "effect"
import { IpNetwork } from "effect/net"
import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EngineLive } from "../packages/cli/src/Engine.ts"
import { engineConfig, nextTestDocument, serverBaseUrl, startEngine, type TestEngine } from "./support/Engine.ts"
import { offsetClock } from "./support/OffsetClock.ts"

/** The real clock plus an offset the test moves forward: timers keep working, windows end on demand. */
const movableClock = () => {
  const { clock, advanceMillis } = offsetClock()
  return { clock, advanceSeconds: (seconds: number) => advanceMillis(seconds * 1000) }
}

type Account = Billing.CreatedAccount

interface TokenAnswer {
  readonly status: number
  readonly retryAfter: string | undefined
  readonly body: any
}

/**
 * `POST /auth/token` on a connection opened from `localAddress`: the server
 * sees that address as the TCP peer, which `fetch` cannot choose.
 */
const tokenFrom = (baseUrl: string, localAddress: string, clientId: string, clientSecret: string, headers: Record<string, string> = {}) =>
  new Promise<TokenAnswer>((resolve, reject) => {
    const body = new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }).toString()
    const req = request(`${baseUrl}/auth/token`, {
      method: "POST",
      localAddress,
      agent: false,
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)), ...headers }
    }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("error", reject)
      res.on("end", () => {
        const retryAfter = res.headers["retry-after"]
        resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === "string" ? retryAfter : undefined, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) })
      })
    })
    req.on("error", reject)
    req.end(body)
  })

/**
 * A server on a fresh PostgreSQL database for one suite: trusting 127.0.0.1
 * as its proxy when `trustProxy`, on `clock` and `throttle` when given.
 */
const throttledServer = (options: {
  readonly trustProxy: boolean
  readonly clock?: Clock.Clock
  readonly throttle?: typeof TokenThrottle.Service
}) => {
  const server = { runtime: undefined as unknown as ManagedRuntime.ManagedRuntime<any, any>, baseUrl: "", drop: async () => {} }
  beforeAll(async () => {
    const db = await engineConfig("postgres")
    server.drop = db.drop
    const trustedProxies = options.trustProxy ? [IpNetwork.fromStringUnsafe("127.0.0.1/32")] : undefined
    const settings = Layer.mergeAll(
      options.clock === undefined ? Layer.empty : Layer.succeed(Clock.Clock, options.clock),
      options.throttle === undefined ? Layer.empty : Layer.succeed(TokenThrottle, options.throttle)
    )
    server.runtime = ManagedRuntime.make(
      HttpServerLive({ port: 0, host: "127.0.0.1", trustedProxies }).pipe(
        Layer.provideMerge(EngineLive(db.config)),
        Layer.provide(settings),
        Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, "Warn"))
      )
    )
    server.baseUrl = await serverBaseUrl(server.runtime)
  })
  afterAll(async () => {
    await server.runtime?.dispose()
    await server.drop()
  })
  return server
}

describe("token route throttle on postgres", () => {
  const time = movableClock()
  const server = throttledServer({ trustProxy: true, clock: time.clock })
  const accounts: Array<Account> = []

  const newAccount = async () => {
    const account = await server.runtime.runPromise(Billing.createAccount({
      name: "Loja",
      document: nextTestDocument(),
      sandbox: true,
      scopes: ["webhooks/read"]
    }))
    accounts.push(account)
    return account
  }

  const token = (from: string, clientId: string, clientSecret: string) =>
    fetch(`${server.baseUrl}/auth/token`, {
      method: "POST",
      headers: { "x-forwarded-for": from },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret })
    })

  const statuses = async (n: number, attempt: (i: number) => Promise<Response>) => {
    const out: Array<number> = []
    for (let i = 0; i < n; i++) out.push((await attempt(i)).status)
    return out
  }

  it("answers 429 with Retry-After from the 11th wrong secret at one address, refuses the right one there too, and lets it in after the window", async () => {
    const account = await newAccount()
    const from = "203.0.113.10"
    const windowOpened = time.clock.currentTimeMillisUnsafe()
    expect(await statuses(10, () => token(from, account.clientId, "wrong-secret"))).toEqual(Array(10).fill(401))

    const throttled = await token(from, account.clientId, "wrong-secret")
    const answered = time.clock.currentTimeMillisUnsafe()
    expect(throttled.status).toBe(429)
    expect(await throttled.json()).toEqual({ error: "too_many_requests", error_description: expect.any(String) })
    // What is left of the 900 s window that opened with the first failure, read between two readings of the engine's clock.
    const retryAfter = Number(throttled.headers.get("retry-after"))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(900 - (answered - windowOpened) / 1000))
    expect(retryAfter).toBeLessThanOrEqual(900)

    // The right secret is not even checked from the address that failed; from another one it is answered.
    const right = await token(from, account.clientId, account.clientSecret)
    expect(right.status).toBe(429)
    expect(right.headers.get("retry-after")).not.toBeNull()
    expect((await token("203.0.113.11", account.clientId, account.clientSecret)).status).toBe(200)

    time.advanceSeconds(retryAfter - 5)
    expect((await token(from, account.clientId, account.clientSecret)).status).toBe(429)
    time.advanceSeconds(6)
    const after = await token(from, account.clientId, account.clientSecret)
    expect(after.status).toBe(200)
    expect((await after.json()).token_type).toBe("Bearer")
  })

  it("starts the count of a client at an address over after a success there", async () => {
    const account = await newAccount()
    const from = "203.0.113.20"
    expect(await statuses(9, () => token(from, account.clientId, "wrong-secret"))).toEqual(Array(9).fill(401))
    expect((await token(from, account.clientId, account.clientSecret)).status).toBe(200)
    expect(await statuses(10, () => token(from, account.clientId, "wrong-secret"))).toEqual(Array(10).fill(401))
    expect((await token(from, account.clientId, "wrong-secret")).status).toBe(429)
    time.advanceSeconds(901)
  })

  it("throttles an address that sprays wrong secrets over many client ids, and only that address", async () => {
    const account = await newAccount()
    const from = "198.51.100.7"
    // 50 failures over 50 client ids: none of them reaches its own limit.
    expect(await statuses(50, (i) => token(from, `cli_spray_${i}`, "guess"))).toEqual(Array(50).fill(401))
    const blocked = await token(from, account.clientId, account.clientSecret)
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0)
    expect((await token(from, "cli_spray_new", "guess")).status).toBe(429)
    // Another address is not concerned, and the client itself was never over its limit.
    expect((await token("198.51.100.8", account.clientId, account.clientSecret)).status).toBe(200)
    time.advanceSeconds(901)
    expect((await token(from, account.clientId, account.clientSecret)).status).toBe(200)
  })

  it("lists the 429 and its Retry-After header in the OpenAPI document", async () => {
    const doc = await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()
    const response = doc.paths["/auth/token"].post.responses["429"]
    expect(response).toBeDefined()
    expect(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase())).toContain("retry-after")
  })
})

describe("token route throttle without a trusted proxy", () => {
  // A low address limit keeps the case short; the limits themselves are covered above.
  const server = throttledServer({ trustProxy: false, throttle: { windowSeconds: 900, perClientAddress: 10, perAddress: 5, clientCeiling: 1000 } })

  it("ignores X-Forwarded-For: a client cannot escape the address limit by writing another address", async () => {
    const account = await server.runtime.runPromise(Billing.createAccount({ name: "Loja", document: "11444777000161", sandbox: true }))
    const attempt = (from: string, clientId: string, clientSecret: string) =>
      fetch(`${server.baseUrl}/auth/token`, {
        method: "POST",
        headers: { "x-forwarded-for": from },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret })
      })
    for (let i = 0; i < 5; i++) expect((await attempt(`192.0.2.${i + 1}`, `cli_spoof_${i}`, "guess")).status).toBe(401)
    expect((await attempt("192.0.2.200", account.clientId, account.clientSecret)).status).toBe(429)
  })
})

describe("token route throttle by client id and address, from two loopback addresses", () => {
  let engine: TestEngine
  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(async () => {
    await engine?.dispose()
  })

  it("answers the right secret from 127.0.0.2 while the client is locked at 127.0.0.1", async () => {
    const account = await engine.createAccount()
    for (let i = 0; i < 10; i++) expect((await tokenFrom(engine.baseUrl, "127.0.0.1", account.clientId, "wrong-secret")).status).toBe(401)
    const locked = await tokenFrom(engine.baseUrl, "127.0.0.1", account.clientId, account.clientSecret)
    expect(locked.status).toBe(429)
    expect(locked.body).toEqual({ error: "too_many_requests", error_description: expect.any(String) })
    // What is left of the window the first failure opened: at most 15 minutes.
    expect(Number(locked.retryAfter)).toBeGreaterThan(0)
    expect(Number(locked.retryAfter)).toBeLessThanOrEqual(900)

    const elsewhere = await tokenFrom(engine.baseUrl, "127.0.0.2", account.clientId, account.clientSecret)
    expect(elsewhere.status).toBe(200)
    expect(elsewhere.body.token_type).toBe("Bearer")
    // The success elsewhere does not lift the lock where the guesses came from.
    expect((await tokenFrom(engine.baseUrl, "127.0.0.1", account.clientId, account.clientSecret)).status).toBe(429)
  })
})

describe("token route per-client ceiling against a guess spread over many addresses", () => {
  const time = movableClock()
  // A ceiling of 4 failures keeps the case short; 127.0.0.1 is the proxy
  // the guessers come through, 127.0.0.2 the merchant's own server.
  const server = throttledServer({ trustProxy: true, clock: time.clock, throttle: { windowSeconds: 900, perClientAddress: 10, perAddress: 50, clientCeiling: 4 } })

  const guess = (from: string, clientId: string, clientSecret: string) =>
    tokenFrom(server.baseUrl, "127.0.0.1", clientId, clientSecret, { "x-forwarded-for": from })

  it("past the ceiling refuses the addresses that failed for the client and answers one that has not", async () => {
    const account = await server.runtime.runPromise(Billing.createAccount({ name: "Loja", document: nextTestDocument(), sandbox: true }))
    // Five guessers, one wrong secret each: 5 failures for the client, one past the ceiling of 4.
    for (let i = 1; i <= 5; i++) expect((await guess(`203.0.113.${i}`, account.clientId, "guess")).status).toBe(401)

    // Each guesser had one failure, far below the 10 of an address: only the ceiling refuses them now.
    const refused = await guess("203.0.113.1", account.clientId, "guess")
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: "too_many_requests", error_description: expect.any(String) })
    expect(Number(refused.retryAfter)).toBeGreaterThan(800)
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(900)
    expect((await guess("203.0.113.2", account.clientId, account.clientSecret)).status).toBe(429)

    // The merchant's server never failed: its right secret is checked and answered, also several at once.
    const own = await Promise.all([1, 2, 3].map(() => tokenFrom(server.baseUrl, "127.0.0.2", account.clientId, account.clientSecret)))
    expect(own.map((r) => r.status)).toEqual([200, 200, 200])

    // Its success does not clear the failures of the others: the ceiling still holds for them.
    expect((await guess("203.0.113.3", account.clientId, "guess")).status).toBe(429)
    // A new guesser gets its one guess checked, and no second.
    expect((await guess("203.0.113.9", account.clientId, "guess")).status).toBe(401)
    expect((await guess("203.0.113.9", account.clientId, "guess")).status).toBe(429)

    time.advanceSeconds(901)
    expect((await guess("203.0.113.1", account.clientId, account.clientSecret)).status).toBe(200)
  })
})

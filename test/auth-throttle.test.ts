/**
 * Throttle of `POST /auth/token` through real HTTP on PostgreSQL: failed
 * attempts counted per client id and per address in 15-minute windows, 429
 * with `Retry-After` past the limit (even for the right secret), and the
 * window ending by the engine's Clock, which the test moves instead of
 * sleeping. The server trusts 127.0.0.1 as its proxy, so each case speaks
 * from its own address through `X-Forwarded-For`.
 */
import { HttpServerLive } from "@billing/adapters-http"
import { Billing, TokenThrottle } from "@billing/core"
import { Clock, Layer, ManagedRuntime } from "effect"
import { IpNetwork } from "effect/net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EngineLive } from "../packages/cli/src/Engine.ts"
import { engineConfig, nextTestDocument, serverBaseUrl } from "./support/Engine.ts"
import { offsetClock } from "./support/OffsetClock.ts"

/** The real clock plus an offset the test moves forward: timers keep working, windows end on demand. */
const movableClock = () => {
  const { clock, advanceMillis } = offsetClock()
  return { clock, advanceSeconds: (seconds: number) => advanceMillis(seconds * 1000) }
}

type Account = Billing.CreatedAccount

describe("token route throttle on postgres", () => {
  const time = movableClock()
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let drop: () => Promise<void>
  let baseUrl: string
  const accounts: Array<Account> = []

  beforeAll(async () => {
    const db = await engineConfig("postgres")
    drop = db.drop
    runtime = ManagedRuntime.make(
      HttpServerLive({ port: 0, host: "127.0.0.1", trustedProxies: [IpNetwork.fromStringUnsafe("127.0.0.1/32")] }).pipe(
        Layer.provideMerge(EngineLive(db.config)),
        Layer.provide(Layer.succeed(Clock.Clock, time.clock))
      )
    )
    baseUrl = await serverBaseUrl(runtime)
  })
  afterAll(async () => {
    await runtime?.dispose()
    await drop?.()
  })

  const newAccount = async () => {
    const account = await runtime.runPromise(Billing.createAccount({
      name: "Loja",
      document: nextTestDocument(),
      sandbox: true,
      scopes: ["webhooks/read"]
    }))
    accounts.push(account)
    return account
  }

  const token = (from: string, clientId: string, clientSecret: string) =>
    fetch(`${baseUrl}/auth/token`, {
      method: "POST",
      headers: { "x-forwarded-for": from },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret })
    })

  const statuses = async (n: number, attempt: (i: number) => Promise<Response>) => {
    const out: Array<number> = []
    for (let i = 0; i < n; i++) out.push((await attempt(i)).status)
    return out
  }

  it("answers 429 with Retry-After from the 11th wrong secret, refuses the right one too, and lets it in after the window", async () => {
    const account = await newAccount()
    const from = "203.0.113.10"
    expect(await statuses(10, () => token(from, account.clientId, "wrong-secret"))).toEqual(Array(10).fill(401))

    const throttled = await token(from, account.clientId, "wrong-secret")
    expect(throttled.status).toBe(429)
    expect(await throttled.json()).toEqual({ error: "too_many_requests", error_description: expect.any(String) })
    const retryAfter = Number(throttled.headers.get("retry-after"))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(800)
    expect(retryAfter).toBeLessThanOrEqual(900)

    // The right secret is not even checked while the client is throttled, from any address.
    const right = await token(from, account.clientId, account.clientSecret)
    expect(right.status).toBe(429)
    expect(right.headers.get("retry-after")).not.toBeNull()
    expect((await token("203.0.113.11", account.clientId, account.clientSecret)).status).toBe(429)

    time.advanceSeconds(retryAfter - 5)
    expect((await token(from, account.clientId, account.clientSecret)).status).toBe(429)
    time.advanceSeconds(6)
    const after = await token(from, account.clientId, account.clientSecret)
    expect(after.status).toBe(200)
    expect((await after.json()).token_type).toBe("Bearer")
  })

  it("starts the client's count over after a success", async () => {
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
    const doc = await (await fetch(`${baseUrl}/v1/openapi.json`)).json()
    const response = doc.paths["/auth/token"].post.responses["429"]
    expect(response).toBeDefined()
    expect(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase())).toContain("retry-after")
  })
})

describe("token route throttle without a trusted proxy", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let drop: () => Promise<void>
  let baseUrl: string
  beforeAll(async () => {
    const db = await engineConfig("postgres")
    drop = db.drop
    // A low address limit keeps the case short; the limits themselves are covered above.
    runtime = ManagedRuntime.make(
      HttpServerLive({ port: 0, host: "127.0.0.1" }).pipe(
        Layer.provideMerge(EngineLive(db.config)),
        Layer.provide(Layer.succeed(TokenThrottle, { windowSeconds: 900, perClient: 10, perAddress: 5 }))
      )
    )
    baseUrl = await serverBaseUrl(runtime)
  })
  afterAll(async () => {
    await runtime?.dispose()
    await drop?.()
  })

  it("ignores X-Forwarded-For: a client cannot escape the address limit by writing another address", async () => {
    const account = await runtime.runPromise(Billing.createAccount({ name: "Loja", document: "11444777000161", sandbox: true }))
    const attempt = (from: string, clientId: string, clientSecret: string) =>
      fetch(`${baseUrl}/auth/token`, {
        method: "POST",
        headers: { "x-forwarded-for": from },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret })
      })
    for (let i = 0; i < 5; i++) expect((await attempt(`192.0.2.${i + 1}`, `cli_spoof_${i}`, "guess")).status).toBe(401)
    expect((await attempt("192.0.2.200", account.clientId, account.clientSecret)).status).toBe(429)
  })
})

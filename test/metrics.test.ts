/**
 * `GET /metrics` after a small workload, through real HTTP on PostgreSQL:
 * the Prometheus text a scraper reads, with requests counted by route
 * template (never the raw path), method and status class, and timed.
 */
import { Billing } from "@billing/core"
import { chargesPass, deliveryPass } from "@billing/worker"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

/** The value of the sample `name{labels}` in a Prometheus text body (labels in any order), or undefined. */
const sample = (body: string, name: string, labels: Record<string, string>): number | undefined => {
  for (const line of body.split("\n")) {
    const match = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/)
    if (match === null || match[1] !== name) continue
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))
    if (Object.entries(labels).every(([key, value]) => found[key] === value) && Object.keys(found).length === Object.keys(labels).length) {
      return Number(match[3])
    }
  }
  return undefined
}

describe("metrics", () => {
  let engine: TestEngine
  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  it("counts requests by route template, method and status class, and times them", async () => {
    const account = await engine.createAccount()
    const auth = { authorization: `Bearer ${await engine.token(account)}` }
    for (let i = 0; i < 3; i++) expect((await fetch(`${engine.baseUrl}/healthz`)).status).toBe(200)
    expect((await fetch(`${engine.baseUrl}/v1/charges/cha_unknown_1`, { headers: auth })).status).toBe(404)
    expect((await fetch(`${engine.baseUrl}/v1/charges/cha_unknown_2`, { headers: auth })).status).toBe(404)
    expect((await fetch(`${engine.baseUrl}/no/such/route`)).status).toBe(404)

    const response = await fetch(`${engine.baseUrl}/metrics`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
    const body = await response.text()
    expect(sample(body, "http_server_requests_total", { route: "/healthz", method: "GET", status: "2xx" })).toBe(3)
    // Two ids, one series: the route's template.
    expect(sample(body, "http_server_requests_total", { route: "/v1/charges/:chargeId", method: "GET", status: "4xx" })).toBe(2)
    expect(body).not.toContain("cha_unknown")
    expect(sample(body, "http_server_requests_total", { route: "unmatched", method: "GET", status: "4xx" })).toBe(1)
    expect(sample(body, "http_server_requests_total", { route: "/auth/token", method: "POST", status: "2xx" })).toBe(1)
    // Every request timed: the histogram's count is the requests' count, each below the last bucket.
    expect(sample(body, "http_server_request_duration_seconds_count", { route: "/healthz", method: "GET" })).toBe(3)
    expect(sample(body, "http_server_request_duration_seconds_bucket", { route: "/healthz", method: "GET", le: "+Inf" })).toBe(3)
  })

  it("counts webhook deliveries by outcome and event, and each committed payment once with its amount", async () => {
    const account = await engine.createAccount()
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const post = (path: string, body?: unknown) => fetch(`${engine.baseUrl}${path}`, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const receiver = await startReceiver()
    const failing = await startReceiver(() => ({ status: 500 }))
    try {
      expect((await post("/v1/users/webhooks", { url: receiver.url, events: ["payment.success"] })).status).toBe(201)
      expect((await post("/v1/users/webhooks", { url: failing.url, events: ["payment.success"] })).status).toBe(201)
      const { chargeId } = await (await post("/v1/charges/pix", { amount: 5 })).json()
      expect((await post(`/v1/wallet/pay/${chargeId}`)).status).toBe(200)
      await engine.run(chargesPass())
      await engine.run(deliveryPass())
      expect(receiver.received).toHaveLength(1)
      expect(failing.received).toHaveLength(1)
      const body = await (await fetch(`${engine.baseUrl}/metrics`)).text()
      expect(sample(body, "billing_webhook_deliveries_total", { outcome: "delivered", event: "payment.success" })).toBe(1)
      expect(sample(body, "billing_webhook_deliveries_total", { outcome: "failed", event: "payment.success" })).toBe(1)
      // The money counters: the one committed payment, once however many registrations took it, R$ 5.00 in centavos.
      expect(sample(body, "billing_events_total", { event: "payment.success", method: "PIX" })).toBe(1)
      expect(sample(body, "billing_event_amount_centavos_total", { event: "payment.success", method: "PIX" })).toBe(500)
    } finally {
      await receiver.close()
      await failing.close()
    }
  })

  it("reads every queue's backlog when scraped: events waiting to fan out, deliveries due, cycles and notes", async () => {
    const account = await engine.createAccount()
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const post = (path: string, body?: unknown) => fetch(`${engine.baseUrl}${path}`, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) })
    expect((await post("/v1/users/webhooks", { url: "http://127.0.0.1:9/never", events: ["payment.success"] })).status).toBe(201)
    const { chargeId } = await (await post("/v1/charges/pix", { amount: 7 })).json()
    expect((await post(`/v1/wallet/pay/${chargeId}`)).status).toBe(200)
    const count = (query: string) =>
      engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<{ n: string }>(query))).then((rows) => Number(rows[0]!.n))
    const scrape = async () => await (await fetch(`${engine.baseUrl}/metrics`)).text()
    // The payment requested and not confirmed yet waits in its queue.
    const requested = await scrape()
    expect(sample(requested, "billing_backlog", { queue: "charges.sandboxPayments" })).toBe(
      await count("SELECT count(*)::text AS n FROM sandbox_payments WHERE processed_at IS NULL")
    )
    expect(sample(requested, "billing_backlog", { queue: "charges.sandboxPayments" })).toBeGreaterThanOrEqual(1)
    await engine.run(chargesPass())

    const events = await count("SELECT count(*)::text AS n FROM outbox WHERE processed_at IS NULL")
    expect(events).toBeGreaterThanOrEqual(1)
    const before = await scrape()
    expect(sample(before, "billing_backlog", { queue: "webhook.events" })).toBe(events)
    const age = sample(before, "billing_backlog_oldest_seconds", { queue: "webhook.events" })!
    expect(age).toBeGreaterThanOrEqual(0)
    expect(age).toBeLessThan(600)
    expect(sample(before, "billing_backlog", { queue: "charges.sandboxPayments" })).toBe(0)
    expect(sample(before, "billing_backlog", { queue: "charges.expiry" })).toBe(
      await count("SELECT count(*)::text AS n FROM charges WHERE status IN ('PENDING', 'PROCESSING', 'AWAITING_PAYMENT') AND expires_at < now()")
    )
    expect(sample(before, "billing_backlog", { queue: "cycles.issue" })).toBe(0)
    expect(sample(before, "billing_backlog", { queue: "notas.due" })).toBe(0)
    expect(sample(before, "billing_backlog_oldest_seconds", { queue: "notas.unanswered" })).toBe(0)

    while ((await engine.run(Billing.fanOut(100))) > 0) { /* drain the outbox */ }
    const after = await scrape()
    expect(sample(after, "billing_backlog", { queue: "webhook.events" })).toBe(0)
    const due = await count("SELECT count(*)::text AS n FROM webhook_deliveries WHERE status = 'pending' AND lease_until IS NULL")
    expect(due).toBeGreaterThanOrEqual(1)
    expect(sample(after, "billing_backlog", { queue: "webhook.deliveries" })).toBe(due)
    expect(sample(after, "billing_webhook_deliveries_in_flight", {})).toBe(0)
  })

  it("answers /metrics only to its bearer token when one is set", async () => {
    const guarded = await startEngine("postgres", { sameDatabaseAs: engine, metricsToken: "scrape-token-1" })
    try {
      expect((await fetch(`${guarded.baseUrl}/metrics`)).status).toBe(401)
      expect((await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: "Bearer scrape-token-2" } })).status).toBe(401)
      const scraped = await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: "Bearer scrape-token-1" } })
      expect(scraped.status).toBe(200)
      expect(await scraped.text()).toContain("http_server_requests_total")
    } finally {
      await guarded.dispose()
    }
  })
})

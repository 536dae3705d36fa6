/**
 * Time is a service (DESIGN): under a `TestClock` set to 2030, everything the
 * engine records through the library (accounts, credentials, tokens, charges,
 * their payment and expiry, events, deliveries, e-mails) carries 2030
 * instants, and moving the clock is what expires a charge. Nothing reads the
 * wall clock or the database's `now()`.
 */
import { HttpServerLive } from "@billing/adapters-http"
import { Billing, Caller, CheckoutRequest, cents, type Scope } from "@billing/core"
import { Clock, Effect, Layer, ManagedRuntime, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { chargesPass, deliveryPass } from "../packages/worker/src/Worker.ts"
import { EngineLive } from "../packages/cli/src/Engine.ts"
import { engineConfig, serverBaseUrl, startEngine, type TestEngine } from "./support/Engine.ts"
import { clockFrom } from "./support/OffsetClock.ts"
import { startReceiver } from "./support/Receiver.ts"

const START = Date.UTC(2030, 0, 1, 12, 0, 0)
const SCOPES: ReadonlyArray<Scope> = ["pix.cob/write", "pix.cob/read", "wallet/write", "webhooks/write", "checkouts/write"]

/** Every timestamp column the engine wrote, by table and column. */
const stampsOf = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const rows = yield* sql<{ source: string; at: Date }>`
      SELECT 'accounts.created_at' AS source, created_at AS at FROM accounts
      UNION ALL SELECT 'api_clients.created_at', created_at FROM api_clients
      UNION ALL SELECT 'access_tokens.expires_at', expires_at FROM access_tokens
      UNION ALL SELECT 'charges.created_at', created_at FROM charges
      UNION ALL SELECT 'charges.updated_at', updated_at FROM charges
      UNION ALL SELECT 'charges.expires_at', expires_at FROM charges
      UNION ALL SELECT 'charges.paid_at', paid_at FROM charges WHERE paid_at IS NOT NULL
      UNION ALL SELECT 'customers.created_at', created_at FROM customers
      UNION ALL SELECT 'sandbox_payments.requested_at', requested_at FROM sandbox_payments
      UNION ALL SELECT 'sandbox_payments.processed_at', processed_at FROM sandbox_payments
      UNION ALL SELECT 'outbox.created_at', created_at FROM outbox
      UNION ALL SELECT 'outbox.processed_at', processed_at FROM outbox
      UNION ALL SELECT 'webhooks.created_at', created_at FROM webhooks
      UNION ALL SELECT 'webhook_deliveries.created_at', created_at FROM webhook_deliveries
      UNION ALL SELECT 'webhook_deliveries.delivered_at', delivered_at FROM webhook_deliveries
      UNION ALL SELECT 'notifications.created_at', created_at FROM notifications
      UNION ALL SELECT 'notifications.sent_at', sent_at FROM notifications`
    return rows.map((r) => ({ source: r.source, year: r.at === null ? null : new Date(r.at).getUTCFullYear() }))
  })

describe("time comes only from the Clock", () => {
  let engine: TestEngine
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  beforeAll(async () => {
    engine = await startEngine("postgres")
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await engine?.dispose()
    await receiver?.close()
  })

  it("records 2030 instants everywhere when the TestClock says 2030, and expires by the clock", async () => {
    const result = await engine.run(Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const account = yield* Billing.createAccount({ name: "Loja 2030", document: "11444777000161", sandbox: true, email: "loja@example.com" })
      const token = yield* Billing.issueToken({
        grant_type: "client_credentials",
        client_id: account.clientId,
        client_secret: account.clientSecret,
        scope: SCOPES.join(" ")
      })
      const caller = yield* Billing.authenticate({ bearer: token.access_token, requiredScopes: [], subAccount: undefined })
      const asCaller = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, Caller, caller)

      yield* asCaller(Billing.registerWebhook({ url: receiver.url }))
      // Paid: created, payment requested and confirmed by the worker, event delivered.
      const paid = yield* asCaller(Billing.createPixCharge({ amount: cents(1000) }))
      yield* asCaller(Billing.requestSandboxPayment(paid.chargeId))
      // A transparent checkout with the buyer's e-mails: customer and notification rows.
      // As a library client would: the request decoded (and so validated) by its schema first.
      const checkout = yield* Schema.decodeUnknownEffect(CheckoutRequest)({
        paymentMethod: "pix",
        amount: 25,
        customer: { name: "Maria Silva", email: "maria@example.com", documentNumber: "529.982.247-25" },
        notifications: ["oneoff.pix.generated"]
      })
      yield* asCaller(Billing.createCheckoutCharge(checkout))
      // Expires only when the clock passes its deadline (a Pix lives 24 hours by default).
      const expiring = yield* asCaller(Billing.createPixCharge({ amount: cents(2000) }))
      yield* chargesPass()
      const beforeDeadline = yield* asCaller(Billing.getChargeStatus(expiring.chargeId))
      yield* TestClock.adjust("25 hours")
      yield* chargesPass()
      yield* deliveryPass()
      const afterDeadline = yield* asCaller(Billing.getChargeStatus(expiring.chargeId))
      const paidStatus = yield* asCaller(Billing.getChargeStatus(paid.chargeId))
      return { beforeDeadline, afterDeadline, paidStatus, stamps: yield* stampsOf(yield* SqlClient.SqlClient) }
    }).pipe(Effect.provide(TestClock.layer())))

    expect(result.beforeDeadline.status).toBe("PENDING")
    expect(result.afterDeadline.status).toBe("EXPIRED")
    expect(result.afterDeadline.updatedAt).toEqual(new Date("2030-01-02T13:00:00.000Z"))
    expect(result.paidStatus.status).toBe("PAID")
    expect(result.paidStatus.paidAt).toEqual(new Date("2030-01-01T12:00:00.000Z"))
    const sources = new Set(result.stamps.map((s) => s.source))
    // Every kind of row was written, so the check below covers each of them.
    expect(sources.size).toBe(17)
    expect(result.stamps.filter((s) => s.year !== 2030)).toEqual([])
  })

  it("stamps the error envelope with the clock's instant", async () => {
    const { config, drop } = await engineConfig("postgres")
    const clock = clockFrom(START)
    const runtime = ManagedRuntime.make(
      HttpServerLive({ port: 0, host: "127.0.0.1" }).pipe(Layer.provideMerge(EngineLive(config)), Layer.provide(Layer.succeed(Clock.Clock, clock)))
    )
    try {
      const base = await serverBaseUrl(runtime)
      // Stamped between two reads of the engine's clock around the request: an ordering, whatever the machine's pace.
      const stamped = async (path: string) => {
        const before = clock.currentTimeMillisUnsafe()
        const body = await (await fetch(`${base}${path}`)).json()
        const at = Date.parse(body.error.timestamp)
        expect([before <= at, at <= clock.currentTimeMillisUnsafe()], body.error.timestamp).toEqual([true, true])
        return body
      }
      // An unknown route (answered by the router's fallback) and a refused token (an endpoint error encoded by its schema).
      const notFound = await stamped("/v1/nowhere")
      const unauthorized = await stamped("/v1/charges/cha_x")
      expect(notFound.error.code).toBe("NOT_FOUND")
      expect(unauthorized.error.code).toBe("UNAUTHORIZED")
    } finally {
      await runtime.dispose()
      await drop()
    }
  })
})

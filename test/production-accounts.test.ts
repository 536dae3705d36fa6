/**
 * A production account never runs on the sandbox layers (DESIGN: production
 * is configuration). Until a production provider is configured, every route
 * that would create or move money for a production account answers 503
 * `PROVIDER_NOT_CONFIGURED` naming the provider and changes nothing, and the
 * billing run leaves its cycles `SCHEDULED`; sandbox accounts keep every
 * sandbox behaviour.
 *
 * "A provider appears" is played by a second engine on the same database
 * whose gate lets production accounts through, the sandbox layers standing
 * in for the production ones (the only providers that exist so far).
 */
import { Billing, EVERY_ACCOUNT } from "@billing/core"
import { Effect, Layer, Logger, References } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cardExpiration } from "./support/Cards.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { offsetClock } from "./support/OffsetClock.ts"

const DAY = 86_400_000

/** Every warning the engine logs, as text. */
const warnings = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ message }) => {
    lines.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
  })
  return { lines, layer: Layer.mergeAll(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, "Warn")) }
}

describe("production accounts without a configured provider", () => {
  // Both engines read the same moved clock: the billing run is driven by it.
  const clock = offsetClock()
  const logs = warnings()
  let engine: TestEngine
  let standIn: TestEngine
  const address = { street: "Av. Paulista", number: "1000", neighborhood: "Bela Vista", city: "São Paulo", state: "SP", zipCode: "01310100" }
  const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", address }
  const card = { number: "4111111111111111", cvv: "123", name: "ANA SOUZA", expiration: cardExpiration(new Date().getUTCFullYear() + 1) }

  beforeAll(async () => {
    engine = await startEngine("postgres", { clock: clock.clock, logging: logs.layer })
    standIn = await startEngine("postgres", { clock: clock.clock, sameDatabaseAs: engine, productionProviders: ["pix", "card", "boleto"] })
  })
  afterAll(async () => {
    await standIn?.dispose()
    await engine?.dispose()
  })

  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))

  /** An account's client on one engine's HTTP server. */
  const client = async (on: TestEngine, account: Billing.CreatedAccount) => {
    const headers = { authorization: `Bearer ${await on.token(account)}`, "content-type": "application/json" }
    return async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${on.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      return { status: response.status, body: await response.json() }
    }
  }

  const noRows = { charges: 0, customers: 0, payment_methods: 0, subscriptions: 0, withdrawals: 0, refunds: 0, outbox: 0 }

  /** Rows anything of the account's money would have written. */
  const moneyRows = async (accountId: string) => {
    const counts: Record<string, number> = {}
    for (const table of Object.keys(noRows)) {
      const [row] = await sql((s) => s<{ n: number }>`SELECT count(*)::int AS n FROM ${s(table)} WHERE account_id = ${accountId}`)
      counts[table] = Number(row!.n)
    }
    return counts
  }


  it("refuses every route that creates or moves money with 503 PROVIDER_NOT_CONFIGURED naming its provider, writes nothing, and logs once per provider", async () => {
    const production = await engine.createAccount({ sandbox: false })
    const call = await client(engine, production)
    const product = await call("POST", "/v1/products", {
      name: "Plano",
      type: "RECURRING",
      prices: [{ title: "Mensal", amount: 49.9, recurrenceType: "MONTHLY", recurrenceInterval: 1, trialDays: 7 }]
    })
    expect(product.status).toBe(201)
    const priceId = product.body.prices[0].priceId as string
    const link = await call("POST", "/v1/checkouts", { priceId, allowedPaymentMethods: ["pix", "creditcard"] })
    expect(link.status).toBe(201)
    const checkoutId = link.body.id as string

    const refused: ReadonlyArray<readonly [string, string, unknown, "pix" | "card" | "boleto"]> = [
      ["POST", "/v1/charges/pix", { amount: 10 }, "pix"],
      ["POST", "/v1/charges", { paymentMethod: "pix", amount: 10, customer }, "pix"],
      ["POST", "/v1/charges", { paymentMethod: "creditcard", amount: 10, customer, card }, "card"],
      ["POST", "/v1/charges", { paymentMethod: "boleto", amount: 10, customer }, "boleto"],
      // A subscription in its trial charges nothing today, but its cycles would have no provider.
      ["POST", "/v1/charges", { paymentMethod: "creditcard", items: [{ priceId }], customer, card }, "card"],
      ["POST", "/v1/charges", { paymentMethod: "pix_automatico", items: [{ priceId }], customer }, "pix"],
      ["POST", "/v1/charges/single", { paymentMethod: "pix", amount: 10, title: "Avulsa" }, "pix"],
      ["POST", "/v1/charges/single", { paymentMethod: "boleto", amount: 10, title: "Avulsa", customer }, "boleto"],
      ["POST", "/v1/payment-methods", { card }, "card"],
      ["POST", "/v1/wallet/withdraw", { amount: 1, pixKey: "52998224725", pixKeyType: "CPF" }, "pix"],
      ["POST", "/v1/wallet/pix-transfer", { amount: 1, pixKey: "52998224725", pixKeyType: "CPF" }, "pix"],
      ["POST", "/v1/wallet/dict", { pixKey: "52998224725", pixKeyType: "CPF" }, "pix"]
    ]
    for (const [method, path, body, provider] of refused) {
      const answer = await call(method, path, body)
      expect([path, answer.status], JSON.stringify(answer.body)).toEqual([path, 503])
      expect(answer.body.error).toMatchObject({ code: "PROVIDER_NOT_CONFIGURED", details: { provider } })
    }
    // The public payment of the merchant's link, as the hosted page sends it.
    const pay = await fetch(`${engine.baseUrl}/v1/checkouts/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ checkoutId, paymentMethod: "pix", customer })
    })
    expect(pay.status).toBe(503)
    expect((await pay.json()).error).toMatchObject({ code: "PROVIDER_NOT_CONFIGURED", details: { provider: "pix" } })

    expect(await moneyRows(production.accountId)).toEqual(noRows)
    // Once per process and provider, however many refusals.
    for (const provider of ["pix", "card", "boleto"]) {
      expect(logs.lines.filter((line) => line.includes(`provider ${provider} is not configured`))).toHaveLength(1)
    }
  })

  it("keeps every sandbox behaviour for sandbox accounts on the same engine", async () => {
    const sandbox = await engine.createAccount()
    const call = await client(engine, sandbox)
    const pix = await call("POST", "/v1/charges/pix", { amount: 10 })
    expect(pix.status).toBe(200)
    expect(pix.body.emv).toContain("br.gov.bcb.pix")
    const paid = await call("POST", "/v1/charges", { paymentMethod: "creditcard", amount: 10, customer, card })
    expect(paid.body).toMatchObject({ success: true, status: "paid" })
    const declined = await call("POST", "/v1/charges", { paymentMethod: "creditcard", amount: 10, customer, card: { ...card, number: "4000000000000002" } })
    expect(declined.status).toBe(402)
  })

  it("refuses a refund and an upgrade of a production card charge made while a provider was configured", async () => {
    const production = await engine.createAccount({ sandbox: false })
    const viaStandIn = await client(standIn, production)
    const paid = await viaStandIn("POST", "/v1/charges", { paymentMethod: "creditcard", amount: 30, customer, card })
    expect(paid.body).toMatchObject({ success: true, status: "paid" })
    const plans = await viaStandIn("POST", "/v1/products", {
      name: "Planos",
      type: "RECURRING",
      prices: [
        { title: "Básico", amount: 50, recurrenceType: "MONTHLY", recurrenceInterval: 1 },
        { title: "Pro", amount: 90, recurrenceType: "MONTHLY", recurrenceInterval: 1 }
      ]
    })
    const [basic, pro] = plans.body.prices.map((p: { priceId: string }) => p.priceId)
    const subscribed = await viaStandIn("POST", "/v1/charges", { paymentMethod: "creditcard", items: [{ priceId: basic }], customer, card })
    expect(subscribed.body).toMatchObject({ success: true, status: "paid" })
    const before = await moneyRows(production.accountId)

    const call = await client(engine, production)
    const refund = await call("POST", "/v1/wallet/refunds", { chargeId: paid.body.chargeId })
    expect([refund.status, refund.body.error?.code, refund.body.error?.details]).toEqual([503, "PROVIDER_NOT_CONFIGURED", { provider: "card" }])
    const detail = await call("GET", `/v1/subscriptions/${subscribed.body.subscriptionId}`)
    const upgrade = await call("PUT", `/v1/subscriptions/${subscribed.body.subscriptionId}/items/${detail.body.primaryItemId}`, { priceId: pro })
    expect([upgrade.status, upgrade.body.error?.code]).toEqual([503, "PROVIDER_NOT_CONFIGURED"])
    expect(await moneyRows(production.accountId)).toEqual(before)
  })

  it("leaves a production account's due cycle SCHEDULED, logs it once, and bills it once when the provider appears", async () => {
    const production = await engine.createAccount({ sandbox: false })
    const viaStandIn = await client(standIn, production)
    const plan = await viaStandIn("POST", "/v1/products", {
      name: "Mensal",
      type: "RECURRING",
      prices: [{ title: "Mensal", amount: 99.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 }]
    })
    const subscribed = await viaStandIn("POST", "/v1/charges", { paymentMethod: "creditcard", items: [{ priceId: plan.body.prices[0].priceId }], customer, card })
    expect(subscribed.body).toMatchObject({ success: true, status: "paid" })
    const subscriptionId = subscribed.body.subscriptionId as string
    const cycles = () =>
      sql((s) =>
        s<{ n: number; status: string; charges: number }>`SELECT c.cycle_number AS n, c.status,
            (SELECT count(*)::int FROM charges h WHERE h.subscription_id = c.subscription_id AND h.cycle_number = c.cycle_number) AS charges
          FROM billing_cycles c WHERE c.subscription_id = ${subscriptionId} ORDER BY c.cycle_number`
      ).then((rows) => rows.map((r) => [Number(r.n), r.status, Number(r.charges)]))
    expect(await cycles()).toEqual([[1, "PAID", 1], [2, "SCHEDULED", 0]])

    // Cycle 2 falls due a calendar month after the first; 35 days later it is due whatever the month.
    clock.advanceMillis(35 * DAY)
    try {
      await engine.run(Billing.runBillingJobs(EVERY_ACCOUNT))
      await engine.run(Billing.runBillingJobs(EVERY_ACCOUNT))
      expect(await cycles()).toEqual([[1, "PAID", 1], [2, "SCHEDULED", 0]])
      expect(logs.lines.filter((line) => line.includes("left SCHEDULED"))).toHaveLength(1)

      // The provider appears: the cycle is billed, once, however many runs follow.
      await standIn.run(Billing.runBillingJobs(EVERY_ACCOUNT))
      await standIn.run(Billing.runBillingJobs(EVERY_ACCOUNT))
      await engine.run(Billing.runBillingJobs(EVERY_ACCOUNT))
      expect(await cycles()).toEqual([[1, "PAID", 1], [2, "PAID", 1], [3, "SCHEDULED", 0]])
    } finally {
      clock.advanceMillis(-35 * DAY)
    }
  })
})

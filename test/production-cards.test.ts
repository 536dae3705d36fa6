/**
 * A production account takes cards through Mercado Pago, end to end through
 * real HTTP on PostgreSQL, against the fake Mercado Pago of the providers'
 * tests (its books, its idempotency keys, every request recorded): a card
 * approved and one refused (the 402 body of the spec), 3 installments, a
 * partial refund, a connection cut after Mercado Pago took the payment
 * (asked again under the same key: one payment), no answer at all (the
 * charge stays PROCESSING, never failed behind a captured payment), a 3-D
 * Secure challenge refused with its own reason, and such a one-off charge
 * settled later by the job that asks Mercado Pago what it did (paid once, or
 * failed). A subscription's card is kept on file at Mercado Pago after its
 * first payment and its renewal charged by the kept card through the billing
 * run; a card cycle whose outcome is unknown stays PROCESSING and the
 * stalled-card job settles it by asking again. A sandbox account in the same
 * engine never reaches Mercado Pago. The card number and CVV appear in no
 * row of any table and in no log line.
 */
import { type AccountId, Acquirer, Billing } from "@billing/core"
import type { ProvidersConfig } from "@billing/providers"
import { Clock, Effect, Fiber, Layer, Logger, Redacted, References } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { idempotencyKey } from "../packages/providers/src/card/MercadoPagoAcquirer.ts"
import { FAKE_ACCESS_TOKEN, FAKE_PUBLIC_KEY, type FakeMercadoPago, startFakeMercadoPago } from "../packages/providers/test/support/FakeMercadoPago.ts"
import { cardExpiration } from "./support/Cards.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { seedDueSubscriptions } from "./support/SeedSubscriptions.ts"

/** The test cards page's Visa, and a CVV of ours; the holder's name decides Mercado Pago's outcome (APRO approves, FUND lacks funds). */
const PAN = "4235647728025682"
const CVV = "739"
const card = (holder: string) => ({ number: PAN, cvv: CVV, name: holder, expiration: cardExpiration() })
const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" }

/** Every log line of the engine, at every level, as text. */
const capture = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ message, cause }) => lines.push(`${JSON.stringify(message)} ${String(cause)}`))
  return { lines, layer: Layer.mergeAll(Logger.layer([logger]), Layer.succeed(References.MinimumLogLevel, "Debug")) }
}

describe("production cards through Mercado Pago", () => {
  const logs = capture()
  let fake: FakeMercadoPago
  let engine: TestEngine
  beforeAll(async () => {
    fake = await startFakeMercadoPago()
    const providers: ProvidersConfig = {
      publicUrl: "http://127.0.0.1",
      pix: [],
      card: { provider: "mercadopago", accessToken: Redacted.make(FAKE_ACCESS_TOKEN), publicKey: FAKE_PUBLIC_KEY, baseUrl: fake.baseUrl }
    }
    engine = await startEngine("postgres", { providers, logging: logs.layer })
  })
  afterAll(async () => {
    await engine?.dispose()
    await fake?.close()
  })

  const merchant = async (sandbox = false) => {
    const account = await engine.createAccount({ sandbox })
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${engine.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      return { status: response.status, body: await response.json() as any }
    }
    return { account, call, pay: (body: Record<string, unknown>) => call("POST", "/v1/charges", { paymentMethod: "creditcard", customer, ...body }) }
  }
  const sql = <A extends object>(query: string) => engine.run(Effect.flatMap(SqlClient.SqlClient, (s) => s.unsafe<A>(query)))
  /** A production merchant's monthly plan of `amount`, bought by card (Mercado Pago approves it) by a buyer of its own e-mail: cycle 1 paid. */
  const subscribedByCard = async (amount: number, email: string) => {
    const { account, call } = await merchant()
    const plan = await call("POST", "/v1/products", { name: "Mensal", type: "RECURRING", prices: [{ title: "Mensal", amount, recurrenceType: "MONTHLY", recurrenceInterval: 1 }] })
    const bought = await call("POST", "/v1/charges", { paymentMethod: "creditcard", customer: { ...customer, email }, card: card("APRO"), items: [{ priceId: plan.body.prices[0].priceId }] })
    expect(bought.body, JSON.stringify(bought.body)).toMatchObject({ status: "paid", subscriptionId: expect.any(String) })
    return { account, call, subscriptionId: bought.body.subscriptionId as string }
  }
  /** Every time-driven job of `accountId`, as of noon in São Paulo on `date` (`YYYY-MM-DD`). */
  const runJobsOn = (accountId: AccountId, date: string) =>
    engine.run(Effect.gen(function*() {
      const base = yield* Clock.clockWith(Effect.succeed)
      const offset = Date.parse(`${date}T12:00:00-03:00`) - base.currentTimeMillisUnsafe()
      return yield* Billing.runBillingJobs({ accountId }).pipe(Effect.provideService(Clock.Clock, Billing.shiftedClock(base, offset)))
    }))
  const paymentPosts = (chargeId: string) =>
    fake.calls.filter((c) => c.method === "POST" && c.path === "/v1/payments" && c.idempotencyKey === idempotencyKey("payment", chargeId))

  it("charges an approved card at Mercado Pago once, with the payer's e-mail and CPF, and refuses a declined one with the spec's 402", async () => {
    const { call, pay } = await merchant()
    const paid = await pay({ amount: 100, card: card("APRO") })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body).toEqual({ success: true, customerId: expect.any(String), chargeId: expect.any(String), status: "paid" })
    const { chargeId } = paid.body
    expect((await call("GET", `/v1/charges/${chargeId}`)).body).toMatchObject({ status: "PAID", paymentType: "CREDIT_CARD" })
    const [payment, ...more] = fake.paymentsOf(chargeId)
    expect(more).toEqual([])
    expect(payment).toMatchObject({
      status: "approved",
      captured: true,
      transaction_amount: 100,
      installments: 1,
      payment_method_id: "visa",
      payer: { email: "ana@example.com", identification: { type: "CPF", number: "52998224725" } }
    })
    expect(paymentPosts(chargeId)).toHaveLength(1)

    const refused = await pay({ amount: 40, card: card("FUND") })
    expect(refused.status).toBe(402)
    expect(refused.body).toEqual({ success: false, chargeId: expect.any(String), status: "failed", error: "insufficient_funds" })
    expect((await call("GET", `/v1/charges/${refused.body.chargeId}`)).body.status).toBe("FAILED")
    expect(fake.paymentsOf(refused.body.chargeId).map((p) => [p.status, p.captured])).toEqual([["rejected", false]])
  })

  it("charges 3 installments: Mercado Pago receives installments 3 and the charge's whole amount", async () => {
    const { call, pay } = await merchant()
    const paid = await pay({ amount: 300, card: card("APRO"), installments: 3 })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const [payment] = fake.paymentsOf(paid.body.chargeId)
    expect([payment!.installments, payment!.transaction_amount]).toEqual([3, 300])
    expect((await call("GET", `/v1/charges/${paid.body.chargeId}`)).body.amount).toBe(300)
  })

  it("refunds part of a card charge at Mercado Pago, naming its payment", async () => {
    const { call, pay } = await merchant()
    const { chargeId } = (await pay({ amount: 100, card: card("APRO") })).body
    const refund = await call("POST", "/v1/wallet/refunds", { chargeId, amount: 30 })
    expect(refund.status, JSON.stringify(refund.body)).toBe(201)
    const [payment] = fake.paymentsOf(chargeId)
    expect(refund.body).toMatchObject({ success: true, status: "CONFIRMED", amount: 30, paymentType: "CREDIT_CARD", providerChargeId: String(payment!.id) })
    expect(payment!.refunds.map((r) => r.amount)).toEqual([30])
    expect([payment!.status, payment!.transaction_amount_refunded]).toEqual(["approved", 30])
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PARTIALLY_REFUNDED")
  })

  it("captures once when the connection was cut after Mercado Pago took the payment, asking again under the same key", async () => {
    const { pay } = await merchant()
    const before = fake.paymentsCreated()
    fake.force("payments", { kind: "drop" })
    const paid = await pay({ amount: 59.9, card: card("APRO") })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body.status).toBe("paid")
    expect(paymentPosts(paid.body.chargeId)).toHaveLength(2)
    expect(fake.paymentsCreated() - before).toBe(1)
    expect(fake.paymentsOf(paid.body.chargeId).map((p) => [p.status, p.captured])).toEqual([["approved", true]])
  })

  it("keeps a charge PROCESSING, never FAILED, when Mercado Pago took the payment but never answered", async () => {
    const { call, pay } = await merchant()
    // The engine's first attempt and its one retry, each done and cut before the answer.
    fake.force("payments", { kind: "drop" }, { kind: "drop" })
    const unknown = await pay({ amount: 25, card: card("APRO") })
    expect(unknown.status).toBe(502)
    expect(unknown.body.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", details: { status: "PROCESSING" } })
    const { chargeId } = unknown.body.error.details
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PROCESSING")
    expect(fake.paymentsOf(chargeId).map((p) => [p.status, p.captured])).toEqual([["approved", true]])
  })

  it("settles a one-off card charge left PROCESSING by asking Mercado Pago what it did: the approved one PAID once, the refused one FAILED and its coupon released", async () => {
    const { account, call, pay } = await merchant()
    expect((await call("POST", "/v1/coupons", { code: "CINCO", name: "Cinco", discountType: "FIXED", discountValue: 5 })).status).toBe(201)
    const redemptions = async () => (await call("GET", "/v1/coupons?search=CINCO")).body.items[0].currentRedemptions as number
    const leaveUnanswered = async (holder: string, amount: number, couponCode?: string) => {
      // The engine's attempt and its one retry, each done by Mercado Pago and cut before the answer.
      fake.force("payments", { kind: "drop" }, { kind: "drop" })
      const unknown = await pay({ amount, card: card(holder), ...(couponCode === undefined ? {} : { couponCode }) })
      expect(unknown.body.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", details: { status: "PROCESSING" } })
      return unknown.body.error.details.chargeId as string
    }
    const approved = await leaveUnanswered("APRO", 35)
    // The coupon stays used while the card may have been charged.
    const refused = await leaveUnanswered("FUND", 36, "CINCO")
    expect(await redemptions()).toBe(1)
    const events = (chargeId: string) =>
      sql<{ event: string }>(`SELECT event FROM outbox WHERE account_id = '${account.accountId}' AND body::jsonb ->> 'chargeId' = '${chargeId}' ORDER BY id`)
        .then((rows) => rows.map((r) => r.event))
    const settle = () => engine.run(Billing.resolveCardOutcomes(100, { accountId: account.accountId }))
    const touched = (minutes: number) => sql(`UPDATE charges SET updated_at = now() - interval '${minutes} minutes' WHERE id IN ('${approved}', '${refused}')`)

    // A charge its checkout may still be waiting for is left to it.
    expect(await settle()).toBe(0)
    // A minute on they are claimed. A worker stopped while asking hands its claims back: the next one asks at once.
    await touched(2)
    let asked!: () => void
    const asking = new Promise<void>((resolve) => (asked = resolve))
    const silent = Effect.map(Acquirer, (engines) => Acquirer.of({ ...engines, lookup: () => Effect.andThen(Effect.sync(() => asked()), Effect.never) }))
    const stopped = await engine.run(Effect.forkDetach(Effect.flatMap(silent, (acquirer) =>
      Billing.resolveCardOutcomes(100, { accountId: account.accountId }).pipe(Effect.provideService(Acquirer, acquirer)))))
    await asking
    await engine.run(Fiber.interrupt(stopped))
    // The job asks Mercado Pago by the charge's reference, and records what it did.
    const before = fake.paymentsCreated()
    expect(await settle()).toBe(2)
    expect((await call("GET", `/v1/charges/${approved}`)).body).toMatchObject({ status: "PAID", paymentType: "CREDIT_CARD" })
    expect((await call("GET", `/v1/charges/${refused}`)).body).toMatchObject({ status: "FAILED" })
    expect(fake.paymentsCreated()).toBe(before)
    expect(fake.paymentsOf(approved).map((p) => [p.status, p.captured])).toEqual([["approved", true]])
    expect(fake.paymentsOf(refused).map((p) => p.status)).toEqual(["rejected"])
    expect(await events(approved)).toEqual(["payment.success"])
    expect(await events(refused)).toEqual([])
    // The payment's credit in the merchant's ledger, once; none for the refusal.
    const credits = (chargeId: string) =>
      sql<{ n: string }>(`SELECT count(*) AS n FROM ledger_entries WHERE kind = 'PAYMENT' AND reference_id = '${chargeId}'`).then((rows) => Number(rows[0]!.n))
    expect([await credits(approved), await credits(refused)]).toEqual([1, 0])
    expect((await sql<{ reason: string }>(`SELECT failure_reason AS reason FROM charges WHERE id = '${refused}'`))[0]!.reason).toBe("insufficient_funds")
    // Refused, as a checkout that heard the refusal would: the coupon use is given back.
    expect(await redemptions()).toBe(0)

    // Settled once: claimed again, nothing more is recorded.
    await touched(2)
    expect(await settle()).toBe(0)
    expect(await events(approved)).toEqual(["payment.success"])
  })

  it("leaves a production card charge Mercado Pago never took to the card job, which expires it once its window ended", async () => {
    const { account, call, pay } = await merchant()
    // Both attempts answered 500 before Mercado Pago did anything: the outcome is unknown to the engine.
    fake.force("payments", { kind: "answer", answer: { status: 500, body: { message: "internal_error" } } }, { kind: "answer", answer: { status: 500, body: { message: "internal_error" } } })
    const unknown = await pay({ amount: 45, card: card("APRO") })
    expect(unknown.body.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", details: { status: "PROCESSING" } })
    const { chargeId } = unknown.body.error.details
    expect(fake.paymentsOf(chargeId)).toEqual([])
    // Its window over, and untouched for two minutes.
    await sql(`UPDATE charges SET expires_at = now() - interval '1 minute', updated_at = now() - interval '2 minutes' WHERE id = '${chargeId}'`)
    // The expiry job leaves it: it cannot know whether the card was charged.
    await engine.run(Billing.expireDueCharges(100, { accountId: account.accountId }))
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PROCESSING")
    // The card job asks Mercado Pago, which has no payment under the reference: it expires, with its event.
    expect(await engine.run(Billing.resolveCardOutcomes(100, { accountId: account.accountId }))).toBe(1)
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("EXPIRED")
    const events = await sql<{ event: string }>(`SELECT event FROM outbox WHERE body::jsonb ->> 'chargeId' = '${chargeId}' ORDER BY id`)
    expect(events.map((e) => e.event)).toEqual(["charge.expired"])
  })

  it("settles a subscription's first card cycle its checkout never heard about: not expired, asked of Mercado Pago, the subscription paid once and its card kept", async () => {
    const { account, call } = await merchant()
    const plan = await call("POST", "/v1/products", { name: "Anual", type: "RECURRING", prices: [{ title: "Anual", amount: 99, recurrenceType: "YEARLY", recurrenceInterval: 1 }] })
    const buyer = { ...customer, email: "assinante.silencio@example.com" }
    // The engine's attempt and its one retry, each done by Mercado Pago and cut before the answer.
    fake.force("payments", { kind: "drop" }, { kind: "drop" })
    const unknown = await call("POST", "/v1/charges", { paymentMethod: "creditcard", customer: buyer, card: card("APRO"), items: [{ priceId: plan.body.prices[0].priceId }] })
    expect(unknown.status).toBe(502)
    expect(unknown.body.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", details: { status: "PROCESSING" } })
    const { chargeId } = unknown.body.error.details
    const state = async () =>
      (await sql<{ charge: string; cycle: string; subscription: string }>(`SELECT c.status AS charge, b.status AS cycle, s.status AS subscription
        FROM charges c JOIN billing_cycles b ON b.subscription_id = c.subscription_id AND b.cycle_number = c.cycle_number
        JOIN subscriptions s ON s.id = c.subscription_id WHERE c.id = '${chargeId}'`))[0]
    // Its answer window over and untouched for two minutes: the expiry job leaves it, since the card may have been charged.
    await sql(`UPDATE charges SET expires_at = now() - interval '1 minute', updated_at = now() - interval '2 minutes' WHERE id = '${chargeId}'`)
    await engine.run(Billing.expireDueCharges(100, { accountId: account.accountId }))
    expect((await state())?.charge).toBe("PROCESSING")
    // The card job looks the payment up (charging nothing) and records it as the checkout would have.
    const before = fake.paymentsCreated()
    expect(await engine.run(Billing.resolveCardOutcomes(100, { accountId: account.accountId }))).toBe(1)
    expect(await state()).toEqual({ charge: "PAID", cycle: "PAID", subscription: "ACTIVE" })
    expect(fake.paymentsCreated()).toBe(before)
    expect(fake.paymentsOf(chargeId).map((p) => [p.status, p.captured])).toEqual([["approved", true]])
    const events = await sql<{ event: string }>(`SELECT event FROM outbox WHERE body::jsonb ->> 'chargeId' = '${chargeId}' AND event LIKE 'payment.%' ORDER BY id`)
    expect(events.map((e) => e.event)).toEqual(["payment.success"])
    const credits = await sql<{ n: string }>(`SELECT count(*) AS n FROM ledger_entries WHERE kind = 'PAYMENT' AND reference_id = '${chargeId}'`)
    expect(Number(credits[0]!.n)).toBe(1)
    // Its card kept on file for the renewals, as an answered checkout keeps it.
    expect(fake.customersOf(buyer.email).flatMap((c) => c.cards)).toHaveLength(1)
  })

  it("refuses a card whose issuer asks for 3-D Secure, as authentication_required, capturing nothing", async () => {
    const { call, pay } = await merchant()
    fake.force("payments", { kind: "challenge" })
    const refused = await pay({ amount: 450, card: card("APRO") })
    expect(refused.status).toBe(402)
    expect(refused.body).toEqual({ success: false, chargeId: expect.any(String), status: "failed", error: "authentication_required" })
    expect((await call("GET", `/v1/charges/${refused.body.chargeId}`)).body.status).toBe("FAILED")
    expect(fake.paymentsOf(refused.body.chargeId).map((p) => [p.status, p.captured])).toEqual([["pending", false]])
  })

  it("refuses a production card charge without the payer's e-mail, which Mercado Pago requires, before calling it", async () => {
    const { pay } = await merchant()
    const calls = fake.calls.length
    const { email: _, ...anonymous } = customer
    const refused = await pay({ amount: 10, card: card("APRO"), customer: anonymous })
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe("INVALID_DATA")
    expect(JSON.stringify(refused.body)).toContain("customer.email")
    expect(fake.calls.length).toBe(calls)
  })

  it("keeps a sandbox account's cards on the sandbox's card table: Mercado Pago is never called", async () => {
    const { call, pay } = await merchant(true)
    const calls = fake.calls.length
    const approved = await pay({ amount: 10, card: { ...card("APRO"), number: "4111111111111111" } })
    expect(approved.body).toMatchObject({ status: "paid", chargeId: expect.stringMatching(/^SANDBOX_cha_/) })
    const declined = await pay({ amount: 10, card: { ...card("APRO"), number: "4000000000000004" } })
    expect([declined.status, declined.body.error]).toEqual([402, "insufficient_funds"])
    const pm = await call("POST", "/v1/payment-methods", { card: { ...card("APRO"), number: "4111111111111111" } })
    expect(pm.status).toBe(201)
    expect((await call("POST", "/v1/wallet/refunds", { chargeId: approved.body.chargeId, amount: 5 })).body.status).toBe("CONFIRMED")
    expect(fake.calls.length).toBe(calls)
    // The same engine's production accounts do reach it.
    await (await merchant()).pay({ amount: 10, card: card("APRO") })
    expect(fake.calls.length).toBeGreaterThan(calls)
  })

  it("leaves a billing run's card cycles PROCESSING on an unknown outcome, and the stalled-card job settles them by asking again", async () => {
    const { accountId } = await seedDueSubscriptions(engine, 9)
    const cardCharges = () =>
      sql<{ status: string; n: string }>(`SELECT c.status, count(*) AS n FROM charges c JOIN billing_cycles b ON b.charge_id = c.id
        WHERE c.account_id = '${accountId}' AND c.payment_type = 'CREDIT_CARD' AND b.cycle_number = 2 AND c.subscription_id LIKE 'SANDBOX_sub_CLONE%'
        GROUP BY c.status ORDER BY c.status`).then((rows) => rows.map((r) => [r.status, Number(r.n)]))
    // Every authorization of the batch gets no outcome (the account is a sandbox one: the test's acquirer stands in front of the engine's).
    const silent = Effect.map(Acquirer, (engines) => Acquirer.of({ ...engines, authorize: () => Effect.succeed({ _tag: "Unknown", reason: "no answer" }) }))
    await engine.run(Effect.flatMap(silent, (acquirer) => Billing.issueDueCycles(100).pipe(Effect.provideService(Acquirer, acquirer))))
    // 9 clones of 9 templates, 3 of them by card, each with its second cycle due today.
    expect(await cardCharges()).toEqual([["PROCESSING", 3]])
    // Their claims run out (a minute, in real time); the stalled-card job asks the engine's acquirer again.
    await sql(`UPDATE billing_cycles SET claimed_until = now() - interval '1 second' WHERE status = 'PROCESSING'`)
    expect(await engine.run(Billing.resumeStalledCards(100))).toBe(3)
    expect(await cardCharges()).toEqual([["PAID", 3]])
  })

  it("keeps a subscription's card on file at Mercado Pago after its first payment, and the billing run renews it by the kept card", async () => {
    const { account, call } = await merchant()
    const plan = await call("POST", "/v1/products", { name: "Mensal", type: "RECURRING", prices: [{ title: "Mensal", amount: 79.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 }] })
    const buyer = { ...customer, email: "assinante.renova@example.com" }
    const from = fake.calls.length
    const bought = await call("POST", "/v1/charges", { paymentMethod: "creditcard", customer: buyer, card: card("APRO"), items: [{ priceId: plan.body.prices[0].priceId }] })
    expect(bought.status, JSON.stringify(bought.body)).toBe(200)
    expect(bought.body).toMatchObject({ status: "paid", subscriptionId: expect.any(String) })
    const { subscriptionId } = bought.body

    // Kept once the first payment (with the CVV) was approved: one customer of the payer's e-mail, the card under it.
    const [mpCustomer, ...otherCustomers] = fake.customersOf(buyer.email)
    expect(otherCustomers).toEqual([])
    const [kept, ...otherCards] = mpCustomer!.cards
    expect(otherCards).toEqual([])
    const keeping = () => fake.calls.slice(from).filter((c) => c.path.startsWith("/v1/customers")).map((c) => [c.method, c.path])
    expect(keeping()).toEqual([["GET", "/v1/customers/search"], ["POST", "/v1/customers"], ["POST", `/v1/customers/${mpCustomer!.id}/cards`]])
    const [method] = await sql<{ token: string }>(`SELECT m.acquirer_token AS token FROM payment_methods m JOIN subscriptions s ON s.payment_method_id = m.id
      WHERE s.id = '${subscriptionId}'`)
    expect(method!.token).toBe(`mp:cof:${mpCustomer!.id}:${kept!.id}:visa`)

    // The renewal, on cycle 2's due date: charged by a fresh token of the kept card, the customer as payer.
    const cycle2 = async () =>
      (await sql<{ due: string; status: string; chargeId: string | null; chargeStatus: string | null }>(`SELECT to_char(b.due_date, 'YYYY-MM-DD') AS due,
        b.status, b.charge_id AS "chargeId", c.status AS "chargeStatus" FROM billing_cycles b LEFT JOIN charges c ON c.id = b.charge_id
        WHERE b.subscription_id = '${subscriptionId}' AND b.cycle_number = 2`))[0]!
    await runJobsOn(account.accountId, (await cycle2()).due)
    const renewed = await cycle2()
    expect([renewed.status, renewed.chargeStatus]).toEqual(["PAID", "PAID"])
    const [payment, ...more] = fake.paymentsOf(renewed.chargeId!)
    expect(more).toEqual([])
    expect(payment).toMatchObject({ status: "approved", captured: true, transaction_amount: 79.9, payer: { type: "customer", id: mpCustomer!.id }, card: { id: kept!.id } })
    // Nothing kept again: the customer and the card were made once.
    expect(keeping()).toHaveLength(3)
    expect(fake.customersOf(buyer.email).flatMap((c) => c.cards)).toHaveLength(1)
  })

  it("never expires a production renewal whose answer was lost: the stalled-card job asks Mercado Pago again, which answers the first payment", async () => {
    const { account, subscriptionId } = await subscribedByCard(49.9, "assinante.sem.resposta@example.com")
    const cycle2 = async () =>
      (await sql<{ due: string; status: string; chargeId: string | null; chargeStatus: string | null }>(`SELECT to_char(b.due_date, 'YYYY-MM-DD') AS due,
        b.status, b.charge_id AS "chargeId", c.status AS "chargeStatus" FROM billing_cycles b LEFT JOIN charges c ON c.id = b.charge_id
        WHERE b.subscription_id = '${subscriptionId}' AND b.cycle_number = 2`))[0]!
    // The renewal's authorization and its one retry, each done by Mercado Pago and cut before the answer.
    fake.force("payments", { kind: "drop" }, { kind: "drop" })
    const due = (await cycle2()).due
    await runJobsOn(account.accountId, due)
    const { chargeId } = await cycle2()
    expect(await cycle2()).toMatchObject({ status: "PROCESSING", chargeStatus: "PROCESSING" })
    // Hours on, its answer window long over: the expiry leaves it, since Mercado Pago did capture it.
    await sql(`UPDATE charges SET expires_at = now() - interval '5 hours' WHERE id = '${chargeId}'`)
    await engine.run(Billing.expireDueCharges(100, { accountId: account.accountId }))
    expect((await cycle2()).chargeStatus).toBe("PROCESSING")
    // Its claim over, the stalled-card job asks again under the same key and records the first payment: paid once.
    await sql(`UPDATE billing_cycles SET claimed_until = now() - interval '1 second' WHERE charge_id = '${chargeId}'`)
    expect(await engine.run(Billing.resumeStalledCards(100))).toBeGreaterThanOrEqual(1)
    expect(await cycle2()).toMatchObject({ status: "PAID", chargeStatus: "PAID" })
    expect(fake.paymentsOf(chargeId!).map((p) => [p.status, p.captured])).toEqual([["approved", true]])
  })

  it("marks a renewal Mercado Pago still does not answer overdue the day after its due date, and records its payment once it answers", async () => {
    const { account, call, subscriptionId } = await subscribedByCard(39.9, "assinante.em.analise@example.com")
    const cycle2 = async () =>
      (await sql<{ due: string; status: string; overdue: boolean; chargeStatus: string | null }>(`SELECT to_char(b.due_date, 'YYYY-MM-DD') AS due,
        b.status, b.overdue_at IS NOT NULL AS overdue, c.status AS "chargeStatus" FROM billing_cycles b LEFT JOIN charges c ON c.id = b.charge_id
        WHERE b.subscription_id = '${subscriptionId}' AND b.cycle_number = 2`))[0]!
    const dayAfter = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
    // Mercado Pago gives no outcome for the renewal, nor when asked again (its payment under review, say).
    const silent = Effect.map(Acquirer, (engines) => Acquirer.of({ ...engines, authorize: () => Effect.succeed({ _tag: "Unknown", reason: "under review" }) }))
    const runSilentOn = (date: string) =>
      engine.run(Effect.gen(function*() {
        const base = yield* Clock.clockWith(Effect.succeed)
        const offset = Date.parse(`${date}T12:00:00-03:00`) - base.currentTimeMillisUnsafe()
        return yield* Billing.runBillingJobs({ accountId: account.accountId }).pipe(
          Effect.provideService(Clock.Clock, Billing.shiftedClock(base, offset)),
          Effect.provideService(Acquirer, yield* silent)
        )
      }))
    const due = (await cycle2()).due
    await runSilentOn(due)
    expect(await cycle2()).toMatchObject({ status: "PROCESSING", overdue: false, chargeStatus: "PROCESSING" })

    // The next day: asked again, still no outcome; the stalled-card job keeps the cycle's claim, and marks it overdue under it.
    const next = await runSilentOn(dayAfter(due, 1))
    expect(next.resumed).toBe(1)
    expect(await cycle2()).toMatchObject({ status: "PROCESSING", overdue: true, chargeStatus: "PROCESSING" })
    expect((await call("GET", `/v1/subscriptions/${subscriptionId}`)).body.status).toBe("DEFAULT")

    // Mercado Pago answers at last: the payment is recorded, once.
    await runJobsOn(account.accountId, dayAfter(due, 2))
    expect(await cycle2()).toMatchObject({ status: "PAID", chargeStatus: "PAID" })
    const events = await sql<{ event: string }>(`SELECT event FROM outbox WHERE body LIKE '%${subscriptionId}%' AND event IN ('payment.overdue', 'payment.success') ORDER BY id`)
    expect(events.map((e) => e.event)).toEqual(["payment.success", "payment.overdue", "payment.success"])
  })

  it("keeps a renewal still waiting for Mercado Pago out of the subscription's cancel: the payment it captured is recorded, paid and refundable", async () => {
    const { account, call, subscriptionId } = await subscribedByCard(59.9, "assinante.cancela@example.com")
    const renewal = async () =>
      (await sql<{ due: string; chargeId: string }>(`SELECT to_char(due_date, 'YYYY-MM-DD') AS due, charge_id AS "chargeId" FROM billing_cycles
        WHERE subscription_id = '${subscriptionId}' AND cycle_number = 2`))[0]!
    // The renewal's authorization and its one retry, each done by Mercado Pago and cut before the answer.
    fake.force("payments", { kind: "drop" }, { kind: "drop" })
    await runJobsOn(account.accountId, (await renewal()).due)
    const { chargeId } = await renewal()
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PROCESSING")
    // The merchant cancels the subscription meanwhile: the charge the card may have paid is not canceled.
    const canceled = await call("DELETE", `/v1/subscriptions/${subscriptionId}`)
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200)
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PROCESSING")
    // A lease on, the card job looks it up: Mercado Pago captured it, so it is paid once, with its credit, and can be refunded.
    await sql(`UPDATE charges SET updated_at = now() - interval '2 minutes' WHERE id = '${chargeId}'`)
    expect(await engine.run(Billing.resolveCardOutcomes(100, { accountId: account.accountId }))).toBe(1)
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("PAID")
    const credits = await sql<{ n: string }>(`SELECT count(*) AS n FROM ledger_entries WHERE kind = 'PAYMENT' AND reference_id = '${chargeId}'`)
    expect(Number(credits[0]!.n)).toBe(1)
    const refund = await call("POST", "/v1/wallet/refunds", { chargeId })
    expect(refund.body, JSON.stringify(refund.body)).toMatchObject({ status: "CONFIRMED" })
    expect(fake.paymentsOf(chargeId).map((p) => p.status)).toEqual(["refunded"])
  })

  it("keeps the card number and CVV out of every row of every table and out of every log line", async () => {
    // One more production charge by a tokenized card, so payment methods have a row too.
    const { call } = await merchant()
    const pm = await call("POST", "/v1/payment-methods", { card: card("APRO") })
    expect(pm.status, JSON.stringify(pm.body)).toBe(201)
    const tables = await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`))
    expect(tables.length).toBeGreaterThan(10)
    const rows = await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.forEach(tables, ({ name }) => sql<{ row: string }>`SELECT row_to_json(t)::text AS row FROM ${sql(name)} t`)))
    const stored = rows.flat().map(({ row }) => row)
    // The charges above are stored (their card's first six and last four), and nothing more of the card.
    expect(stored.some((row) => row.includes('"5682"'))).toBe(true)
    // The CVV as a value of its own (quoted, or bare between separators), not three digits inside a timestamp or an id.
    const cvv = new RegExp(`(?<=^|["\\s:,=\\[{(])${CVV}(?=$|["\\s,\\]})])`)
    expect(stored.filter((row) => row.includes(PAN))).toEqual([])
    expect(stored.filter((row) => cvv.test(row))).toEqual([])
    expect(logs.lines.length).toBeGreaterThan(0)
    expect(logs.lines.filter((line) => line.includes(PAN))).toEqual([])
    expect(logs.lines.filter((line) => cvv.test(line))).toEqual([])
    // Mercado Pago got them, on its card token route alone.
    const carrying = fake.calls.filter((c) => c.text.includes(PAN))
    expect(carrying.length).toBeGreaterThan(0)
    expect(new Set(carrying.map((c) => c.path))).toEqual(new Set(["/v1/card_tokens"]))
  })
})

/**
 * Subscriptions through real HTTP on PostgreSQL: creation from the
 * transparent checkout by Pix, card (approved and refused) and boleto, the
 * free period of a trial, coupons and discounts over cycles, the schedule a
 * subscription shows, activation by payment, cancel now and at period end,
 * archive, the list, isolation between accounts, and the events received
 * signed. The engine's clock starts on 31 January 2027 at noon in São Paulo,
 * so every date below is worked out by hand from that day.
 */
import { Brazil, verifyWebhookSignature } from "@billing/core"
import { Result } from "effect"
import { chargesPass, deliveryPass } from "@billing/worker"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cardExpiration } from "./support/Cards.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { offsetClock } from "./support/OffsetClock.ts"
import { startReceiver } from "./support/Receiver.ts"

const START = Date.UTC(2027, 0, 31, 15) // 2027-01-31 12:00 in São Paulo
const DAY = 86_400_000

describe("subscriptions on postgres", () => {
  let engine: TestEngine
  let headers: Record<string, string>
  let account: Awaited<ReturnType<TestEngine["createAccount"]>>
  let other: Record<string, string>
  const time = offsetClock(START - Date.now())
  const call = (method: string, path: string, body?: unknown, as = headers) =>
    fetch(`${engine.baseUrl}${path}`, { method, headers: as, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const post = (path: string, body: unknown) => call("POST", path, body)
  const get = async (path: string, as = headers) => (await call("GET", path, undefined, as)).json()
  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" }
  const address = { street: "Rua das Flores", number: "123", neighborhood: "Centro", city: "Florianópolis", state: "SC", zipCode: "88010000" }
  const card = (number: string) => ({ number, cvv: "123", name: "ANA SOUZA", expiration: cardExpiration(new Date(START).getUTCFullYear()) })
  const plans: Record<string, string> = {}

  /** A product with one price; answers the price id. */
  const price = async (price: Record<string, unknown>, type = "RECURRING") => {
    const product = await (await post("/v1/products", { name: `Plano ${Object.keys(plans).length}`, type, prices: [price] })).json()
    return product.prices[0].priceId as string
  }
  const subscribe = async (body: Record<string, unknown>) => {
    const response = await post("/v1/charges", { paymentMethod: "pix", customer, items: [{ priceId: plans.monthly }], ...body })
    return { status: response.status, body: await response.json() }
  }
  const detail = (id: string) => get(`/v1/subscriptions/${id}`)
  const pay = async (chargeId: string) => {
    expect((await call("POST", `/v1/wallet/pay/${chargeId}`)).status).toBe(200)
    await engine.run(chargesPass())
  }
  /** Runs `body` `days` later (with a token of that day), then comes back. */
  const later = async <A>(days: number, body: () => Promise<A>): Promise<A> => {
    const todays = headers
    time.advanceMillis(days * DAY)
    try {
      headers = { ...todays, authorization: `Bearer ${await engine.token(account)}` }
      return await body()
    } finally {
      time.advanceMillis(-days * DAY)
      headers = todays
    }
  }
  const itemOf = (sub: { items: Array<{ itemId: string; priceId: string; status: string }> }, priceId: string, status?: string) =>
    sub.items.find((i) => i.priceId === priceId && (status === undefined || i.status === status))!
  const events = async (subscriptionId: string) =>
    (await sql((s) => s<{ event: string; body: string }>`SELECT event, body FROM outbox ORDER BY created_at, id`))
      .map((row) => ({ event: row.event, body: JSON.parse(row.body) }))
      .filter((row) => row.body.subscriptionId === subscriptionId)

  beforeAll(async () => {
    engine = await startEngine("postgres", { clock: time.clock })
    account = await engine.createAccount()
    headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const stranger = await engine.createAccount()
    other = { authorization: `Bearer ${await engine.token(stranger)}`, "content-type": "application/json" }
    plans.monthly = await price({ title: "Mensal", amount: 99.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 })
    plans.trial = await price({ title: "Mensal com teste", amount: 49.9, recurrenceType: "MONTHLY", recurrenceInterval: 1, trialDays: 7 })
    plans.bump = await price({ title: "E-book", amount: 20, recurrenceType: "ONE_TIME" }, "ONE_TIME")
    plans.premium = await price({ title: "Premium", amount: 149.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 })
    plans.basic = await price({ title: "Básico", amount: 49.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 })
    plans.addon = await price({ title: "Usuário extra", amount: 10, recurrenceType: "MONTHLY", recurrenceInterval: 1 })
  })
  afterAll(() => engine?.dispose())

  it("creates a Pix subscription with cycle 1 issued, its invoice, the next cycle scheduled, and activates it on payment", async () => {
    const created = await subscribe({ items: [{ priceId: plans.monthly }, { priceId: plans.bump, isOrderBump: true }], issueDaysBeforeDue: 5 })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({
      success: true,
      status: "pending",
      subscriptionId: expect.stringMatching(/^SANDBOX_sub_/),
      chargeId: expect.stringMatching(/^SANDBOX_cha_/),
      pix: { emv: expect.any(String), qrCode: expect.stringMatching(/^data:image\/png;base64,/) }
    })
    const { subscriptionId, chargeId } = created.body
    const before = await detail(subscriptionId)
    // 99.90 plan + 20.00 order bump on the first invoice = 119.90; later cycles 99.90.
    expect(before).toMatchObject({
      subscriptionId,
      status: "PENDING",
      interval: "MONTHLY",
      billingDay: 31,
      paymentType: "PIX",
      checkoutUrl: `${engine.baseUrl}/pay/${chargeId}`,
      name: "Ana Souza",
      document: "52998224725",
      taxId: "52998224725",
      currentCycleNumber: 1,
      currentCycleAmount: 119.9,
      nextCycleAmount: 99.9,
      nextCycleChargeDate: "2027-02-28",
      issueDaysBeforeDue: 5,
      cancellation: { immediate: true, effectiveAt: "2027-01-31" },
      card: null,
      customer: { name: "Ana Souza", document: "52998224725", ltv: 0 }
    })
    expect(before.items.map((i: { type: string; status: string; origin: string }) => [i.type, i.status, i.origin])).toEqual([
      ["RECURRING", "PENDING", "CHECKOUT"],
      ["ONE_TIME", "PENDING", "ORDER_BUMP"]
    ])
    expect(before.primaryItemId).toBe(before.items[0].itemId)
    const [first, second] = before.billingCycles
    expect(first).toMatchObject({
      cycleNumber: 1,
      cycle: { status: "AWAITING_PAYMENT", amount: 119.9, chargeDate: "2027-01-31", chargeId, paymentMethod: "pix", discount: 0 },
      expectedIssueDate: null,
      charge: { paymentType: "PIX", status: "PENDING", amount: 119.9 }
    })
    expect(first.invoices).toHaveLength(1)
    expect(first.invoices[0]).toMatchObject({ status: "AWAITING_PAYMENT", dueDate: "2027-01-31", summary: { discount: 0, total: 119.9 } })
    expect(first.invoices[0].lineItems.map((l: { type: string; netAmount: number }) => [l.type, l.netAmount])).toEqual([["RECURRING", 99.9], ["ONE_TIME", 20]])
    // Cycle 2 is due on the last day of February and issued five days before.
    expect(second).toMatchObject({ cycleNumber: 2, cycle: { status: "SCHEDULED", amount: 99.9, chargeDate: "2027-02-28" }, expectedIssueDate: "2027-02-23" })

    await pay(chargeId)
    const after = await detail(subscriptionId)
    // What this customer paid so far: this subscription's first invoice, 99.90 + 20.00.
    expect(after).toMatchObject({ status: "ACTIVE", checkoutUrl: null, customer: { ltv: 119.9 } })
    expect(after.items.map((i: { status: string }) => i.status)).toEqual(["ACTIVE", "CHARGED"])
    expect(after.billingCycles[0].cycle.status).toBe("PAID")
    expect(after.billingCycles[0].invoices[0]).toMatchObject({ status: "PAID", paidAt: expect.any(String) })
    expect((await events(subscriptionId)).map((e) => e.event)).toEqual(["subscription.created", "charge.created", "payment.success", "subscription.activated"])
  })

  it("charges a card at once: ACTIVE with the card kept; a refused card answers 402 and leaves it PENDING with the cycle FAILED", async () => {
    const approved = await subscribe({ paymentMethod: "creditcard", card: card("4111111111111111") })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ success: true, status: "paid", chargeId: expect.any(String), subscriptionId: expect.any(String) })
    const active = await detail(approved.body.subscriptionId)
    expect(active).toMatchObject({ status: "ACTIVE", paymentType: "CREDIT_CARD", card: { brand: "visa", firstSix: "411111", lastFour: "1111" } })
    expect(active.billingCycles[0].cycle.status).toBe("PAID")
    const paid = await events(approved.body.subscriptionId)
    expect(paid.map((e) => e.event)).toEqual(["subscription.created", "charge.created", "payment.success", "subscription.activated"])
    expect(paid[2]!.body).toMatchObject({ accountNumber: expect.any(String), subscriptionId: approved.body.subscriptionId, paymentMethod: "CREDIT_CARD", amount: 99.9 })

    const refused = await subscribe({ paymentMethod: "creditcard", card: card("4000000000000004") })
    expect(refused.status).toBe(402)
    expect(refused.body).toEqual({ success: false, chargeId: expect.any(String), status: "failed", error: "insufficient_funds" })
    const [row] = await sql((s) => s<{ id: string }>`SELECT subscription_id AS id FROM charges WHERE id = ${refused.body.chargeId}`)
    const pending = await detail(row!.id)
    expect(pending.status).toBe("PENDING")
    expect(pending.billingCycles[0]).toMatchObject({ cycle: { status: "FAILED" }, invoices: [{ status: "UNCOLLECTIBLE" }] })
    const failed = await events(row!.id)
    expect(failed.map((e) => e.event)).toEqual(["subscription.created", "charge.created", "payment.failed"])
    expect(failed[2]!.body).toMatchObject({ accountId: expect.any(String), failed: "insufficient_funds", chargeId: refused.body.chargeId, amount: 99.9 })
    expect(failed[2]!.body).not.toHaveProperty("accountNumber")
    // The card number is kept nowhere.
    const dump = await sql((s) => s<{ row: string }>`SELECT row_to_json(x)::text AS row FROM subscriptions x`)
    for (const { row: text } of dump) expect(text).not.toContain("4000000000000004")
  })

  it("issues a boleto subscription with the buyer's address", async () => {
    const created = await subscribe({ paymentMethod: "boleto", customer: { ...customer, address }, boletoInstructions: { fine: 2, interest: 1 } })
    expect(created.status).toBe(200)
    // Cycle 1 is due today, 31 January; a boleto is never due the day it is issued: 1 February.
    expect(created.body.boleto).toMatchObject({ digitableLine: expect.any(String), dueDate: "2027-02-01" })
    const sub = await detail(created.body.subscriptionId)
    expect(sub).toMatchObject({
      paymentType: "BOLETO",
      boletoInstructions: { fine: 2, interest: 1 },
      customerAddress: { street: "Rua das Flores", number: "123", city: "Florianópolis", state: "SC", zipCode: "88010000" }
    })
    expect(sub.billingCycles[0].invoices[0]).toMatchObject({ paymentType: "BOLETO", dueDate: "2027-02-01" })
  })

  it("starts a trial without a charge: TRIALING, cycle 1 scheduled when the trial ends", async () => {
    const created = await subscribe({ items: [{ priceId: plans.trial }] })
    expect(created.status).toBe(200)
    expect(created.body).toEqual({ success: true, customerId: expect.any(String), subscriptionId: expect.any(String), status: "trialing" })
    const sub = await detail(created.body.subscriptionId)
    // Seven trial days from 31 January: free until 6 February, first charge on the 7th.
    expect(sub).toMatchObject({ status: "TRIALING", trialEndsOn: "2027-02-06", currentCycleAmount: 49.9, nextCycleChargeDate: "2027-02-07", nextCycleAmount: 49.9 })
    expect(sub.billingCycles).toHaveLength(1)
    expect(sub.billingCycles[0]).toMatchObject({ cycle: { status: "SCHEDULED", chargeDate: "2027-02-07", chargeId: null }, expectedIssueDate: "2027-02-07", invoices: [] })
    expect(sub.items[0].status).toBe("TRIALING")
    expect((await events(created.body.subscriptionId)).map((e) => e.event)).toEqual(["subscription.created", "subscription.trial"])
    const trial = (await events(created.body.subscriptionId))[1]!.body
    expect(trial.items[0].price.trialDays).toBe(7)
  })

  it("applies a coupon for maxCycles cycles and discounts over a range of cycles", async () => {
    expect((await post("/v1/coupons", { code: "PRIMEIRO10", name: "10% no primeiro", discountType: "PERCENTAGE", discountValue: 10, maxCycles: 1 })).status).toBe(201)
    const coupon = await subscribe({ couponCode: "PRIMEIRO10" })
    const withCoupon = await detail(coupon.body.subscriptionId)
    // 99.90 less 10% (9.99) = 89.91 on cycle 1 only.
    expect(withCoupon.billingCycles.map((c: { cycle: { amount: number; discount: number } }) => [c.cycle.amount, c.cycle.discount])).toEqual([[89.91, 9.99], [99.9, 0]])
    expect(withCoupon.coupon).toEqual({ code: "PRIMEIRO10", discountType: "PERCENTAGE", discountValue: 10, extraPeriodUnit: null, maxCycles: 1 })
    expect(withCoupon.billingCycles[0].invoices[0].summary).toEqual({ discount: 9.99, total: 89.91 })

    const ranged = await subscribe({ discounts: [{ type: "fixed", value: 10, fromCycle: 2, toCycle: 3 }, { type: "percentage", value: 50, paymentMethod: "boleto" }] })
    const withDiscounts = await detail(ranged.body.subscriptionId)
    // The fixed 10.00 starts on cycle 2; the boleto-only discount never applies to Pix.
    expect(withDiscounts.billingCycles.map((c: { cycle: { amount: number } }) => c.cycle.amount)).toEqual([99.9, 89.9])
  })

  it("gives an EXTRA_PERIOD coupon's free month without a charge, and splits a cart of two intervals into two subscriptions", async () => {
    expect((await post("/v1/coupons", { code: "MESGRATIS", name: "Um mês grátis", discountType: "EXTRA_PERIOD", discountValue: 1, extraPeriodUnit: "MONTHS" })).status).toBe(201)
    const free = await subscribe({ couponCode: "MESGRATIS" })
    expect(free.body).toMatchObject({ status: "trialing" })
    expect(free.body.chargeId).toBeUndefined()
    // One month from 31 January is 28 February: free until the 27th, first charge on the 28th.
    const sub = await detail(free.body.subscriptionId)
    expect(sub).toMatchObject({ status: "TRIALING", trialEndsOn: "2027-02-27", coupon: { discountType: "EXTRA_PERIOD", discountValue: 1, extraPeriodUnit: "MONTHS" } })
    expect(sub.billingCycles[0].cycle).toMatchObject({ status: "SCHEDULED", chargeDate: "2027-02-28", amount: 99.9, discount: 0 })

    const yearly = await price({ title: "Suporte anual", amount: 120, recurrenceType: "YEARLY", recurrenceInterval: 1 })
    const cart = await subscribe({ items: [{ priceId: plans.monthly }, { priceId: yearly }, { priceId: plans.bump, isOrderBump: true }], cartId: "carrinho-42", externalId: "pedido-42" })
    expect(cart.status).toBe(200)
    expect(cart.body).toMatchObject({ cartId: "carrinho-42", subscriptionId: cart.body.subscriptions[0].subscriptionId })
    expect(cart.body.subscriptions).toHaveLength(2)
    const [monthly, annual] = await Promise.all(cart.body.subscriptions.map((s: { subscriptionId: string }) => detail(s.subscriptionId)))
    // The order bump rides on the first subscription's first invoice: 99.90 + 20.00.
    expect(monthly).toMatchObject({ interval: "MONTHLY", cartId: "carrinho-42", currentCycleAmount: 119.9 })
    expect(annual).toMatchObject({ interval: "YEARLY", cartId: "carrinho-42", currentCycleAmount: 120, nextCycleChargeDate: "2028-01-31" })
    expect(cart.body.subscriptions[1]).toMatchObject({ status: "pending", chargeId: expect.any(String), pix: { emv: expect.any(String) } })
    // The cart's externalId belongs to its first charge: a repeat is refused before anything is created.
    const repeat = await subscribe({ items: [{ priceId: plans.monthly }, { priceId: yearly }], externalId: "pedido-42" })
    expect(repeat.status).toBe(409)
  })

  it("shows the schedule of every interval worked out by hand", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: "Trimestral", amount: 10, recurrenceType: "QUARTERLY", recurrenceInterval: 1 }, "2027-04-30"],
      [{ title: "Semestral", amount: 10, recurrenceType: "SEMIANNUAL", recurrenceInterval: 1 }, "2027-07-31"],
      [{ title: "Anual", amount: 10, recurrenceType: "YEARLY", recurrenceInterval: 1 }, "2028-01-31"],
      [{ title: "Bimestral", amount: 10, recurrenceType: "MONTHLY", recurrenceInterval: 2 }, "2027-03-31"],
      [{ title: "Quinzenal", amount: 10, recurrenceType: "WEEKLY", recurrenceInterval: 2 }, "2027-02-14"],
      [{ title: "A cada 3 dias", amount: 10, recurrenceType: "DAILY", recurrenceInterval: 3 }, "2027-02-03"]
    ]
    for (const [p, expected] of cases) {
      const created = await subscribe({ items: [{ priceId: await price(p) }] })
      expect((await detail(created.body.subscriptionId)).nextCycleChargeDate, String(p.title)).toBe(expected)
    }
    // billingDay 10 from 31 January: the first cycle is due on 10 February, the next on 10 March.
    const byDay = await detail((await subscribe({ billingDay: 10 })).body.subscriptionId)
    expect(byDay.billingCycles.map((c: { cycle: { chargeDate: string } }) => c.cycle.chargeDate)).toEqual(["2027-02-10", "2027-03-10"])
    // A prorata from today to the 10th: 10 of the 31 days from 10 January, 99.90 × 10 / 31 = 32.2258… → 32.23.
    const prorata = await detail((await subscribe({ billingDay: 10, prorataStartDate: "2027-01-31" })).body.subscriptionId)
    expect(prorata.billingCycles.map((c: { cycle: { amount: number; chargeDate: string } }) => [c.cycle.amount, c.cycle.chargeDate])).toEqual([
      [32.23, "2027-01-31"],
      [99.9, "2027-02-10"]
    ])
    expect(prorata.billingCycles[0].invoices[0].lineItems[0]).toMatchObject({ type: "PRORATA", netAmount: 32.23 })
    const merged = await detail((await subscribe({ billingDay: 10, prorataStartDate: "2027-01-31", mergeWithNextCycle: true })).body.subscriptionId)
    expect(merged.billingCycles.map((c: { cycle: { amount: number; chargeDate: string } }) => [c.cycle.amount, c.cycle.chargeDate])).toEqual([
      [132.13, "2027-02-10"],
      [99.9, "2027-03-10"]
    ])
    // A year later (2028 is a leap year) a monthly subscription from 31 January is next due on 29 February.
    time.advanceMillis(365 * DAY)
    const todays = headers
    try {
      headers = { ...todays, authorization: `Bearer ${await engine.token(account)}` } // the token of a year ago has expired
      expect((await detail((await subscribe({})).body.subscriptionId)).nextCycleChargeDate).toBe("2028-02-29")
    } finally {
      time.advanceMillis(-365 * DAY)
      headers = todays
    }
  })

  it("cancels now (open cycles and the charge canceled), refuses a repeat, and schedules a cancel at period end that a later cancel keeps", async () => {
    const { body } = await subscribe({})
    const canceled = await call("DELETE", `/v1/subscriptions/${body.subscriptionId}`, { reason: "cliente pediu" })
    expect(canceled.status).toBe(200)
    expect(await canceled.json()).toEqual({
      success: true,
      message: expect.any(String),
      subscriptionId: body.subscriptionId,
      status: "CANCELED",
      cancelAtPeriodEnd: false,
      effectiveAt: null,
      canceledAt: expect.stringMatching(/^2027-01-31T/),
      canceledCycles: 2
    })
    const sub = await detail(body.subscriptionId)
    expect(sub).toMatchObject({ status: "CANCELED", cancelReason: "cliente pediu", canceledAt: expect.any(String), nextCycleChargeDate: null })
    expect(sub.billingCycles.map((c: { cycle: { status: string } }) => c.cycle.status)).toEqual(["CANCELED", "CANCELED"])
    expect(sub.billingCycles[0].invoices[0].status).toBe("CANCELED")
    expect((await get(`/v1/charges/${body.chargeId}`)).status).toBe("CANCELED")
    const again = await call("DELETE", `/v1/subscriptions/${body.subscriptionId}`)
    expect(again.status).toBe(400)
    expect((await again.json()).error.code).toBe("SUBSCRIPTION_ALREADY_CANCELED")
    const last = (await events(body.subscriptionId)).at(-1)!
    expect(last).toMatchObject({ event: "subscription.canceled", body: { reason: "cliente pediu", currentCycle: { cycleNumber: 1 } } })

    const active = await subscribe({ paymentMethod: "creditcard", card: card("4111111111111111") })
    const scheduled = await call("DELETE", `/v1/subscriptions/${active.body.subscriptionId}`, { cancelAtPeriodEnd: true })
    expect(await scheduled.json()).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true, effectiveAt: "2027-02-28", canceledCycles: 0 })
    expect(await detail(active.body.subscriptionId)).toMatchObject({
      status: "ACTIVE",
      cancelAtPeriodEnd: true,
      cancellation: { immediate: false, effectiveAt: "2027-02-28" }
    })
    expect((await events(active.body.subscriptionId)).at(-1)!.event).toBe("subscription.cancel_scheduled")
    const scheduledAnswer = { status: "ACTIVE", cancelAtPeriodEnd: true, effectiveAt: "2027-02-28", canceledAt: null, canceledCycles: 0 }
    // A cancel of a subscription whose end is scheduled keeps the schedule, as its `cancellation` promised.
    const repeat = await call("DELETE", `/v1/subscriptions/${active.body.subscriptionId}`, { cancelAtPeriodEnd: true })
    expect(repeat.status).toBe(200)
    expect(await repeat.json()).toMatchObject(scheduledAnswer)

    // The same after the schedule was set by PATCH, with a DELETE that sends no body.
    const patched = await subscribe({ paymentMethod: "creditcard", card: card("4111111111111111") })
    const id = patched.body.subscriptionId
    expect((await call("PATCH", `/v1/subscriptions/${id}`, { cancelAtPeriodEnd: true })).status).toBe(200)
    expect(await detail(id)).toMatchObject({ cancellation: { immediate: false, effectiveAt: "2027-02-28" } })
    const deleted = await call("DELETE", `/v1/subscriptions/${id}`)
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toMatchObject(scheduledAnswer)
    expect(await detail(id)).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true, cancellation: { immediate: false, effectiveAt: "2027-02-28" } })
    for (const subscriptionId of [active.body.subscriptionId, id]) {
      const scheduledEvents = (await events(subscriptionId)).filter((e: { event: string }) => e.event === "subscription.cancel_scheduled")
      expect(scheduledEvents).toHaveLength(1)
      expect((await events(subscriptionId)).some((e: { event: string }) => e.event === "subscription.canceled")).toBe(false)
    }
  })

  it("lists with filters, hides archived ones, and refuses deleting a customer or product with open subscriptions", async () => {
    const buyer = { ...customer, name: "Bruno Lima", email: "bruno@example.com", documentNumber: "11144477735" }
    const { body } = await subscribe({ customer: buyer })
    const page = await get(`/v1/subscriptions?document=111.444.777-35`)
    expect(page.data.map((s: { subscriptionId: string }) => s.subscriptionId)).toEqual([body.subscriptionId])
    expect(page.data[0]).toMatchObject({
      status: "PENDING",
      paymentType: "PIX",
      customer: { name: "Bruno Lima", document: "11144477735" },
      currentCycleNumber: 1,
      currentCycleAmount: 99.9,
      nextCycleChargeDate: "2027-02-28",
      lastCharge: { status: "PENDING", netAmount: expect.any(Number) }
    })
    expect(page).toMatchObject({ hasMore: false, lastKey: null, pagination: { total: 1 } })
    expect((await get(`/v1/subscriptions?search=bruno&status=PENDING`)).data).toHaveLength(1)
    expect((await get(`/v1/subscriptions?search=bruno&status=ACTIVE`)).data).toHaveLength(0)
    expect((await call("GET", "/v1/subscriptions?status=PAUSED")).status).toBe(400)
    const firstTwo = await get("/v1/subscriptions?limit=2")
    expect(firstTwo.data).toHaveLength(2)
    const next = await get(`/v1/subscriptions?limit=2&lastKey=${firstTwo.lastKey}`)
    expect(next.data[0].subscriptionId).not.toBe(firstTwo.data[1].subscriptionId)

    const customerDelete = await call("DELETE", `/v1/customers/${body.customerId}`)
    expect(customerDelete.status).toBe(400)
    expect((await customerDelete.json()).error).toMatchObject({ code: "CUSTOMER_HAS_ACTIVE_SUBSCRIPTIONS", message: expect.stringContaining("1 assinatura") })
    const customerView = await get(`/v1/customers/${body.customerId}`)
    expect(customerView.subscriptions).toEqual([expect.objectContaining({ subscriptionId: body.subscriptionId, status: "PENDING" })])
    const [product] = await sql((s) => s<{ id: string }>`SELECT product_id AS id FROM prices WHERE id = ${plans.monthly}`)
    const productDelete = await call("DELETE", `/v1/products/${product!.id}`)
    expect((await productDelete.json()).error.code).toBe("PRODUCT_HAS_ACTIVE_SUBSCRIPTIONS")

    await call("DELETE", `/v1/subscriptions/${body.subscriptionId}`)
    expect((await call("DELETE", `/v1/customers/${body.customerId}`)).status).toBe(200)
    const archived = await call("POST", `/v1/subscriptions/${body.subscriptionId}/archive`)
    expect(await archived.json()).toMatchObject({ status: "ARCHIVED" })
    expect((await get(`/v1/subscriptions?document=11144477735`)).data).toHaveLength(0)
    expect((await get(`/v1/subscriptions?document=11144477735&status=ARCHIVED`)).data).toHaveLength(1)
    expect((await detail(body.subscriptionId)).status).toBe("ARCHIVED")
  })

  it("answers 404 SUBSCRIPTION_NOT_FOUND for another account's subscription on every route", async () => {
    const { body } = await subscribe({})
    const itemId = itemOf(await detail(body.subscriptionId), plans.monthly!).itemId
    const change = { old: { itemId }, new: { priceId: plans.premium } }
    for (const [method, path, payload] of [
      ["GET", `/v1/subscriptions/${body.subscriptionId}`, undefined],
      ["DELETE", `/v1/subscriptions/${body.subscriptionId}`, undefined],
      ["POST", `/v1/subscriptions/${body.subscriptionId}/archive`, undefined],
      ["PUT", `/v1/subscriptions/${body.subscriptionId}/items/${itemId}`, { priceId: plans.premium }],
      ["POST", `/v1/subscriptions/${body.subscriptionId}/items`, { priceId: plans.addon }],
      ["PATCH", `/v1/subscriptions/${body.subscriptionId}`, change],
      ["POST", `/v1/subscriptions/${body.subscriptionId}/prorata`, change],
      ["POST", "/v1/subscriptions/update", { subscriptionId: body.subscriptionId, action: "cancel" }],
      ["POST", "/v1/subscriptions/prorata", { subscriptionId: body.subscriptionId, ...change }],
      ["GET", "/v1/subscriptions/SANDBOX_sub_nope", undefined]
    ] as const) {
      const response = await call(method, path, payload, other)
      expect(response.status, `${method} ${path}`).toBe(404)
      expect((await response.json()).error.code).toBe("SUBSCRIPTION_NOT_FOUND")
    }
    expect((await get("/v1/subscriptions", other)).data).toHaveLength(0)
    expect((await detail(body.subscriptionId)).status).toBe("PENDING")
  })

  it("previews an upgrade and charges exactly the preview by card; a refused card answers 400 PAYMENT_DECLINED and changes nothing", async () => {
    const { body } = await subscribe({ paymentMethod: "creditcard", card: card("4111111111111111") })
    const id = body.subscriptionId
    const itemId = itemOf(await detail(id), plans.monthly!).itemId
    await later(10, async () => {
      // 10 February: 18 of the 28 days from 31 January to 28 February are left.
      // Due: (149.90 − 99.90) × 18/28 = 32.1428… → 32.15 (up); credit 99.90 × 18/28 = 64.2214… → 64.22 (down).
      const preview = await (await post(`/v1/subscriptions/${id}/prorata`, { old: { priceId: plans.monthly }, new: { priceId: plans.premium } })).json()
      expect(preview).toEqual({
        subscriptionId: id,
        type: "UPGRADE",
        currentAmount: 99.9,
        newAmount: 149.9,
        prorataAmount: 32.15,
        remainingDays: 18,
        cycleDays: 28,
        currentCredit: 64.22,
        nextCycleChargeDate: "2027-02-28",
        daysRemaining: 18,
        totalDays: 28
      })
      const provider = await (await post("/v1/subscriptions/prorata", { subscriptionId: id, old: { priceId: plans.monthly }, new: { priceId: plans.premium, quantity: 1 } })).json()
      expect(provider).toEqual(preview)
      expect((await (await post(`/v1/subscriptions/${id}/prorata`, { old: { priceId: plans.basic }, new: { priceId: plans.premium } })).json()).error.code).toBe("OLD_PRICE_NOT_FOUND")
      expect((await (await post(`/v1/subscriptions/${id}/prorata`, { old: { priceId: plans.monthly }, new: { priceId: "SANDBOX_price_x" } })).json()).error.code).toBe("NEW_PRICE_NOT_FOUND")

      // The same card that pays declines now: the subscription moves to a tokenized refused card.
      const refusedCard = await (await post("/v1/payment-methods", { card: card("4000000000000002") })).json()
      const moved = await call("PATCH", `/v1/subscriptions/${id}`, { paymentMethod: "creditcard", paymentMethodId: refusedCard.paymentMethodId })
      expect(await moved.json()).toMatchObject({ success: true, paymentMethod: "creditcard" })
      const declined = await call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: plans.premium })
      expect(declined.status).toBe(400)
      expect((await declined.json()).error).toMatchObject({ code: "PAYMENT_DECLINED", details: { declinedCode: "card_declined" } })
      const unchanged = await detail(id)
      expect(unchanged).toMatchObject({ nextCycleAmount: 99.9, card: { lastFour: "0002" } })
      expect(itemOf(unchanged, plans.monthly!)).toMatchObject({ status: "ACTIVE", upgradedToItemId: null })
      expect(unchanged.paymentMethodChanges).toEqual([expect.objectContaining({ from: "creditcard", to: "creditcard" })])

      await call("PATCH", `/v1/subscriptions/${id}`, { paymentMethod: "creditcard", card: card("4111111111111111") })
      const upgraded = await call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: plans.premium })
      const result = await upgraded.json()
      expect(result).toMatchObject({ success: true, type: "UPGRADE", chargeId: expect.any(String), prorataAmount: 32.15, newAmount: 149.9, status: "paid" })
      expect((await get(`/v1/charges/${result.chargeId}`)).amount).toBe(preview.prorataAmount)
      const after = await detail(id)
      const old = itemOf(after, plans.monthly!)
      const replacement = itemOf(after, plans.premium!, "ACTIVE")
      expect(old).toMatchObject({ status: "CANCELED", upgradedToItemId: replacement.itemId })
      // The refused attempt stays as a record: its item FAILED, its charge FAILED.
      expect(itemOf(after, plans.premium!, "FAILED")).toMatchObject({ origin: "PRORATA_ADJUSTMENT" })
      expect(replacement).toMatchObject({ status: "ACTIVE", origin: "PRORATA_ADJUSTMENT", upgradedFromItemId: itemId })
      // The replacement of the main plan is the main plan now: it cannot be removed.
      expect(after.primaryItemId).toBe(replacement.itemId)
      const remove = await call("PATCH", `/v1/subscriptions/${id}`, { old: { itemId: replacement.itemId } })
      expect((await remove.json()).error.code).toBe("INVALID_DATA")
      expect(after).toMatchObject({ nextCycleAmount: 149.9, billingCycles: [{ cycleNumber: 1 }, { cycleNumber: 2, cycle: { amount: 149.9 } }] })
      // Cycle 1's invoices: its own, the refused attempt's (uncollectible) and the paid prorata.
      expect(after.billingCycles[0].invoices.map((i: { status: string }) => i.status)).toEqual(["PAID", "UNCOLLECTIBLE", "PAID"])
      expect(after.billingCycles[0].invoices[2]).toMatchObject({ summary: { total: 32.15 }, lineItems: [{ type: "PRORATA_UPGRADE", netAmount: 32.15 }] })
      expect(after.planChanges.at(-1)).toMatchObject({ type: "UPGRADE", fromPriceId: plans.monthly, toPriceId: plans.premium, chargeId: result.chargeId, prorataAmount: 32.15 })
      expect((await events(id)).map((e) => e.event).slice(-3)).toEqual(["charge.created", "payment.success", "subscription.upgraded"])
    })
  })

  it("upgrades by Pix: the new item waits for the payment, which applies it", async () => {
    const { body } = await subscribe({})
    await pay(body.chargeId)
    const id = body.subscriptionId
    const itemId = itemOf(await detail(id), plans.monthly!).itemId
    // On the first day of the cycle an upgrade costs the whole difference: 149.90 − 99.90 = 50.00.
    const response = await post("/v1/subscriptions/update", { subscriptionId: id, old: { itemId }, new: { priceId: plans.premium, quantity: 1 } })
    const result = await response.json()
    expect(result).toMatchObject({
      success: true,
      type: "UPGRADE",
      status: "pending",
      prorataAmount: 50,
      paymentMethod: "PIX",
      payment: { emvQrCode: expect.any(String) },
      pix: { emv: expect.any(String), qrCode: expect.stringMatching(/^data:image\/png/) },
      item: { priceId: plans.premium, status: "PENDING_UPGRADE", amount: 149.9 },
      proRataCharge: { chargeId: result.chargeId, amount: 50, status: "PENDING" }
    })
    const waiting = await detail(id)
    expect(itemOf(waiting, plans.premium!).status).toBe("PENDING_UPGRADE")
    expect(itemOf(waiting, plans.monthly!).status).toBe("ACTIVE")
    expect(waiting.nextCycleAmount).toBe(99.9)
    await pay(result.chargeId)
    const applied = await detail(id)
    expect(itemOf(applied, plans.premium!).status).toBe("ACTIVE")
    expect(itemOf(applied, plans.monthly!).status).toBe("CANCELED")
    expect(applied.nextCycleAmount).toBe(149.9)
    expect((await events(id)).at(-1)!.event).toBe("subscription.upgraded")
  })

  it("schedules a downgrade for the next cycle without a charge, removes an add-on, and refuses what the rules forbid", async () => {
    const { body } = await subscribe({ items: [{ priceId: plans.monthly }, { priceId: plans.addon, quantity: 2 }] })
    const id = body.subscriptionId
    const pending = await call("PUT", `/v1/subscriptions/${id}/items/${itemOf(await detail(id), plans.monthly!).itemId}`, { priceId: plans.basic })
    expect((await pending.json()).error.code).toBe("SUBSCRIPTION_NOT_ELIGIBLE")
    await pay(body.chargeId)
    const before = await detail(id)
    expect(before.nextCycleAmount).toBe(119.9) // 99.90 + 2 × 10.00
    const itemId = itemOf(before, plans.monthly!).itemId
    const downgrade = await (await call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: plans.basic })).json()
    expect(downgrade).toEqual({
      success: true,
      type: "DOWNGRADE",
      subscriptionId: id,
      itemId: expect.any(String),
      effectiveAt: "2027-02-28",
      newAmount: 69.9,
      scheduledChange: { effectiveDate: "2027-02-28", newPriceId: plans.basic, newAmount: 69.9 }
    })
    const scheduled = await detail(id)
    expect(itemOf(scheduled, plans.monthly!)).toMatchObject({ status: "ACTIVE", upgradedToItemId: downgrade.itemId })
    expect(itemOf(scheduled, plans.basic!)).toMatchObject({ status: "PENDING", upgradedFromItemId: itemId })
    expect(scheduled).toMatchObject({ currentCycleAmount: 119.9, nextCycleAmount: 69.9 })
    expect(scheduled.billingCycles[0].invoices).toHaveLength(1)
    expect((await events(id)).at(-1)!.event).toBe("subscription.downgrade_scheduled")
    const twice = await call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: plans.basic })
    expect((await twice.json()).error.code).toBe("INVALID_DATA")

    const addon = itemOf(scheduled, plans.addon!).itemId
    const removed = await (await call("PATCH", `/v1/subscriptions/${id}`, { old: { itemId: addon } })).json()
    expect(removed).toEqual({ success: true, type: "REMOVE_ITEM", subscriptionId: id, itemId: addon, newAmount: 49.9 })
    const without = await detail(id)
    expect(itemOf(without, plans.addon!).status).toBe("CANCELED")
    expect(without.nextCycleAmount).toBe(49.9)
    expect((await events(id)).at(-1)!.event).toBe("subscription.item_removed")
    const primary = await call("PATCH", `/v1/subscriptions/${id}`, { old: { itemId } })
    expect((await primary.json()).error.code).toBe("INVALID_DATA")

    const add = await post(`/v1/subscriptions/${id}/items`, { priceId: plans.addon })
    expect(add.status).toBe(400)
    expect((await add.json()).error.code).toBe("SUBSCRIPTION_NOT_ELIGIBLE") // not in cycle 1
    const edited = await (await call("PATCH", `/v1/subscriptions/${id}`, { additionalEmails: ["financeiro@example.com"] })).json()
    expect(edited).toMatchObject({ success: true, additionalEmails: ["financeiro@example.com"] })
    const canceled = await (await call("PATCH", `/v1/subscriptions/${id}`, { action: "cancel", reason: "troca de fornecedor" })).json()
    expect(canceled).toMatchObject({ success: true, status: "CANCELED", canceledAt: expect.any(String) })
  })

  it("moves the billing day with a prorata on the next cycle, recorded in dueDateChanges", async () => {
    const earlier = await subscribe({ paymentMethod: "creditcard", card: card("4111111111111111") })
    // Next due 28 Feb (cycle from 31 Jan, 28 days). Day 10 moves it to 10 Feb, 18 days earlier:
    // credit 99.90 × 18/28 = 64.2214… → 64.22 (down); the cycle then bills 99.90 − 64.22 = 35.68.
    const moved = await (await call("PATCH", `/v1/subscriptions/${earlier.body.subscriptionId}`, { billingDay: 10 })).json()
    expect(moved).toEqual({
      success: true,
      subscriptionId: earlier.body.subscriptionId,
      billingDay: 10,
      previousDueDate: "2027-02-28",
      nextCycleChargeDate: "2027-02-10",
      prorataAmount: -64.22,
      nextCycleAmount: 35.68
    })
    const sub = await detail(earlier.body.subscriptionId)
    expect(sub).toMatchObject({ billingDay: 10, nextCycleChargeDate: "2027-02-10", nextCycleAmount: 35.68 })
    expect(sub.dueDateChanges).toEqual([expect.objectContaining({ fromDay: 31, toDay: 10, previousDueDate: "2027-02-28", newDueDate: "2027-02-10", prorataAmount: -64.22 })])

    const later = await subscribe({ paymentMethod: "creditcard", card: card("4111111111111111"), billingDay: 10 })
    // Next due 10 Mar (cycle from 10 Feb, 28 days). Day 20 adds 10 days: 99.90 × 10/28 = 35.678… → 35.68 (up); 99.90 + 35.68 = 135.58.
    const extra = await (await call("PATCH", `/v1/subscriptions/${later.body.subscriptionId}`, { billingDay: 20 })).json()
    expect(extra).toMatchObject({ previousDueDate: "2027-03-10", nextCycleChargeDate: "2027-03-20", prorataAmount: 35.68, nextCycleAmount: 135.58 })
    const weekly = await subscribe({ items: [{ priceId: await price({ title: "Semanal", amount: 10, recurrenceType: "WEEKLY", recurrenceInterval: 1 }) }], paymentMethod: "creditcard", card: card("4111111111111111") })
    expect((await (await call("PATCH", `/v1/subscriptions/${weekly.body.subscriptionId}`, { billingDay: 5 })).json()).error.code).toBe("INVALID_DATA")
  })

  it("enrolls Pix Automático on a PJ account: a composite code with the recurrence, PENDING until the bank authorizes", async () => {
    const created = await subscribe({ paymentMethod: "pix_automatico" })
    expect(created.status).toBe(200)
    const { recurrencyId, emv } = created.body.pix
    expect(recurrencyId).toMatch(/^RR99999999\d{8}[A-Z0-9]{11}$/)
    const parsed = Brazil.parseBrCode(emv)
    expect(Result.isSuccess(parsed) && parsed.success.recurrenceLocation).toContain(recurrencyId)
    const id = created.body.subscriptionId
    expect(await detail(id)).toMatchObject({ status: "PENDING", paymentType: "PIX_AUTOMATICO", pixRecurrencyId: recurrencyId, pixRecurrenceStatus: "PENDING" })
    // The enrollment charge paid: the cycle is paid, the subscription waits for the bank.
    await pay(created.body.chargeId)
    const paid = await detail(id)
    expect(paid.status).toBe("PENDING")
    expect(paid.billingCycles[0].cycle).toMatchObject({ status: "PAID", paymentMethod: "pix_automatico" })
    const authorized = await (await post(`/v1/subscriptions/pix-automatico/${recurrencyId}/authorize`, {})).json()
    expect(authorized).toEqual({ subscriptionId: id, recurrencyId, recurrenceStatus: "AUTHORIZED", status: "ACTIVE" })
    expect((await events(id)).at(-1)!.event).toBe("subscription.activated")
    const again = await post(`/v1/subscriptions/pix-automatico/${recurrencyId}/reject`, {})
    expect((await again.json()).error.code).toBe("INVALID_DATA")

    const rejected = await subscribe({ paymentMethod: "pix_automatico" })
    const answer = await (await post(`/v1/subscriptions/pix-automatico/${rejected.body.pix.recurrencyId}/reject`, {})).json()
    expect(answer).toMatchObject({ recurrenceStatus: "REJECTED", status: "PENDING" })

    // An existing card subscription moves to Pix Automático once the payer's bank authorizes it.
    const byCard = await subscribe({ paymentMethod: "creditcard", card: card("4111111111111111") })
    const asked = await (await call("PATCH", `/v1/subscriptions/${byCard.body.subscriptionId}`, { paymentMethod: "pix_automatico" })).json()
    expect(asked).toMatchObject({ success: true, paymentMethod: "creditcard", pix: { emv: expect.any(String), qrCode: expect.stringMatching(/^data:image\/png/), recurrencyId: expect.stringMatching(/^RR99999999/) } })
    const alone = Brazil.parseBrCode(asked.pix.emv)
    expect(Result.isSuccess(alone) && alone.success.recurrenceLocation).toContain(asked.pix.recurrencyId)
    await post(`/v1/subscriptions/pix-automatico/${asked.pix.recurrencyId}/authorize`, {})
    const moved = await detail(byCard.body.subscriptionId)
    expect(moved).toMatchObject({ status: "ACTIVE", paymentType: "PIX_AUTOMATICO", pixRecurrenceStatus: "AUTHORIZED", card: null })
    expect(moved.billingCycles[1].cycle.paymentMethod).toBe("pix_automatico")
    expect(moved.paymentMethodChanges).toEqual([expect.objectContaining({ from: "creditcard", to: "pix_automatico" })])

    const cheap = await subscribe({ paymentMethod: "pix_automatico", items: [{ priceId: await price({ title: "Mini", amount: 4.98, recurrenceType: "MONTHLY", recurrenceInterval: 1 }) }] })
    expect(cheap.status).toBe(400)
    expect(cheap.body.error.code).toBe("INVALID_DATA")
    const byAmount = await post("/v1/charges", { paymentMethod: "pix_automatico", customer, amount: 10 })
    expect((await byAmount.json()).error.code).toBe("INVALID_DATA")
    const person = await engine.createAccount({ document: "39053344705" })
    const asPerson = { ...headers, authorization: `Bearer ${await engine.token(person)}` }
    const pf = await call("POST", "/v1/charges", { paymentMethod: "pix_automatico", customer, items: [{ priceId: plans.monthly }] }, asPerson)
    expect(pf.status).toBe(400)
    expect((await pf.json()).error.code).toBe("PIX_AUTOMATICO_PJ_ONLY")
  })

  it("starts a subscription when a checkout link or session with a recurring price is paid (public route)", async () => {
    const link = await (await post("/v1/checkouts", { priceId: plans.monthly, allowedPaymentMethods: ["pix", "creditcard"] })).json()
    const pay = (body: unknown) => fetch(`${engine.baseUrl}/v1/checkouts/pay`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    const paid = await pay({ checkoutId: link.id, paymentMethod: "creditcard", customer, card: card("4111111111111111") })
    expect(paid.status).toBe(200)
    const viaLink = await paid.json()
    expect(viaLink).toMatchObject({ success: true, status: "paid", subscriptionId: expect.any(String) })
    expect(await detail(viaLink.subscriptionId)).toMatchObject({ status: "ACTIVE", checkoutId: link.id })
    expect((await get(`/v1/subscriptions?checkoutId=${link.id}`)).data.map((s: { subscriptionId: string }) => s.subscriptionId)).toEqual([viaLink.subscriptionId])
    const boleto = await pay({ checkoutId: link.id, paymentMethod: "boleto", customer: { ...customer, address } })
    expect(boleto.status).toBe(400)
    expect((await boleto.json()).error.code).toBe("INVALID_DATA")

    // A buyer cannot price its own purchase on the public route: discounts and split in the body are not taken.
    const priced = await (await pay({ checkoutId: link.id, paymentMethod: "pix", customer, discounts: [{ type: "percentage", value: 100 }], split: [{ type: "percentage", amount: 90, accountNumber: "100001" }] })).json()
    expect((await detail(priced.subscriptionId)).currentCycleAmount).toBe(99.9)
    expect((await get(`/v1/charges/${priced.chargeId}?view=detail`)).amount).toBe(99.9)

    const session = await (await post("/v1/checkout-sessions", { priceId: plans.monthly, customer })).json()
    const first = await pay({ sessionId: session.id, paymentMethod: "pix" })
    expect(first.status).toBe(200)
    const viaSession = await first.json()
    expect(viaSession).toMatchObject({ status: "pending", subscriptionId: expect.any(String), pix: { emv: expect.any(String) } })
    expect((await detail(viaSession.subscriptionId)).checkoutId).toBe(session.id)
    expect((await get(`/v1/checkout-sessions/${session.id}`)).status).toBe("completed")
    const second = await pay({ sessionId: session.id, paymentMethod: "pix" })
    expect(second.status).toBe(400)
    expect((await second.json()).error.code).toBe("CHARGE_NOT_PAYABLE")
    const unknown = await pay({ sessionId: "SANDBOX_cs_nope", paymentMethod: "pix" })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.code).toBe("SESSION_NOT_FOUND")
  })

  it("lets one change of a subscription through at a time, and cancels a waiting upgrade's charge with the subscription", async () => {
    const { body } = await subscribe({})
    await pay(body.chargeId)
    const id = body.subscriptionId
    const itemId = itemOf(await detail(id), plans.monthly!).itemId
    const attempts = await Promise.all([0, 1, 2, 3].map(() => call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: plans.premium })))
    const statuses = attempts.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 400, 400, 400])
    const waiting = await detail(id)
    expect(waiting.items.filter((i: { status: string }) => i.status === "PENDING_UPGRADE")).toHaveLength(1)
    const chargeId = (await Promise.all(attempts.map((r) => r.json()))).find((r) => r.success)!.chargeId

    await call("DELETE", `/v1/subscriptions/${id}`)
    expect((await get(`/v1/charges/${chargeId}`)).status).toBe("CANCELED")
    const canceled = await detail(id)
    expect(canceled.billingCycles[0].invoices.map((i: { status: string }) => i.status)).toEqual(["PAID", "CANCELED"])
    expect(canceled.items.every((i: { status: string }) => i.status === "CANCELED")).toBe(true)
  })

  it("refuses a recurring price twice in one purchase and a card without one on file", async () => {
    const twice = await subscribe({ items: [{ priceId: plans.monthly }, { priceId: plans.monthly }] })
    expect(twice.status).toBe(400)
    expect(twice.body.error).toMatchObject({ code: "INVALID_DATA", details: { field: "items" } })
    const bumpInTrial = await subscribe({ items: [{ priceId: plans.trial }, { priceId: plans.bump, isOrderBump: true }] })
    expect(bumpInTrial.body.error).toMatchObject({ code: "INVALID_DATA", details: { field: "items" } })
    const lateDue = await subscribe({ billingDay: 10, prorataStartDate: "2027-01-31", prorataDueDate: "2027-02-15" })
    expect(lateDue.body.error).toMatchObject({ code: "INVALID_DATA", details: { field: "prorataDueDate" } })
    const farStart = await subscribe({ recurrencyStartDate: "9999-12-15" })
    expect(farStart.body.error).toMatchObject({ code: "INVALID_DATA", details: { field: "recurrencyStartDate" } })
    const token = await subscribe({ paymentMethod: "creditcard", tokenId: "tok_acquirer_123" })
    expect(token.status).toBe(400)
    expect(token.body.error).toMatchObject({ code: "INVALID_DATA", details: { field: "tokenId" } })
  })

  it("delivers the subscription events signed, with the subscription base", async () => {
    // Earlier tests' events are fanned out first: the registration below gets only this test's.
    await engine.run(deliveryPass())
    const receiver = await startReceiver()
    try {
      // No `events`: every event of the account but the opt-in ones (a downgrade's among them).
      const registered = await (await post("/v1/users/webhooks", { url: receiver.url })).json()
      const { body } = await subscribe({})
      await pay(body.chargeId)
      await engine.run(deliveryPass())
      const received = () => receiver.received.map((r) => ({ ...r, json: JSON.parse(r.body) })).filter((r) => r.json.subscriptionId === body.subscriptionId)
      const got = received()
      expect(got.map((r) => r.json.event).sort()).toEqual(["charge.created", "payment.success", "subscription.activated", "subscription.created"])
      for (const r of got) {
        const verdict = await verifyWebhookSignature({ header: r.headers["x-webhook-signature"] as string, body: r.body, secret: registered.secret, nowMillis: time.clock.currentTimeMillisUnsafe() })
        expect(verdict.valid, r.json.event).toBe(true)
        expect(r.json).toMatchObject({
          timestamp: expect.stringMatching(/^2027-01-31T/),
          accountNumber: expect.any(String),
          subscriptionId: body.subscriptionId,
          customerId: body.customerId,
          customer: { customerId: body.customerId, name: "Ana Souza", email: "ana@example.com", document: "52998224725" },
          items: [{ priceId: plans.monthly, quantity: 1, amount: 99.9, price: { recurrenceType: "MONTHLY", recurrenceInterval: 1 } }],
          currentCycle: { cycleNumber: 1, amount: 99.9 }
        })
      }
      expect(got.find((r) => r.json.event === "charge.created")!.json).toMatchObject({ status: "PENDING", chargeId: body.chargeId, paymentType: "PIX" })

      // A downgrade (opt-in: not sent here), a cancel at period end, then a cancel now: each event arrives signed, with the base.
      const itemId = itemOf(await detail(body.subscriptionId), plans.monthly!).itemId
      await call("PUT", `/v1/subscriptions/${body.subscriptionId}/items/${itemId}`, { priceId: plans.basic })
      await call("DELETE", `/v1/subscriptions/${body.subscriptionId}`, { cancelAtPeriodEnd: true })
      await call("DELETE", `/v1/subscriptions/${body.subscriptionId}`, { cancelAtPeriodEnd: false, reason: "mudou de ideia" })
      await engine.run(deliveryPass())
      const later = received().slice(got.length)
      // Delivery order is not promised (spec: Events); `timestamp` orders them.
      expect(later.map((r) => r.json.event).sort()).toEqual(["subscription.cancel_scheduled", "subscription.canceled"])
      for (const r of later) {
        expect((await verifyWebhookSignature({ header: r.headers["x-webhook-signature"] as string, body: r.body, secret: registered.secret, nowMillis: time.clock.currentTimeMillisUnsafe() })).valid).toBe(true)
        expect(Object.keys(r.json)).toEqual(expect.arrayContaining(["timestamp", "accountNumber", "subscriptionId", "customerId", "customer", "items", "currentCycle"]))
      }
      expect(later.find((r) => r.json.event === "subscription.canceled")!.json).toMatchObject({ status: "CANCELED", reason: "mudou de ideia", canceledAt: expect.stringMatching(/^2027-01-31T/), currentCycle: { cycleNumber: 1 } })
    } finally {
      await receiver.close()
    }
  })
})

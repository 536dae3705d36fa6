/**
 * The billing run through real HTTP on PostgreSQL, driven by sandbox test
 * clocks: every scenario has its own account, whose clock is first moved to
 * 31 January of the year `Y` at noon in São Paulo, so every date below is
 * worked out by hand from that day (a monthly cycle on day 31 falls due on
 * the last day of shorter months: 28 Feb, 31 Mar, 30 Apr, ...). The retry
 * schedule is `rules/RetrySchedule.ts`: 3, 5 and 7 days after each refusal,
 * then 7 days of dunning.
 *
 * `Y` is `test/support/ScenarioYear.ts`'s: always ahead of the real date,
 * with 2027's calendar (February ends on the 28th, weekdays as in 2027).
 * Nothing here depends on Easter, which moves between such years: cycles,
 * retries, Pix expiry and prorata count calendar days only.
 */
import { type AccountId, Billing, EVERY_ACCOUNT, Subscriptions } from "@billing/core"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBilling } from "./support/Cli.ts"
import { cardExpiration } from "./support/Cards.ts"
import { startEngine, TEST_SECRET_KEY, type TestEngine } from "./support/Engine.ts"
import { hopsTowards, scenarioYear } from "./support/ScenarioYear.ts"
import { CLONE_PREFIX, seedDueSubscriptions } from "./support/SeedSubscriptions.ts"

const Y = scenarioYear()
const START = `${Y}-01-31T15:00:00.000Z` // noon in São Paulo

describe("billing run on postgres", () => {
  let engine: TestEngine
  const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" }
  const card = (number: string) => ({ number, cvv: "123", name: "ANA SOUZA", expiration: cardExpiration(Y) })
  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))

  /** A sandbox account with its clock on START, and what a test does with it. */
  const merchant = async () => {
    const account = await engine.createAccount()
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${engine.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      return { status: response.status, body: await response.json() }
    }
    /** Advances the clock to `to` (a date: its first instant), or by nothing: the jobs due now run. */
    const advance = async (to: string | null) => {
      const moved = await call("POST", "/v1/sandbox/clock/advance", to === null ? { days: 0 } : { to })
      expect(moved.status, JSON.stringify(moved.body)).toBe(200)
      return moved.body
    }
    // One advance goes at most ten years: a START further off than that is reached in hops.
    for (const hop of hopsTowards(Date.now(), START)) expect((await call("POST", "/v1/sandbox/clock/advance", hop)).status).toBe(200)
    await advance(START)
    const price = async (title: string, amount: number, extra: Record<string, unknown> = {}) => {
      const product = await call("POST", "/v1/products", { name: title, type: "RECURRING", prices: [{ title, amount, recurrenceType: "MONTHLY", recurrenceInterval: 1, ...extra }] })
      return product.body.prices[0].priceId as string
    }
    const subscribe = async (body: Record<string, unknown>) => {
      const created = await call("POST", "/v1/charges", { paymentMethod: "creditcard", customer, card: card("4111111111111111"), ...body })
      expect(created.status).toBe(200)
      return created.body as { subscriptionId: string; chargeId?: string; status: string }
    }
    const detail = async (id: string) => (await call("GET", `/v1/subscriptions/${id}`)).body
    const events = async (subscriptionId: string) =>
      (await sql((s) => s<{ event: string; body: string }>`SELECT event, body FROM outbox WHERE account_id = ${account.accountId} ORDER BY id`))
        .map((row) => ({ event: row.event, body: JSON.parse(row.body) }))
        .filter((row) => row.body.subscriptionId === subscriptionId)
    const cycles = async (id: string) =>
      (await detail(id)).billingCycles.map((c: { cycleNumber: number; cycle: { status: string; chargeDate: string; amount: number } }) =>
        [c.cycleNumber, c.cycle.status, c.cycle.chargeDate, c.cycle.amount]
      )
    return { account, call, advance, price, subscribe, detail, events, cycles }
  }

  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  it("reads and advances a sandbox account's clock; a production account refuses it; the clock only moves forward", async () => {
    const { account, call, advance } = await merchant()
    expect((await call("GET", "/v1/sandbox/clock")).body).toMatchObject({ frozen: true, today: `${Y}-01-31` })
    const moved = await advance(`${Y}-02-10`)
    // It ran the jobs due where it was, then where it went.
    expect(moved).toMatchObject({ frozen: true, today: `${Y}-02-10`, now: `${Y}-02-10T03:00:00.000Z`, steps: 2, eventsEmitted: 0 })
    const back = await call("POST", "/v1/sandbox/clock/advance", { to: `${Y}-02-01` })
    expect(back.status).toBe(400)
    expect(back.body.error.code).toBe("INVALID_DATA")
    // The account's requests read its clock: a charge made now is made on 10 February.
    const pix = await call("POST", "/v1/charges/pix", { amount: 10 })
    expect((await call("GET", `/v1/charges/${pix.body.chargeId}`)).body.createdAt.slice(0, 10)).toBe(`${Y}-02-10`)

    // The same from the library: the account's clock moves, its jobs run.
    const fromLibrary = await engine.run(Billing.advanceClock({ days: 1 }).pipe(Billing.asAccount(account.accountId)))
    expect(fromLibrary).toMatchObject({ today: `${Y}-02-11`, frozen: true })
    expect((await call("GET", "/v1/sandbox/clock")).body).toMatchObject({ today: `${Y}-02-11` })

    const production = await engine.createAccount({ sandbox: false })
    const headers = { authorization: `Bearer ${await engine.token(production)}`, "content-type": "application/json" }
    const refused = await fetch(`${engine.baseUrl}/v1/sandbox/clock/advance`, { method: "POST", headers, body: JSON.stringify({ days: 1 }) })
    expect(refused.status).toBe(400)
    expect((await refused.json()).error.code).toBe("NOT_SANDBOX_ACCOUNT")
  })

  it("bills a monthly card subscription for a year: 12 cycles paid, 11 subscription.renewed with the next cycle's fields", async () => {
    const m = await merchant()
    const plan = await m.price("Mensal", 99.9)
    const { subscriptionId } = await m.subscribe({ items: [{ priceId: plan }] })
    // Cycle 12 falls due on 31 December.
    const year = await m.advance(`${Y}-12-31T15:00:00.000Z`)
    expect(year).toMatchObject({ cyclesIssued: 11, chargesCreated: 11, paymentsConfirmed: 11, paymentsFailed: 0, overdue: 0 })
    const due = [`${Y}-01-31`, `${Y}-02-28`, `${Y}-03-31`, `${Y}-04-30`, `${Y}-05-31`, `${Y}-06-30`, `${Y}-07-31`, `${Y}-08-31`, `${Y}-09-30`, `${Y}-10-31`, `${Y}-11-30`, `${Y}-12-31`]
    expect(await m.cycles(subscriptionId)).toEqual([...due.map((d, i) => [i + 1, "PAID", d, 99.9]), [13, "SCHEDULED", `${Y + 1}-01-31`, 99.9]])
    const after = await m.detail(subscriptionId)
    expect(after).toMatchObject({ status: "ACTIVE", currentCycleNumber: 12, currentCycleAmount: 99.9, nextCycleAmount: 99.9, nextCycleChargeDate: `${Y + 1}-01-31` })
    // Every cycle has its paid invoice of one line.
    for (const c of after.billingCycles.slice(0, 12)) {
      expect(c.invoices).toHaveLength(1)
      expect(c.invoices[0]).toMatchObject({ status: "PAID", summary: { total: 99.9 }, lineItems: [{ type: "RECURRING", netAmount: 99.9 }] })
    }
    const renewed = (await m.events(subscriptionId)).filter((e) => e.event === "subscription.renewed")
    expect(renewed).toHaveLength(11)
    expect(renewed[0]!.body).toMatchObject({ status: "ACTIVE", currentCycleNumber: 2, currentCycleAmount: 99.9, nextCycleNumber: 3, nextCycleAmount: 99.9, nextCycleChargeDate: `${Y}-03-31` })
    expect(renewed[10]!.body).toMatchObject({ currentCycleNumber: 12, nextCycleNumber: 13, nextCycleChargeDate: `${Y + 1}-01-31`, timestamp: expect.stringMatching(`^${Y}-12-31T03:00:00\\.`) })
    // Advancing again with nothing due changes nothing.
    expect(await m.advance(`${Y + 1}-01-15`)).toMatchObject({ cyclesIssued: 0, eventsEmitted: 0 })
  })

  it("walks a refused renewal through its retries into DEFAULT and dunning, and back to ACTIVE on a manual retry with a new card", async () => {
    const m = await merchant()
    const plan = await m.price("Mensal", 99.9)
    const { subscriptionId } = await m.subscribe({ items: [{ priceId: plan }] })
    const refusedCard = (await m.call("POST", "/v1/payment-methods", { card: card("4000000000000002") })).body
    await m.call("PATCH", `/v1/subscriptions/${subscriptionId}`, { paymentMethod: "creditcard", paymentMethodId: refusedCard.paymentMethodId })

    // Due 28 February: refused, first retry 3 days later.
    expect(await m.advance(`${Y}-02-28T15:00:00.000Z`)).toMatchObject({ cyclesIssued: 1, paymentsFailed: 1, overdue: 0 })
    let cycle2 = (await m.detail(subscriptionId)).billingCycles[1]
    expect(cycle2.cycle).toMatchObject({ status: "RETRY_SCHEDULED", attemptCount: 1, nextAttemptDate: `${Y}-03-03` })
    expect((await m.detail(subscriptionId)).status).toBe("ACTIVE")
    // The next day it is overdue: DEFAULT, payment.overdue.
    expect(await m.advance(`${Y}-03-01T15:00:00.000Z`)).toMatchObject({ overdue: 1, paymentsFailed: 0 })
    expect((await m.detail(subscriptionId)).status).toBe("DEFAULT")
    // Retries on 3, 8 and 15 March, all refused: dunning until 22 March.
    expect(await m.advance(`${Y}-03-16T15:00:00.000Z`)).toMatchObject({ paymentsFailed: 3, chargesCreated: 3 })
    cycle2 = (await m.detail(subscriptionId)).billingCycles[1]
    expect(cycle2.cycle).toMatchObject({ status: "DUNNING", attemptCount: 4, nextAttemptDate: `${Y}-03-22` })
    expect(cycle2.invoices).toHaveLength(1)
    expect(cycle2.invoices[0]).toMatchObject({ status: "OVERDUE" })
    expect(cycle2.cycle.rulerHistory.map((r: { kind: string }) => r.kind)).toEqual([
      "payment.failed", "payment.overdue", "payment.failed", "payment.failed", "payment.failed"
    ])

    // The customer gives a new card; the merchant retries at once.
    await m.call("PATCH", `/v1/subscriptions/${subscriptionId}`, { paymentMethod: "creditcard", card: card("4111111111111111") })
    // Two clicks at once make one charge: the second waits for the first and finds nothing left to retry.
    const both = await Promise.all([m.call("POST", `/v1/subscriptions/${subscriptionId}/retry`), m.call("POST", `/v1/subscriptions/${subscriptionId}/retry`)])
    expect(both.map((r) => r.status).sort()).toEqual([200, 400])
    const retried = both.find((r) => r.status === 200)!
    expect(both.find((r) => r.status === 400)!.body.error.code).toBe("SUBSCRIPTION_NOT_ELIGIBLE")
    const [attempts] = await sql((s) => s<{ n: number }>`SELECT count(*)::int AS n FROM charges WHERE subscription_id = ${subscriptionId} AND cycle_number = 2`)
    expect(attempts!.n).toBe(5)
    expect(retried.body).toMatchObject({ success: true, cycleNumber: 2, status: "paid", manualRetryCount: 1 })
    const back = await m.detail(subscriptionId)
    expect(back).toMatchObject({ status: "ACTIVE", currentCycleNumber: 2 })
    expect(back.billingCycles[1].cycle).toMatchObject({ status: "PAID", manualRetryCount: 1, lastManualRetryAt: expect.stringMatching(`^${Y}-03-16T`) })
    expect(back.billingCycles[1].invoices[0]).toMatchObject({ status: "PAID", charge: { chargeId: retried.body.chargeId } })
    const names = (await m.events(subscriptionId)).map((e) => e.event)
    expect(names.filter((e) => e === "payment.failed")).toHaveLength(4)
    expect(names.slice(-2)).toEqual(["payment.success", "subscription.renewed"])
    // Nothing is left to retry.
    expect((await m.call("POST", `/v1/subscriptions/${subscriptionId}/retry`)).body.error.code).toBe("SUBSCRIPTION_NOT_ELIGIBLE")
  })

  it("cancels for default when dunning ends unpaid", async () => {
    const m = await merchant()
    const plan = await m.price("Mensal", 99.9)
    const { subscriptionId } = await m.subscribe({ items: [{ priceId: plan }] })
    const refusedCard = (await m.call("POST", "/v1/payment-methods", { card: card("4000000000000004") })).body
    await m.call("PATCH", `/v1/subscriptions/${subscriptionId}`, { paymentMethod: "creditcard", paymentMethodId: refusedCard.paymentMethodId })
    await m.advance(`${Y}-03-23`)
    const ended = await m.detail(subscriptionId)
    expect(ended).toMatchObject({ status: "CANCELED", cancelReason: "DEFAULT" })
    expect(ended.billingCycles.map((c: { cycle: { status: string } }) => c.cycle.status)).toEqual(["PAID", "FAILED", "CANCELED"])
    expect(ended.billingCycles[1].invoices[0].status).toBe("UNCOLLECTIBLE")
    const last = (await m.events(subscriptionId)).at(-1)!
    expect(last).toMatchObject({ event: "subscription.canceled", body: { status: "CANCELED", reason: "DEFAULT" } })
  })

  it("issues a Pix cycle ahead of its due date; unpaid it goes overdue, its charge expires, and a later cycle paid brings it back", async () => {
    const m = await merchant()
    const plan = await m.price("Mensal", 99.9)
    const first = await m.subscribe({ paymentMethod: "pix", card: null, items: [{ priceId: plan }], issueDaysBeforeDue: 5, expirationAfterDueDate: 3 })
    await m.call("POST", `/v1/wallet/pay/${first.chargeId}`)
    // Advancing (even by nothing) runs the account's jobs: the payment is confirmed.
    expect(await m.advance(null)).toMatchObject({ paymentsConfirmed: 1 })
    const id = first.subscriptionId
    expect((await m.detail(id)).status).toBe("ACTIVE")

    // Issued on 23 February, five days before it is due.
    expect(await m.advance(`${Y}-02-23`)).toMatchObject({ cyclesIssued: 1, chargesCreated: 1 })
    const issued = (await m.detail(id)).billingCycles[1]
    expect(issued.cycle).toMatchObject({ status: "AWAITING_PAYMENT", chargeDate: `${Y}-02-28` })
    const pix = (await m.call("GET", `/v1/charges/${issued.cycle.chargeId}`)).body
    expect(pix).toMatchObject({ status: "PENDING", amount: 99.9, emv: expect.stringMatching(/^000201/) })
    // A Pix with due date, payable until the end of 3 March (São Paulo).
    const [row] = await sql((s) => s<{ due: string; expires: Date }>`SELECT to_char(due_date, 'YYYY-MM-DD') AS due, expires_at AS expires FROM charges WHERE id = ${pix.chargeId}`)
    expect([row!.due, new Date(row!.expires).toISOString()]).toEqual([`${Y}-02-28`, `${Y}-03-04T02:59:59.999Z`])
    expect(pix.createdAt.slice(0, 10)).toBe(`${Y}-02-23`)
    // Unpaid on 1 March: overdue.
    expect(await m.advance(`${Y}-03-01`)).toMatchObject({ overdue: 1 })
    const overdue = await m.detail(id)
    expect(overdue.status).toBe("DEFAULT")
    expect(overdue.billingCycles[1].invoices[0].status).toBe("OVERDUE")
    const overdueEvent = (await m.events(id)).find((e) => e.event === "payment.overdue")!
    expect(overdueEvent.body).toMatchObject({ accountNumber: m.account.accountNumber, cycleNumber: 2, chargeId: pix.chargeId, amount: 99.9, dueDate: `${Y}-02-28`, status: "DEFAULT" })
    // Payable 3 days after the due date: it expires at the end of 3 March.
    expect(await m.advance(`${Y}-03-03T23:00:00.000Z`)).toMatchObject({ chargesExpired: 0 })
    expect(await m.advance(`${Y}-03-04`)).toMatchObject({ chargesExpired: 1 })
    const expired = await m.detail(id)
    expect(expired.billingCycles[1].cycle.status).toBe("EXPIRED")
    expect(expired.billingCycles[1].invoices[0].status).toBe("EXPIRED")
    expect((await m.call("GET", `/v1/charges/${pix.chargeId}`)).body.status).toBe("EXPIRED")

    // Cycle 3 is issued on 26 March; paying it brings the subscription back.
    await m.advance(`${Y}-03-26`)
    const third = (await m.detail(id)).billingCycles[2]
    expect(third.cycle).toMatchObject({ status: "AWAITING_PAYMENT", chargeDate: `${Y}-03-31` })
    await m.call("POST", `/v1/wallet/pay/${third.cycle.chargeId}`)
    expect(await m.advance(null)).toMatchObject({ paymentsConfirmed: 1 })
    expect(await m.detail(id)).toMatchObject({ status: "ACTIVE", currentCycleNumber: 3 })
    expect((await m.events(id)).at(-1)!.event).toBe("subscription.renewed")
  })

  it("applies a downgrade on the next cycle and a cancel at period end on its due date", async () => {
    const m = await merchant()
    const premium = await m.price("Premium", 149.9)
    const basic = await m.price("Básico", 49.9)
    const { subscriptionId: id } = await m.subscribe({ items: [{ priceId: premium }] })
    const itemId = (await m.detail(id)).items[0].itemId
    const downgrade = await m.call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: basic })
    expect(downgrade.body).toMatchObject({ success: true, type: "DOWNGRADE", effectiveAt: `${Y}-02-28` })

    await m.advance(`${Y}-02-28T15:00:00.000Z`)
    const swapped = await m.detail(id)
    expect(swapped.billingCycles[1]).toMatchObject({ cycle: { status: "PAID", amount: 49.9 } })
    expect(swapped.billingCycles[1].invoices[0].lineItems).toEqual([expect.objectContaining({ name: "Básico", netAmount: 49.9 })])
    const replacement = swapped.items.find((i: { priceId: string }) => i.priceId === basic)
    expect(swapped.items.find((i: { priceId: string }) => i.priceId === premium)).toMatchObject({ status: "CANCELED", upgradedToItemId: replacement.itemId })
    expect(replacement).toMatchObject({ status: "ACTIVE", upgradedFromItemId: itemId })
    expect(swapped).toMatchObject({ primaryItemId: replacement.itemId, nextCycleAmount: 49.9, nextCycleChargeDate: `${Y}-03-31` })

    const scheduled = await m.call("DELETE", `/v1/subscriptions/${id}`, { cancelAtPeriodEnd: true, reason: "too expensive" })
    expect(scheduled.body).toMatchObject({ success: true, cancelAtPeriodEnd: true, effectiveAt: `${Y}-03-31` })
    expect(await m.advance(`${Y}-03-30`)).toMatchObject({ cyclesIssued: 0 })
    expect((await m.detail(id)).status).toBe("ACTIVE")
    expect(await m.advance(`${Y}-03-31`)).toMatchObject({ cyclesIssued: 0, chargesCreated: 0 })
    const canceled = await m.detail(id)
    expect(canceled).toMatchObject({ status: "CANCELED", cancelReason: "too expensive" })
    expect(canceled.billingCycles.map((c: { cycle: { status: string } }) => c.cycle.status)).toEqual(["PAID", "PAID", "CANCELED"])
    expect((await m.events(id)).at(-1)).toMatchObject({ event: "subscription.canceled", body: { status: "CANCELED", timestamp: expect.stringMatching(`^${Y}-03-31T03:00:00\\.`) } })
  })

  it("issues a cycle whose net no longer fits its split: a part under 0.01 is left to the owner, a fixed part gets what is left", async () => {
    const m = await merchant()
    const seller = await engine.createAccount({ name: "Parceiro", document: "52998224725", parentId: m.account.accountId })
    const plan = await m.price("Mensal", 10)
    const tiny = await m.price("Mínimo", 0.05)
    // No fees on the master's Pix: net = amount. On 10.00: 10% = 1.00, and 5.00 fixed; the seller gets 6.00.
    const split = [{ type: "percentage", amount: 10, accountNumber: seller.accountNumber }, { type: "fixed", amount: 5, accountNumber: seller.accountNumber }]
    const first = await m.subscribe({ paymentMethod: "pix", card: null, items: [{ priceId: plan }], split })
    await m.call("POST", `/v1/wallet/pay/${first.chargeId}`)
    expect(await m.advance(null)).toMatchObject({ paymentsConfirmed: 1 })
    const id = first.subscriptionId
    const itemId = (await m.detail(id)).items[0].itemId
    expect((await m.call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: tiny })).body).toMatchObject({ type: "DOWNGRADE", newAmount: 0.05 })

    // Cycle 2 is 0.05: 10% is 0.005, under 0.01, so that part is not paid; the 5.00 fixed part gets all 0.05 there is.
    expect(await m.advance(`${Y}-02-28T15:00:00.000Z`)).toMatchObject({ cyclesIssued: 1, chargesCreated: 1 })
    const second = (await m.detail(id)).billingCycles[1]
    expect(second.cycle).toMatchObject({ status: "AWAITING_PAYMENT", amount: 0.05 })
    const charge = (await m.call("GET", `/v1/charges/${second.cycle.chargeId}?view=detail`)).body
    expect(charge).toMatchObject({ amount: 0.05, split: [{ accountNumber: seller.accountNumber, type: "fixed", percentage: null, amount: 0.05 }] })
    await m.call("POST", `/v1/wallet/pay/${second.cycle.chargeId}`)
    expect(await m.advance(null)).toMatchObject({ paymentsConfirmed: 1 })
    const balance = await m.call("GET", `/v1/wallet/balance?accountId=${seller.accountNumber}`)
    expect(balance.body).toMatchObject({ availableBalance: 6.05 })
    expect((await m.detail(id)).billingCycles[1].cycle.status).toBe("PAID")
  })

  it("charges an upgrade whose prorata is too small for the subscription's percentage split, the owner keeping all of it", async () => {
    const m = await merchant()
    const seller = await engine.createAccount({ name: "Parceiro", document: "52998224725", parentId: m.account.accountId })
    const basic = await m.price("Básico", 1)
    const plus = await m.price("Mais", 1.95)
    const first = await m.subscribe({ paymentMethod: "pix", card: null, items: [{ priceId: basic }], split: [{ type: "percentage", amount: 10, accountNumber: seller.accountNumber }] })
    await m.call("POST", `/v1/wallet/pay/${first.chargeId}`)
    expect(await m.advance(`${Y}-02-27`)).toMatchObject({ paymentsConfirmed: 1 })
    const id = first.subscriptionId
    const itemId = (await m.detail(id)).items[0].itemId
    // 31 Jan to 28 Feb is 28 days, 1 left on the 27th: 0.95 × 1/28 = 0.0339…, rounded up to 0.04; 10% of it is 0.004.
    const upgrade = await m.call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: plus })
    expect(upgrade.body).toMatchObject({ success: true, type: "UPGRADE", prorataAmount: 0.04 })
    const charge = (await m.call("GET", `/v1/charges/${upgrade.body.chargeId}?view=detail`)).body
    expect(charge).toMatchObject({ amount: 0.04, netAmount: 0.04, split: [] })
  })

  it("ends a trial into its first charge", async () => {
    const m = await merchant()
    const plan = await m.price("Mensal com teste", 49.9, { trialDays: 7 })
    const { subscriptionId: id } = await m.subscribe({ items: [{ priceId: plan }] })
    const trial = await m.detail(id)
    expect(trial.status).toBe("TRIALING")
    const firstDue = trial.billingCycles[0].cycle.chargeDate
    expect(firstDue).toBe(`${Y}-02-07`)
    expect(await m.advance(`${Y}-02-06`)).toMatchObject({ cyclesIssued: 0 })
    expect(await m.advance(`${Y}-02-07T12:00:00.000Z`)).toMatchObject({ cyclesIssued: 1, paymentsConfirmed: 1 })
    const active = await m.detail(id)
    expect(active).toMatchObject({ status: "ACTIVE", nextCycleChargeDate: `${Y}-03-07` })
    expect(active.billingCycles[0]).toMatchObject({ cycle: { status: "PAID", amount: 49.9 }, invoices: [{ status: "PAID" }] })
    expect((await m.events(id)).map((e) => e.event)).toEqual([
      "subscription.created", "subscription.trial", "charge.created", "payment.success", "subscription.activated"
    ])
  })

  it("adds an item in cycle 2, charged by prorata, and bills it from cycle 3", async () => {
    const m = await merchant()
    const plan = await m.price("Mensal", 99.9)
    const addon = await m.price("Usuário extra", 10)
    const { subscriptionId: id } = await m.subscribe({ items: [{ priceId: plan }] })
    const early = await m.call("POST", `/v1/subscriptions/${id}/items`, { priceId: addon })
    expect(early.body.error.code).toBe("SUBSCRIPTION_NOT_ELIGIBLE")
    await m.advance(`${Y}-03-15T15:00:00.000Z`)
    // Cycle 2 runs from 28 February to 30 March: 16 of its 31 days remain on 15 March.
    const added = await m.call("POST", `/v1/subscriptions/${id}/items`, { priceId: addon })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ success: true, status: "paid", prorataAmount: 5.17, newAmount: 109.9 })
    const detail = await m.detail(id)
    expect(detail.items.find((i: { priceId: string }) => i.priceId === addon)).toMatchObject({ status: "ACTIVE", origin: "ADD_ON" })
    await m.advance(`${Y}-03-31T15:00:00.000Z`)
    const third = (await m.detail(id)).billingCycles[2]
    expect(third).toMatchObject({ cycle: { status: "PAID", amount: 109.9 } })
    expect(third.invoices[0].lineItems.map((l: { netAmount: number }) => l.netAmount)).toEqual([99.9, 10])
    expect((await m.events(id)).filter((e) => e.event === "subscription.item_added")).toHaveLength(1)
  })

  it("holds a cycle that grew past ten times the last one, tells only the registrations that name the event, and bills it once approved", async () => {
    const m = await merchant()
    const small = await m.price("Básico", 9.9)
    const large = await m.price("Empresarial", 199)
    const { subscriptionId: id } = await m.subscribe({ items: [{ priceId: small }] })
    const itemId = (await m.detail(id)).items[0].itemId
    await m.call("POST", "/v1/users/webhooks", { url: "https://example.com/all", events: [] })
    const named = await m.call("POST", "/v1/users/webhooks", { url: "https://example.com/held", events: ["subscription.cycle_held"] })
    // An upgrade on 15 February: the prorata is paid now, and cycle 2 would bill 199.00, more than 10 × 9.90.
    await m.advance(`${Y}-02-15T15:00:00.000Z`)
    expect((await m.call("PUT", `/v1/subscriptions/${id}/items/${itemId}`, { priceId: large })).body).toMatchObject({ success: true, status: "paid" })
    expect(await m.advance(`${Y}-02-28T15:00:00.000Z`)).toMatchObject({ cyclesIssued: 1, chargesCreated: 0, events: { "subscription.cycle_held": 1 } })
    const held = (await m.detail(id)).billingCycles[1]
    expect(held).toMatchObject({ cycle: { status: "SCHEDULED", amount: 199, chargeId: null, heldReason: "amount 19900 is more than 10 times the last cycle's 990" }, invoices: [] })
    const event = (await m.events(id)).find((e) => e.event === "subscription.cycle_held")!
    expect(event.body).toMatchObject({ cycleNumber: 2, amount: 199, previousAmount: 9.9, dueDate: `${Y}-02-28`, accountNumber: m.account.accountNumber })
    // Only the registration that names the event gets it; an empty list is the spec's catalog.
    while ((await engine.run(Billing.fanOut(1000))) > 0) {
      // The other tests' events are fanned out first: the outbox is taken in order.
    }
    const deliveries = await sql((s) => s<{ webhook: string }>`SELECT webhook_id AS webhook FROM webhook_deliveries
      WHERE account_id = ${m.account.accountId} AND event = 'subscription.cycle_held'`)
    expect(deliveries.map((d) => d.webhook)).toEqual([named.body.webhookId])
    // Nothing is billed until the merchant approves; then the next pass bills it as it is.
    expect(await m.advance(`${Y}-03-01`)).toMatchObject({ chargesCreated: 0 })
    expect((await m.call("POST", `/v1/subscriptions/${id}/cycles/2/approve`)).body).toMatchObject({ success: true, cycleNumber: 2 })
    expect((await m.call("POST", `/v1/subscriptions/${id}/cycles/2/approve`)).body.error.code).toBe("SUBSCRIPTION_NOT_ELIGIBLE")
    expect(await m.advance(null)).toMatchObject({ cyclesIssued: 1, chargesCreated: 1, paymentsConfirmed: 1 })
    expect((await m.detail(id)).billingCycles[1].cycle).toMatchObject({ status: "PAID", amount: 199, heldReason: null, approvedAt: expect.any(String) })
  })

  it("runs as of a date from the command line: `billing run --until DATE --account ACCOUNT_ID`", async () => {
    // An account without a test clock: its subscription starts today (real time) on the card that pays.
    const account = await engine.createAccount()
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const post = async (path: string, body: unknown) => (await fetch(`${engine.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json()
    const product = await post("/v1/products", { name: "Mensal", type: "RECURRING", prices: [{ title: "Mensal", amount: 50, recurrenceType: "MONTHLY", recurrenceInterval: 1 }] })
    const bought = await post("/v1/charges", { paymentMethod: "creditcard", customer, card: card("4111111111111111"), items: [{ priceId: product.prices[0].priceId }] })
    const [cycle2] = await sql((s) => s<{ due: string }>`SELECT to_char(due_date, 'YYYY-MM-DD') AS due FROM billing_cycles
      WHERE subscription_id = ${bought.subscriptionId} AND cycle_number = 2`)
    const env = { DATABASE_URL: (engine.config as { databaseUrl: string }).databaseUrl, BILLING_SECRET_KEY: TEST_SECRET_KEY }
    const wrong = await runBilling(["run", "--until", "someday"], env)
    expect(wrong.status).toBe(2)
    expect(wrong.stderr).toContain("--until must be a date")
    const ran = await runBilling(["run", "--until", cycle2!.due, "--account", account.accountId], env)
    expect(ran.status, ran.stderr).toBe(0)
    const report = JSON.parse(ran.stdout.trim().split("\n").at(-1)!)
    expect(report).toMatchObject({ until: new Date(`${cycle2!.due}T03:00:00.000Z`).toISOString(), issued: 1, elapsedMs: expect.any(Number), peakRssMb: expect.any(Number), cpuMs: expect.any(Number) })
    const [after] = await sql((s) => s<{ status: string }>`SELECT status FROM billing_cycles WHERE subscription_id = ${bought.subscriptionId} AND cycle_number = 2`)
    expect(after!.status).toBe("PAID")
  })

  it("leaves accounts with a test clock out of the worker's run", async () => {
    const m = await merchant()
    const plan = await m.price("Mensal", 99.9)
    const { subscriptionId: id } = await m.subscribe({ items: [{ priceId: plan }] })
    // The worker's run a year from the account's time: it does not see the account.
    const future = Date.parse(`${Y + 1}-02-01T15:00:00.000Z`)
    await engine.run(Effect.gen(function*() {
      const base = yield* Clock.clockWith(Effect.succeed)
      return yield* Billing.runBillingJobs(EVERY_ACCOUNT).pipe(
        Effect.provideService(Clock.Clock, Billing.shiftedClock(base, future - base.currentTimeMillisUnsafe()))
      )
    }))
    expect((await m.cycles(id)).map((c: Array<unknown>) => c[1])).toEqual(["PAID", "SCHEDULED"])
  })

  it("claims the cycles due on one day in the order of their keys, whatever order the database holds them in", async () => {
    const { accountId } = await seedDueSubscriptions(engine, 9)
    const clones = await sql((s) => s<{ id: string }>`SELECT c.subscription_id AS id FROM billing_cycles c JOIN subscriptions x ON x.id = c.subscription_id
      WHERE x.account_id = ${accountId} AND starts_with(c.subscription_id, ${CLONE_PREFIX}) AND c.cycle_number = 2 ORDER BY c.subscription_id`)
    const byKey = clones.map((row) => row.id)
    expect(byKey).toHaveLength(9)
    // Each row written anew, the last key first: the heap (and each index's run of equal days) now holds them last key first.
    for (const id of [...byKey].reverse()) {
      await sql((s) => s`UPDATE billing_cycles SET issue_date = issue_date - 1 WHERE subscription_id = ${id} AND cycle_number = 2`)
      await sql((s) => s`UPDATE billing_cycles SET issue_date = issue_date + 1 WHERE subscription_id = ${id} AND cycle_number = 2`)
    }
    const claimed: Array<string> = []
    for (let i = 0; i < 9; i++) {
      const refs = await engine.run(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const today = new Date(now - 3 * 3_600_000).toISOString().slice(0, 10)
        return yield* (yield* Subscriptions).claimDue("issue", { accountId: accountId as AccountId }, { today, now: new Date(now), leaseUntil: new Date(now + 60_000) }, 1)
      }))
      claimed.push(...refs.map((ref) => ref.subscriptionId))
    }
    expect(claimed).toEqual(byKey)
  })
})

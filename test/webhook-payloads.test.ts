/**
 * Real deliveries against test deliveries, through real HTTP on PostgreSQL.
 * One sandbox merchant, its clock on 31 January of `Y` (`support/ScenarioYear.ts`:
 * ahead of the real date, with 2027's calendar) at noon in São Paulo,
 * makes every event happen for real (Pix and card charges, refunds, the MED,
 * a card dispute, subscriptions through a month of the billing run, a
 * sub-account's onboarding), with two registrations listening: one naming
 * every event, one naming none. Then:
 *
 * - each test body of `POST /v1/users/webhooks/test` has the keys of a real
 *   delivery of the same event, at every depth, but for the spec's three
 *   quirks (Webhook management);
 * - the registration naming no event got the spec's catalog and nothing it
 *   has to opt into (Events, Catalog, "Assignment").
 */
import { deliveryPass } from "@billing/worker"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiCaller } from "./support/Api.ts"
import { cardExpiration } from "./support/Cards.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"
import { hopsTowards, scenarioYear } from "./support/ScenarioYear.ts"

const Y = scenarioYear()
const START = `${Y}-01-31T15:00:00.000Z` // noon in São Paulo

/** The spec's catalog (Events, Catalog), written out here rather than read from the engine. */
const CATALOG = [
  "payment.success", "payment.overdue", "charge.expired", "payment.failed", "charge.created",
  "subscription.created", "subscription.trial", "subscription.activated", "subscription.renewed",
  "subscription.upgraded", "subscription.item_added", "subscription.item_removed", "subscription.downgrade_scheduled",
  "subscription.canceled", "subscription.cancel_scheduled", "subscription.expired",
  "refund.requested", "refund.confirmed", "refund.failed",
  "onboarding.create", "onboarding.backgroundcheck", "onboarding.documentscopy", "onboarding.proposal",
  "med.infraction.updated", "med.balance.blocked", "med.balance.unblocked", "med.refund.opened", "med.refund.closed"
]
/** Assigned only by naming them (the spec's "Assignment" paragraph). */
const OPT_IN = [
  "subscription.upgraded", "subscription.item_added", "subscription.item_removed", "subscription.downgrade_scheduled",
  "med.infraction.updated", "med.balance.blocked", "med.balance.unblocked", "med.refund.opened", "med.refund.closed"
]
/** The engine's own events (docs/decisions.md): a registration gets them only by naming them too. */
const ENGINE_OWN = ["subscription.cycle_held", "charge.dispute.updated", "account_approved"]

type Json = Record<string, unknown>

/** A delivered body: a JSON object, as every webhook payload is. */
const parseBody = Schema.decodeUnknownSync(Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown)))
type Receiver = Awaited<ReturnType<typeof startReceiver>>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Where the keys of `test` and `real` differ, at every depth: objects key by
 * key, arrays element against element (the test's one sample against each
 * real element). A null on one side and an object on the other is a value,
 * not a key: it is not compared further.
 */
const keyDifferences = (test: unknown, real: unknown, path = ""): Array<string> => {
  if (isObject(test) && isObject(real)) {
    const keys = [...new Set([...Object.keys(test), ...Object.keys(real)])].sort()
    return keys.flatMap((key) =>
      !(key in real) ? [`${path}${key}: only in the test body`]
      : !(key in test) ? [`${path}${key}: only in the real one`]
      : keyDifferences(test[key], real[key], `${path}${key}.`)
    )
  }
  if (Array.isArray(test) && Array.isArray(real) && test.length > 0) {
    return real.flatMap((element) => keyDifferences(test[0], element, `${path.slice(0, -1)}[].`))
  }
  return []
}

describe("webhook payloads on postgres", () => {
  let engine: TestEngine
  let call: ReturnType<typeof apiCaller>
  let accountNumber: string
  /** Receivers of the registration naming every event and of the one naming none. */
  let named: Receiver
  let unnamed: Receiver
  const bodies = (receiver: Receiver) => receiver.received.map((r) => parseBody(r.body))
  const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" }
  const card = (number: string) => ({ number, cvv: "123", name: "ANA SOUZA", expiration: cardExpiration(Y) })

  const ok = async (method: string, path: string, body?: unknown) => {
    const response = await call(method, path, body)
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
    return response.body
  }
  const advance = (to: string | null) => ok("POST", "/v1/sandbox/clock/advance", to === null ? { days: 0 } : { to })
  const price = async (title: string, amount: number, extra: Json = {}) =>
    (await ok("POST", "/v1/products", { name: title, type: "RECURRING", prices: [{ title, amount, recurrenceType: "MONTHLY", recurrenceInterval: 1, ...extra }] })).prices[0].priceId as string
  const byCard = (priceId: string) =>
    ok("POST", "/v1/charges", { paymentMethod: "creditcard", customer, card: card("4111111111111111"), items: [{ priceId }] })
  const itemOf = async (subscriptionId: string, priceId: string) =>
    ((await ok("GET", `/v1/subscriptions/${subscriptionId}`)).items as Array<{ itemId: string; priceId: string }>).find((i) => i.priceId === priceId)!.itemId
  /** A Pix charge of `amount`, paid through the sandbox and confirmed by the account's jobs; its id and end-to-end id. */
  const paidPix = async (amount: number) => {
    const { chargeId } = await ok("POST", "/v1/charges/pix", { amount })
    await ok("POST", `/v1/wallet/pay/${chargeId}`)
    await advance(null)
    return { chargeId: chargeId as string, endToEndId: (await ok("GET", `/v1/charges/${chargeId}?view=detail`)).pix.endToEndId as string }
  }

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount({ email: "master@example.com" })
    accountNumber = account.accountNumber
    call = apiCaller(engine.baseUrl, await engine.token(account))
    named = await startReceiver()
    unnamed = await startReceiver()
    await ok("POST", "/v1/users/webhooks", { url: named.url, events: [...CATALOG, ...ENGINE_OWN] })
    await ok("POST", "/v1/users/webhooks", { url: unnamed.url })
    // One advance goes at most ten years: a START further off than that is reached in hops.
    for (const hop of hopsTowards(Date.now(), START)) await ok("POST", "/v1/sandbox/clock/advance", hop)
    await advance(START)

    // Standalone Pix: paid, refunded (confirmed; refused by the payer's bank on centavos 13).
    const refunded = await paidPix(30)
    await ok("POST", "/v1/wallet/refunds", { endToEndId: refunded.endToEndId, amount: 10, reason: "CUSTOMER_REQUEST" })
    await advance(null)
    await ok("POST", "/v1/wallet/refunds", { endToEndId: refunded.endToEndId, amount: 1.13, reason: "CUSTOMER_REQUEST" })
    await advance(null)
    // The MED: an infraction released, then one returned to the payer.
    const contested = await paidPix(30)
    const released = await ok("POST", "/v1/sandbox/med/infractions", { chargeId: contested.chargeId, amount: 10, reason: "FRAUD" })
    await ok("POST", `/v1/sandbox/med/infractions/${released.infractionId}/release`)
    const returned = await ok("POST", "/v1/sandbox/med/infractions", { chargeId: contested.chargeId, reason: "FRAUD" })
    await ok("POST", `/v1/sandbox/med/infractions/${returned.infractionId}/return`)
    // A card dispute.
    const paidByCard = await ok("POST", "/v1/charges", { paymentMethod: "creditcard", amount: 50, customer, card: card("4111111111111111") })
    await ok("POST", "/v1/sandbox/disputes", { chargeId: paidByCard.chargeId, reason: "FRAUD" })

    // Subscriptions.
    const monthly = await price("Mensal", 99.9)
    const basic = await price("Básico", 49.9)
    const addon = await price("Usuário extra", 10)
    const small = await price("Pequeno", 9.9)
    const large = await price("Empresarial", 199)
    const trial = await price("Mensal com teste", 49.9, { trialDays: 7 })
    // By Pix and never paid: overdue the next day, its charge and itself expired once the charge's time is up.
    await ok("POST", "/v1/charges", { paymentMethod: "pix", customer, items: [{ priceId: monthly }] })
    await byCard(trial)
    // Renewed on 28 February, then an add-on in its second cycle.
    const renewing = (await byCard(monthly)).subscriptionId as string
    // Refused on 28 February: payment.failed.
    const refusing = (await byCard(monthly)).subscriptionId as string
    const refusedCard = await ok("POST", "/v1/payment-methods", { card: card("4000000000000002") })
    await ok("PATCH", `/v1/subscriptions/${refusing}`, { paymentMethod: "creditcard", paymentMethodId: refusedCard.paymentMethodId })
    // Upgraded from 9.90 to 199.00, paid at once; its cycle 2 is then held (more than ten times cycle 1).
    const growing = (await byCard(small)).subscriptionId as string
    await ok("PUT", `/v1/subscriptions/${growing}/items/${await itemOf(growing, small)}`, { priceId: large })
    // A downgrade scheduled and an add-on removed.
    const shrinking = (await ok("POST", "/v1/charges", {
      paymentMethod: "creditcard", customer, card: card("4111111111111111"), items: [{ priceId: monthly }, { priceId: addon }]
    })).subscriptionId as string
    await ok("PUT", `/v1/subscriptions/${shrinking}/items/${await itemOf(shrinking, monthly)}`, { priceId: basic })
    await ok("PATCH", `/v1/subscriptions/${shrinking}`, { old: { itemId: await itemOf(shrinking, addon) } })
    // A cancel at period end, then a cancel now.
    const leaving = (await byCard(monthly)).subscriptionId as string
    await ok("DELETE", `/v1/subscriptions/${leaving}`, { cancelAtPeriodEnd: true })
    await ok("DELETE", `/v1/subscriptions/${leaving}`, { cancelAtPeriodEnd: false, reason: "mudou de ideia" })

    await advance(`${Y}-02-28T15:00:00.000Z`)
    await ok("POST", `/v1/subscriptions/${renewing}/items`, { priceId: addon })

    // A sub-account opened by the sandbox route; account_approved goes to the form's webhookUrl.
    const form = await ok("POST", "/v1/proposals", {
      documentNumber: "52998224725",
      phoneNumber: "+5511912345678",
      email: "richard@example.com",
      motherName: "Teste Mãe",
      fullName: "Richard Feynman",
      birthDate: "31-12-2000",
      address: { postalCode: "06455-030", street: "Alameda Xingu", number: "350", neighborhood: "Alphaville Industrial", city: "Barueri", state: "SP" },
      isPoliticallyExposedPerson: false,
      financialDetails: { declaredIncome: "1DINP02", occupation: "ONP07", netWorth: "NWNP02" },
      webhookUrl: named.url
    })
    await ok("POST", `/v1/sandbox/proposals/${form.formId}/advance`)

    await engine.run(deliveryPass())
  }, 120_000)
  afterAll(async () => {
    await named?.close()
    await unnamed?.close()
    await engine?.dispose()
  })

  /** The first real delivery of `event` to the registration naming every event (standalone `payment.success`, a Pix `refund.requested`). */
  const realOf = (event: string): Json | undefined =>
    bodies(named).find((body) =>
      body.event === event
      && (event !== "payment.success" || !("subscriptionId" in body))
      && (event !== "refund.requested" || body.reason === "CUSTOMER_REQUEST")
    )

  it("sends each event's test body with the keys of a real delivery of the same event, but for the spec's three quirks", async () => {
    const testReceiver = await startReceiver()
    try {
      const missing: Array<string> = []
      const differences: Record<string, Array<string>> = {}
      for (const event of [...CATALOG, ...ENGINE_OWN]) {
        const real = realOf(event)
        if (real === undefined) {
          missing.push(event)
          continue
        }
        const answer = await call("POST", "/v1/users/webhooks/test", { entity: event, url: testReceiver.url })
        expect(answer.body, event).toMatchObject({ success: true, event })
        const test = parseBody(testReceiver.received.at(-1)!.body)

        // Quirk 3: the test names the account `accountNumber` (ours) where the real body has `accountId`.
        const { accountId, ...realWithoutId } = real
        const comparable = accountId === undefined ? real : { accountNumber: test.accountNumber, ...realWithoutId }
        if (accountId !== undefined) expect([test.accountNumber, "accountId" in test], event).toEqual([accountNumber, false])
        // Quirk 1: a `trial` object only in the test body.
        const { trial, ...testWithoutTrial } = test
        expect(trial !== undefined, event).toBe(event === "subscription.trial")
        // Quirk 2: `currentCycle` null only in the test body of a cancel; the real one keeps it.
        if (event === "subscription.canceled") expect([test.currentCycle, comparable.currentCycle]).toEqual([null, expect.objectContaining({ cycleNumber: 1 })])

        const found = keyDifferences(testWithoutTrial, comparable)
        if (found.length > 0) differences[event] = found
      }
      expect(missing).toEqual([])
      expect(differences).toEqual({})
    } finally {
      await testReceiver.close()
    }
  })

  it("names a subscription cycle's day chargeDate in events, as the subscription detail and the test body do", async () => {
    const renewed = realOf("subscription.renewed")!
    // The renewal on 28 February moved the subscription to cycle 2, due that day.
    expect(renewed.currentCycle).toMatchObject({ cycleNumber: 2, chargeDate: `${Y}-02-28` })
    expect(renewed.currentCycle).not.toHaveProperty("dueDate")
    const detail = (await call("GET", `/v1/subscriptions/${renewed.subscriptionId}`)).body
    expect(detail.billingCycles[1].cycle).toMatchObject({ chargeDate: `${Y}-02-28` })
    const test = (await call("POST", "/v1/users/webhooks/test", { entity: "subscription.renewed", url: "http://127.0.0.1:9/nowhere" })).body
    expect(Object.keys(test.payload.currentCycle)).toContain("chargeDate")
  })

  it("gives a registration naming no event the spec's catalog only: no opt-in event and none of the engine's own", () => {
    const got = [...new Set(bodies(unnamed).map((body) => body.event))].sort()
    const optOut = new Set([...OPT_IN, ...ENGINE_OWN])
    // What happened above, less what must be named to be had.
    expect(got).toEqual(CATALOG.filter((event) => !optOut.has(event)).sort())
    // The other registration, naming them, got them all.
    const namedGot = new Set(bodies(named).map((body) => body.event))
    expect([...OPT_IN, ...ENGINE_OWN].filter((event) => !namedGot.has(event))).toEqual([])
  })
})

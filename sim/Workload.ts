/**
 * What the merchants and their buyers do, drawn from the seed: merchants
 * open sandbox accounts with a few plans and webhook registrations; buyers
 * make one-time Pix, boleto and card purchases, start subscriptions by
 * checkout, pay on time, late or never; merchants refund (partly or in
 * full), cancel subscriptions now or at period end, register more webhooks
 * and resend what their endpoint failed to take. Every operation goes
 * through the engine's use cases, as an embedding service calls them.
 */
import {
  Billing,
  CancelSubscriptionInput,
  ChargeTransitions,
  CheckoutRequest,
  OPEN_STATUSES,
  PixChargeRequest,
  ProductInput,
  RefundRequest
} from "@billing/core"
import { Effect, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { buyer, MERCHANT_DOCUMENTS } from "./People.ts"
import * as Random from "./Random.ts"
import { Receiver } from "./Receiver.ts"
import { step, type StepLog } from "./Steps.ts"

export interface Merchant {
  readonly number: number
  readonly accountId: string
  /** Its recurring prices, one per plan of `PLANS`. */
  readonly prices: ReadonlyArray<string>
}

/** What the workload knows between its steps; all of it follows from the seed. */
export interface Workload {
  readonly random: Random.Random
  readonly log: StepLog
  readonly merchants: Array<Merchant>
  /** The day the buyer pays each open charge seen so far; null: never. */
  readonly payDays: Map<string, number | null>
  buyers: number
  hooks: number
}

export const make = (seed: number, log: StepLog): Workload => ({
  random: Random.stream(seed, "workload"),
  log,
  merchants: [],
  payDays: new Map(),
  buyers: 0,
  hooks: 0
})

/** The plans every merchant sells: a few recurrences, and how often buyers pick each. */
const PLANS = [
  { interval: "DAILY", amount: 9.9, weight: 1 },
  { interval: "WEEKLY", amount: 29.9, weight: 3 },
  { interval: "MONTHLY", amount: 99.9, weight: 4 }
] as const

/** A card the sandbox approves, and one it declines (the spec's card table). */
const CARDS = { approved: "4111111111111111", declined: "4000000000000002" } as const

/** Events a registration may name; an empty list takes every event but the opt-in ones. */
const SOME_EVENTS = ["payment.success", "charge.expired", "refund.confirmed", "refund.failed", "subscription.renewed", "payment.overdue"]

const REFUND_REASONS = ["CUSTOMER_REQUEST", "FRAUD", "BANK_ERROR", "PIX_CHANGE_ERROR"] as const

const reais = (cents: number) => cents / 100

const as = (m: Merchant) => Billing.asAccount(m.accountId)

const decode = <S extends Schema.Decoder<unknown>>(schema: S, input: unknown) => Schema.decodeUnknownEffect(schema)(input)

/** Day 0: a merchant opens its account, its plans and a first webhook registration. */
export const openMerchant = Effect.fn("Workload.openMerchant")(function*(w: Workload, n: number) {
  const opened = yield* step(w.log, `open merchant ${n}`, Billing.createAccount({ name: `Loja ${n}`, document: MERCHANT_DOCUMENTS[n % MERCHANT_DOCUMENTS.length]!, sandbox: true }), (a) => a.accountId)
  if (Option.isNone(opened)) return
  const accountId = opened.value.accountId
  const prices: Array<string> = []
  for (const plan of PLANS) {
    const input = { name: `Plano ${plan.interval}`, type: "RECURRING", prices: [{ title: plan.interval, amount: plan.amount, recurrenceType: plan.interval, recurrenceInterval: 1 }] }
    const product = yield* step(w.log, `  product ${plan.interval} of ${accountId}`, Effect.flatMap(decode(ProductInput, input), Billing.createProduct).pipe(Billing.asAccount(accountId)), (p) => p.prices[0]!.priceId)
    if (Option.isSome(product)) prices.push(product.value.prices[0]!.priceId)
  }
  const merchant: Merchant = { number: n, accountId, prices }
  w.merchants.push(merchant)
  yield* registerWebhook(w, merchant)
})

/** A webhook registration to its own URL on the receiver, for every event or a few named ones. */
export const registerWebhook = Effect.fn("Workload.registerWebhook")(function*(w: Workload, m: Merchant) {
  const url = `https://hooks.sim.test/${m.number}/${++w.hooks}`
  const events = Random.chance(w.random, 0.3) ? SOME_EVENTS.filter(() => Random.chance(w.random, 0.5)) : []
  const label = `webhook ${url} of ${m.accountId} events=[${events.join(",")}]`
  const registered = yield* step(w.log, label, Billing.registerWebhook({ url, events }).pipe(as(m)), (r) => r.webhookId)
  if (Option.isSome(registered) && registered.value.secret !== undefined) yield* (yield* Receiver).listen(url, registered.value.secret)
})

/** Notes when the buyer will pay a charge just made: the same day, some days late, or never. */
const planPayment = (w: Workload, chargeId: string, day: number) => {
  const plan = Random.weighted(w.random, [["onTime", 6], ["late", 2], ["never", 2]] as const)
  w.payDays.set(chargeId, plan === "onTime" ? day : plan === "late" ? day + Random.int(w.random, 1, 4) : null)
}

/** A Pix charge by amount (`POST /v1/charges/pix`). */
export const createPix = Effect.fn("Workload.createPix")(function*(w: Workload, m: Merchant, day: number) {
  const amount = Random.int(w.random, 500, 50_000)
  const created = yield* step(w.log, `pix ${amount} of ${m.accountId}`, Effect.flatMap(decode(PixChargeRequest, { amount: reais(amount) }), Billing.createPixCharge).pipe(as(m)), (c) => c.chargeId)
  if (Option.isSome(created)) planPayment(w, created.value.chargeId, day)
})

type Method = "pix" | "boleto" | "creditcard"

/** The checkout body of a buyer paying by `method`: a boleto needs the address, a card its number. */
const checkoutBody = (w: Workload, method: Method) => {
  const person = buyer(w.random, ++w.buyers)
  const card = Random.chance(w.random, 0.15) ? CARDS.declined : CARDS.approved
  return {
    paymentMethod: method,
    customer: { name: person.name, email: person.email, documentNumber: person.documentNumber, ...(method === "boleto" ? { address: person.address } : {}) },
    ...(method === "creditcard" ? { card: { number: card, cvv: "123", name: person.name.toUpperCase(), expiration: "12/2039" } } : {})
  }
}

/** A field of a checkout's answer, whose shape depends on the method and on whether it started a subscription. */
const field = (answer: object, name: "chargeId" | "subscriptionId"): string | undefined => {
  const value = (answer as Record<string, unknown>)[name]
  return typeof value === "string" ? value : undefined
}

const checkout = (w: Workload, m: Merchant, label: string, body: unknown, day: number) =>
  Effect.gen(function*() {
    const done = yield* step(w.log, label, Effect.flatMap(decode(CheckoutRequest, body), (r) => Billing.createCheckoutCharge(r)).pipe(as(m)), (r) =>
      `${r.status} ${field(r, "chargeId") ?? "-"} ${field(r, "subscriptionId") ?? "-"}`)
    if (Option.isNone(done) || done.value.status !== "pending") return
    const chargeId = field(done.value, "chargeId")
    if (chargeId !== undefined) planPayment(w, chargeId, day)
  })

/** A one-time purchase by checkout (`POST /v1/charges`) of an amount. */
export const buyOnce = Effect.fn("Workload.buyOnce")(function*(w: Workload, m: Merchant, day: number) {
  const method = Random.pick(w.random, ["pix", "boleto", "creditcard"] as const)
  const amount = Random.int(w.random, 1_000, 80_000)
  yield* checkout(w, m, `checkout ${method} ${amount} of ${m.accountId}`, { ...checkoutBody(w, method), amount: reais(amount) }, day)
})

/** A subscription started by checkout with one recurring price. */
export const subscribe = Effect.fn("Workload.subscribe")(function*(w: Workload, m: Merchant, day: number) {
  if (m.prices.length === 0) return
  const method = Random.pick(w.random, ["pix", "boleto", "creditcard"] as const)
  const plan = Random.weighted(w.random, PLANS.map((p, i) => [i, p.weight] as const))
  const priceId = m.prices[plan % m.prices.length]!
  yield* checkout(w, m, `subscribe ${method} ${PLANS[plan]!.interval} of ${m.accountId}`, { ...checkoutBody(w, method), items: [{ priceId }] }, day)
})

/** A refund of a paid Pix or card charge of the merchant: in full, or a part of what is left. */
export const refund = Effect.fn("Workload.refund")(function*(w: Workload, m: Merchant) {
  const sql = yield* SqlClient.SqlClient
  const paid = yield* sql<{ id: string; amountCents: string }>`
    SELECT id, amount_cents::text AS "amountCents" FROM charges
    WHERE account_id = ${m.accountId} AND status IN ${sql.in(ChargeTransitions.refunded.from as ReadonlyArray<string> as Array<string>)}
      AND payment_type IN ('PIX', 'CREDIT_CARD')
    ORDER BY id`.pipe(Effect.orDie)
  if (paid.length === 0) return void w.log.lines.push(`refund: nothing paid at ${m.accountId}`)
  const charge = Random.pick(w.random, paid)
  const amount = Number(charge.amountCents)
  const part = Random.chance(w.random, 0.5) && amount > 1 ? Random.int(w.random, 1, amount - 1) : undefined
  // A Pix refund must say why (a card's may); the seed gives every charge one.
  const reason = Random.pick(w.random, REFUND_REASONS)
  const request = { chargeId: charge.id, reason, ...(part === undefined ? {} : { amount: reais(part) }) }
  yield* step(w.log, `refund ${part ?? "all"} of ${charge.id}`, Effect.flatMap(decode(RefundRequest, request), Billing.requestRefund).pipe(as(m)), (r) => `${r.refundId} ${r.status}`)
})

/** A cancellation of one of the merchant's live subscriptions, now or at the end of its period. */
export const cancel = Effect.fn("Workload.cancel")(function*(w: Workload, m: Merchant) {
  const sql = yield* SqlClient.SqlClient
  const live = yield* sql<{ id: string }>`
    SELECT id FROM subscriptions WHERE account_id = ${m.accountId} AND canceled_at IS NULL AND NOT cancel_at_period_end ORDER BY id`.pipe(Effect.orDie)
  if (live.length === 0) return void w.log.lines.push(`cancel: no live subscription at ${m.accountId}`)
  const id = Random.pick(w.random, live).id
  const atPeriodEnd = Random.chance(w.random, 0.5)
  yield* step(w.log, `cancel ${id} atPeriodEnd=${atPeriodEnd}`, Effect.flatMap(decode(CancelSubscriptionInput, { cancelAtPeriodEnd: atPeriodEnd }), (input) => Billing.cancelSubscription(id, input)).pipe(as(m)), (r) =>
    `${r.status} ${r.effectiveAt ?? "-"}`)
})

/** One of the day's operations, drawn by weight, by a merchant drawn at random. */
export const anyOperation = Effect.fn("Workload.anyOperation")(function*(w: Workload, day: number) {
  if (w.merchants.length === 0) return
  const m = Random.pick(w.random, w.merchants)
  const kind = Random.weighted(w.random, [["pix", 4], ["once", 4], ["subscribe", 3], ["refund", 2], ["cancel", 1], ["webhook", 0.3]] as const)
  if (kind === "pix") return yield* createPix(w, m, day)
  if (kind === "once") return yield* buyOnce(w, m, day)
  if (kind === "subscribe") return yield* subscribe(w, m, day)
  if (kind === "refund") return yield* refund(w, m)
  if (kind === "cancel") return yield* cancel(w, m)
  return yield* registerWebhook(w, m)
})

/**
 * The buyers' payments due by `day`: charges the billing run opened since
 * the last look get their plan first (in id order), then every charge due
 * is paid in the sandbox, in id order; a late one may find it expired.
 */
export const payDue = Effect.fn("Workload.payDue")(function*(w: Workload, day: number) {
  const sql = yield* SqlClient.SqlClient
  const open = yield* sql<{ id: string; accountId: string }>`
    SELECT id, account_id AS "accountId" FROM charges
    WHERE status IN ${sql.in(OPEN_STATUSES as Array<string>)} AND payment_type <> 'CREDIT_CARD' ORDER BY id`.pipe(Effect.orDie)
  const accountOf = new Map(open.map((c) => [c.id, c.accountId]))
  for (const charge of open) if (!w.payDays.has(charge.id)) planPayment(w, charge.id, day)
  const due = [...w.payDays].filter(([, on]) => on !== null && on <= day).map(([id]) => id).sort()
  for (const chargeId of due) {
    w.payDays.delete(chargeId)
    const accountId = accountOf.get(chargeId)
    // No longer open (expired, canceled): the buyer comes too late and nothing is asked.
    if (accountId === undefined) continue
    yield* step(w.log, `pay ${chargeId}`, Billing.requestSandboxPayment(chargeId).pipe(Billing.asAccount(accountId)), () => "requested")
  }
})

/** A merchant resends every delivery its endpoint failed (`POST .../events/{id}/retry`), as its dashboard offers. */
export const resendFailed = Effect.fn("Workload.resendFailed")(function*(w: Workload, m: Merchant) {
  const failed: Array<string> = []
  let page: string | undefined = undefined
  do {
    const listed: { readonly items: ReadonlyArray<{ readonly webhookEventId: string }>; readonly nextPageToken: string | null } = yield* Billing.listDeliveries({ status: "failed", limit: 100, nextPageToken: page }).pipe(as(m), Effect.orDie)
    failed.push(...listed.items.map((d) => d.webhookEventId))
    page = listed.nextPageToken ?? undefined
  } while (page !== undefined)
  if (failed.length === 0) return
  let delivered = 0
  for (const id of failed) {
    const retried = yield* Billing.retryDelivery(id).pipe(as(m), Effect.option)
    if (Option.isSome(retried) && retried.value.status === "delivered") delivered++
  }
  // The deliveries' own ids are the database's random ones: only their counts go in the record.
  w.log.lines.push(`resend ${m.accountId} -> ${delivered}/${failed.length} delivered`)
})

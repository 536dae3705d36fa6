/**
 * The buyers' purchases and the merchants' answers to them: Pix charges by
 * amount, one-time checkouts of every method, subscriptions started by
 * checkout, refunds (partial or total) and cancellations now or at period
 * end. A purchase may carry one of the merchant's fiscal configurations
 * (`nfConfigId`, with the buyer's address a note needs), so notes come by
 * every timing. A production merchant sells by Pix and card only: no bank
 * takes its boletos in the simulated world.
 */
import { Billing, CancelSubscriptionInput, ChargeTransitions, CheckoutRequest, PixChargeRequest, RefundRequest, SubscriptionId } from "@billing/core"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { couponFor } from "./Coupons.ts"
import { buyer } from "./People.ts"
import * as Random from "./Random.ts"
import { splitFor, splitNote } from "./Splits.ts"
import { step } from "./Steps.ts"
import { as, decode, type Merchant, PLANS, planPayment, type Workload } from "./Workload.ts"

/** A card the card table approves, and one it declines (the spec's card table, the simulated acquirer's too). */
const CARDS = { approved: "4111111111111111", declined: "4000000000000002" } as const

const REFUND_REASONS = ["CUSTOMER_REQUEST", "FRAUD", "BANK_ERROR", "PIX_CHANGE_ERROR"] as const

const reais = (cents: number) => cents / 100

/** A Pix charge by amount (`POST /v1/charges/pix`). */
export const createPix = Effect.fn("Purchases.createPix")(function*(w: Workload, m: Merchant, day: number) {
  const amount = Random.int(w.random, 500, 50_000)
  const split = splitFor(w, m, amount)
  const body = { amount: reais(amount), ...(split === undefined ? {} : { split }) }
  const created = yield* step(w.log, `pix ${amount} of ${m.accountId}${splitNote(split)}`, Effect.flatMap(decode(PixChargeRequest, body), Billing.createPixCharge).pipe(as(m)), (c) => c.chargeId)
  if (Option.isSome(created)) planPayment(w, created.value.chargeId, day)
})

type Method = "pix" | "boleto" | "creditcard"

/** The methods a merchant's buyers pay by. */
const methodsOf = (m: Merchant): ReadonlyArray<Method> => (m.sandbox ? ["pix", "boleto", "creditcard"] : ["pix", "creditcard"])

/** The checkout body of a buyer paying by `method`: a boleto or a note needs the address, a card its number; now and then a coupon, and (off card) a split of `amountCents`. */
const checkoutBody = (w: Workload, m: Merchant, method: Method, amountCents?: number) => {
  const person = buyer(w.random, ++w.buyers)
  const card = Random.chance(w.random, 0.15) ? CARDS.declined : CARDS.approved
  const nfConfigId = m.configs.length > 0 && Random.chance(w.random, 0.4) ? Random.pick(w.random, m.configs) : undefined
  const withAddress = method === "boleto" || nfConfigId !== undefined
  const couponCode = couponFor(w, m)
  const split = method === "creditcard" ? undefined : splitFor(w, m, amountCents)
  return {
    paymentMethod: method,
    customer: { name: person.name, email: person.email, documentNumber: person.documentNumber, ...(withAddress ? { address: person.address } : {}) },
    ...(method === "creditcard" ? { card: { number: card, cvv: "123", name: person.name.toUpperCase(), expiration: "12/2039" } } : {}),
    ...(nfConfigId === undefined ? {} : { nfConfigId }),
    ...(couponCode === undefined ? {} : { couponCode }),
    ...(split === undefined ? {} : { split })
  }
}

/** A field of a checkout's answer, whose shape depends on the method and on whether it started a subscription. */
const field = (answer: object, name: "chargeId" | "subscriptionId"): string | undefined => {
  const value = (answer as Record<string, unknown>)[name]
  return typeof value === "string" ? value : undefined
}

const checkout = <B extends { readonly nfConfigId?: string; readonly couponCode?: string; readonly split?: ReturnType<typeof splitFor> }>(
  w: Workload,
  m: Merchant,
  label: string,
  body: B,
  day: number
) =>
  Effect.gen(function*() {
    const note = (body.nfConfigId === undefined ? "" : ` nf=${body.nfConfigId}`) + (body.couponCode === undefined ? "" : ` coupon=${body.couponCode}`) + splitNote(body.split)
    const done = yield* step(w.log, `${label}${note}`, Effect.flatMap(decode(CheckoutRequest, body), (r) => Billing.createCheckoutCharge(r)).pipe(as(m)), (r) =>
      `${r.status} ${field(r, "chargeId") ?? "-"} ${field(r, "subscriptionId") ?? "-"}`)
    if (Option.isNone(done) || done.value.status !== "pending") return
    const chargeId = field(done.value, "chargeId")
    if (chargeId !== undefined) planPayment(w, chargeId, day)
  })

/** A one-time purchase by checkout (`POST /v1/charges`) of an amount. */
export const buyOnce = Effect.fn("Purchases.buyOnce")(function*(w: Workload, m: Merchant, day: number) {
  const method = Random.pick(w.random, methodsOf(m))
  const amount = Random.int(w.random, 1_000, 80_000)
  yield* checkout(w, m, `checkout ${method} ${amount} of ${m.accountId}`, { ...checkoutBody(w, m, method, amount), amount: reais(amount) }, day)
})

/** A subscription started by checkout with one recurring price. */
export const subscribe = Effect.fn("Purchases.subscribe")(function*(w: Workload, m: Merchant, day: number) {
  if (m.prices.length === 0) return
  const method = Random.pick(w.random, methodsOf(m))
  const plan = Random.weighted(w.random, PLANS.map((p, i) => [i, p.weight] as const))
  // Now and then the dearer price of the plan, so that a plan change may go either way.
  const plus = m.upgrades.length === m.prices.length && Random.chance(w.random, 0.3)
  const priceId = (plus ? m.upgrades : m.prices)[plan % m.prices.length]!
  yield* checkout(w, m, `subscribe ${method} ${PLANS[plan]!.interval}${plus ? " plus" : ""} of ${m.accountId}`, { ...checkoutBody(w, m, method), items: [{ priceId }] }, day)
})

/** A refund of a paid Pix or card charge of the merchant: in full, or a part of what is left. */
export const refund = Effect.fn("Purchases.refund")(function*(w: Workload, m: Merchant) {
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
export const cancel = Effect.fn("Purchases.cancel")(function*(w: Workload, m: Merchant) {
  const sql = yield* SqlClient.SqlClient
  const live = yield* sql<{ id: string }>`
    SELECT id FROM subscriptions WHERE account_id = ${m.accountId} AND canceled_at IS NULL AND NOT cancel_at_period_end ORDER BY id`.pipe(Effect.orDie)
  if (live.length === 0) return void w.log.lines.push(`cancel: no live subscription at ${m.accountId}`)
  const id = Random.pick(w.random, live).id
  const atPeriodEnd = Random.chance(w.random, 0.5)
  yield* step(w.log, `cancel ${id} atPeriodEnd=${atPeriodEnd}`, Effect.flatMap(decode(CancelSubscriptionInput, { cancelAtPeriodEnd: atPeriodEnd }), (input) => Billing.cancelSubscription(SubscriptionId.make(id), input)).pipe(as(m)), (r) =>
    `${r.status} ${r.effectiveAt ?? "-"}`)
})

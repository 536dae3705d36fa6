/**
 * What the merchants and their buyers do, drawn from the seed: merchants
 * open accounts (sandbox ones, and one production account whose money goes
 * through the simulated PSPs, acquirer and city) with a few plans, fiscal
 * configurations, a sub-account, a coupon and a webhook registration; then
 * each day buyers purchase (`Purchases.ts`: with coupons and splits now and
 * then) and pay (`Payments.ts`), merchants refund, cancel, change plans
 * (`Plans.ts`), create coupons (`Coupons.ts`), open sub-accounts
 * (`Splits.ts`), withdraw and transfer (`Wallet.ts`), see their sandbox
 * charges contested (`Contests.ts`), register more webhooks and issue,
 * cancel and reissue notes (`Notes.ts`).
 * Every operation goes through the engine's use cases, as an embedding
 * service calls them.
 */
import { Billing, ProductInput } from "@billing/core"
import { Effect, Option } from "effect"
import * as Contests from "./Contests.ts"
import * as Coupons from "./Coupons.ts"
import * as Notes from "./Notes.ts"
import * as Plans from "./Plans.ts"
import { MERCHANT_DOCUMENTS } from "./People.ts"
import * as Purchases from "./Purchases.ts"
import * as Random from "./Random.ts"
import * as Splits from "./Splits.ts"
import { step } from "./Steps.ts"
import * as Wallet from "./Wallet.ts"
import { as, decode, type Merchant, PLANS, registerWebhook, type Workload } from "./Workload.ts"

/** Day 0: a merchant (a production one when not `sandbox`) opens its account, its plans, its fiscal configurations, a sub-account, a coupon and a first webhook registration. */
export const openMerchant = Effect.fn("Operations.openMerchant")(function*(w: Workload, n: number, sandbox: boolean) {
  const document = MERCHANT_DOCUMENTS[n % MERCHANT_DOCUMENTS.length]!
  const opened = yield* step(w.log, `open merchant ${n} sandbox=${sandbox}`, Billing.createAccount({ name: `Loja ${n}`, document, sandbox }), (a) => a.accountId, { crashable: false })
  if (Option.isNone(opened)) return
  const merchant: Merchant = { number: n, accountId: opened.value.accountId, sandbox, document, prices: [], upgrades: [], configs: [], coupons: [], subAccounts: [] }
  yield* createPlans(w, merchant)
  yield* Notes.createConfigs(w, merchant)
  yield* Splits.openSubAccount(w, merchant, { crashable: false })
  yield* Coupons.create(w, merchant, { crashable: false })
  w.merchants.push(merchant)
  yield* registerWebhook(w, merchant)
})

/** A product per plan with two prices of its recurrence: the plan, and the dearer one a plan change moves to (and back from). */
const createPlans = Effect.fn("Operations.createPlans")(function*(w: Workload, m: Merchant) {
  for (const plan of PLANS) {
    const price = (title: string, amount: number) => ({ title, amount, recurrenceType: plan.interval, recurrenceInterval: 1 })
    const input = { name: `Plano ${plan.interval}`, type: "RECURRING", prices: [price(plan.interval, plan.amount), price(`${plan.interval} plus`, plan.upgrade)] }
    const product = yield* step(w.log, `  product ${plan.interval} of ${m.accountId}`, Effect.flatMap(decode(ProductInput, input), Billing.createProduct).pipe(as(m)), (p) =>
      p.prices.map((x) => x.priceId).join(" "), { crashable: false })
    if (Option.isNone(product)) continue
    // By title, not by position: the answer's order of prices is the engine's.
    const base = product.value.prices.find((x) => x.title === plan.interval)
    const dearer = product.value.prices.find((x) => x.title === `${plan.interval} plus`)
    if (base === undefined || dearer === undefined) continue
    m.prices.push(base.priceId)
    m.upgrades.push(dearer.priceId)
  }
})

const SANDBOX_ONLY: ReadonlySet<string> = new Set(["withdraw", "transfer", "contest"])

/** One of the day's operations, drawn by weight, by a merchant drawn at random. */
export const anyOperation = Effect.fn("Operations.anyOperation")(function*(w: Workload, day: number) {
  if (w.merchants.length === 0) return
  // The production merchant, the only one whose money crosses the simulated providers, gets a bigger share.
  const production = w.merchants.filter((merchant) => !merchant.sandbox)
  const drawn = production.length > 0 && Random.chance(w.random, 0.4) ? Random.pick(w.random, production) : Random.pick(w.random, w.merchants)
  const kind = Random.weighted(w.random, [
    ["pix", 4], ["once", 4], ["subscribe", 3], ["refund", 2], ["cancel", 1], ["webhook", 0.3], ["nota", 1], ["notaFollowUp", 1],
    ["planChange", 2], ["coupon", 0.4], ["subAccount", 0.2], ["withdraw", 1.2], ["transfer", 0.5], ["contest", 1.6]
  ] as const)
  // Money out and contests exist only in the sandbox here (the simulated PSPs take no payout, a production account has no trigger): a sandbox merchant does them.
  const sandboxes = w.merchants.filter((merchant) => merchant.sandbox)
  const m = SANDBOX_ONLY.has(kind) && !drawn.sandbox && sandboxes.length > 0 ? Random.pick(w.random, sandboxes) : drawn
  switch (kind) {
    case "pix":
      return yield* Purchases.createPix(w, m, day)
    case "once":
      return yield* Purchases.buyOnce(w, m, day)
    case "subscribe":
      return yield* Purchases.subscribe(w, m, day)
    case "refund":
      return yield* Purchases.refund(w, m)
    case "cancel":
      return yield* Purchases.cancel(w, m)
    case "webhook":
      return yield* registerWebhook(w, m)
    case "nota":
      return yield* Notes.standalone(w, m)
    case "notaFollowUp":
      return yield* Notes.followUp(w, m)
    case "planChange":
      return yield* Plans.changePlan(w, m, day)
    case "coupon":
      return yield* Coupons.create(w, m)
    case "subAccount":
      return yield* Splits.openSubAccount(w, m)
    case "withdraw":
      return yield* Wallet.withdraw(w, m)
    case "transfer":
      return yield* Wallet.transfer(w, m)
    case "contest":
      return yield* Contests.contest(w, m)
  }
})

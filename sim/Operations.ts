/**
 * What the merchants and their buyers do, drawn from the seed: merchants
 * open accounts (sandbox ones, and one production account whose money goes
 * through the simulated PSPs, acquirer and city) with a few plans, fiscal
 * configurations and a webhook registration; then each day buyers purchase
 * (`Purchases.ts`) and pay (`Payments.ts`), merchants refund, cancel,
 * register more webhooks and issue, cancel and reissue notes (`Notes.ts`).
 * Every operation goes through the engine's use cases, as an embedding
 * service calls them.
 */
import { Billing, ProductInput } from "@billing/core"
import { Effect, Option } from "effect"
import * as Notes from "./Notes.ts"
import { MERCHANT_DOCUMENTS } from "./People.ts"
import * as Purchases from "./Purchases.ts"
import * as Random from "./Random.ts"
import { step } from "./Steps.ts"
import { as, decode, type Merchant, PLANS, registerWebhook, type Workload } from "./Workload.ts"

/** Day 0: a merchant (a production one when not `sandbox`) opens its account, its plans, its fiscal configurations and a first webhook registration. */
export const openMerchant = Effect.fn("Operations.openMerchant")(function*(w: Workload, n: number, sandbox: boolean) {
  const document = MERCHANT_DOCUMENTS[n % MERCHANT_DOCUMENTS.length]!
  const opened = yield* step(w.log, `open merchant ${n} sandbox=${sandbox}`, Billing.createAccount({ name: `Loja ${n}`, document, sandbox }), (a) => a.accountId, { crashable: false })
  if (Option.isNone(opened)) return
  const merchant: Merchant = { number: n, accountId: opened.value.accountId, sandbox, document, prices: [], configs: [] }
  for (const plan of PLANS) {
    const input = { name: `Plano ${plan.interval}`, type: "RECURRING", prices: [{ title: plan.interval, amount: plan.amount, recurrenceType: plan.interval, recurrenceInterval: 1 }] }
    const product = yield* step(w.log, `  product ${plan.interval} of ${merchant.accountId}`, Effect.flatMap(decode(ProductInput, input), Billing.createProduct).pipe(as(merchant)), (p) => p.prices[0]!.priceId, { crashable: false })
    if (Option.isSome(product)) merchant.prices.push(product.value.prices[0]!.priceId)
  }
  yield* Notes.createConfigs(w, merchant)
  w.merchants.push(merchant)
  yield* registerWebhook(w, merchant)
})

/** One of the day's operations, drawn by weight, by a merchant drawn at random. */
export const anyOperation = Effect.fn("Operations.anyOperation")(function*(w: Workload, day: number) {
  if (w.merchants.length === 0) return
  // The production merchant, the only one whose money crosses the simulated providers, gets a bigger share.
  const production = w.merchants.filter((merchant) => !merchant.sandbox)
  const m = production.length > 0 && Random.chance(w.random, 0.4) ? Random.pick(w.random, production) : Random.pick(w.random, w.merchants)
  const kind = Random.weighted(w.random, [
    ["pix", 4], ["once", 4], ["subscribe", 3], ["refund", 2], ["cancel", 1], ["webhook", 0.3], ["nota", 1], ["notaFollowUp", 1]
  ] as const)
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
  }
})

/**
 * What the workload knows between its steps (merchants, their plans and
 * fiscal configurations, when each buyer will pay), all of it following
 * from the seed, and the merchants' webhook registrations and resends.
 * The operations themselves are in `Operations.ts`.
 */
import { Billing, WebhookDeliveryId } from "@billing/core"
import { Effect, Option, Schema } from "effect"
import * as Random from "./Random.ts"
import { Receiver } from "./Receiver.ts"
import { step, type StepLog } from "./Steps.ts"

export interface Merchant {
  readonly number: number
  readonly accountId: string
  readonly sandbox: boolean
  readonly document: string
  /** Its recurring prices, one per plan of `PLANS`. */
  readonly prices: Array<string>
  /** Each plan's dearer price of the same recurrence (`PLANS`' `upgrade`), the other end of a plan change. */
  readonly upgrades: Array<string>
  /** Its coupons' codes. */
  readonly coupons: Array<string>
  /** Its sub-accounts, the receivers of its splits. */
  readonly subAccounts: Array<SubAccount>
  /** Its fiscal configurations' ids. */
  readonly configs: Array<string>
}

/** A seller under a merchant: it receives split parts and withdraws what it has. */
export interface SubAccount {
  readonly accountId: string
  readonly accountNumber: string
  /** Its CPF, its own Pix key for withdrawals. */
  readonly document: string
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
  notes: number
  coupons: number
}

export const make = (seed: number, log: StepLog): Workload => ({
  random: Random.stream(seed, "workload"),
  log,
  merchants: [],
  payDays: new Map(),
  buyers: 0,
  hooks: 0,
  notes: 0,
  coupons: 0
})

/** The plans every merchant sells: a few recurrences, and how often buyers pick each. */
export const PLANS = [
  { interval: "DAILY", amount: 9.9, upgrade: 14.9, weight: 1 },
  { interval: "WEEKLY", amount: 29.9, upgrade: 49.9, weight: 3 },
  { interval: "MONTHLY", amount: 99.9, upgrade: 179.9, weight: 4 }
] as const

/** Events a registration may name; an empty list takes every event but the opt-in ones. */
const SOME_EVENTS = ["payment.success", "charge.expired", "refund.confirmed", "refund.failed", "subscription.renewed", "payment.overdue"]

export const as = (m: Merchant) => Billing.asAccount(m.accountId)

export const decode = <S extends Schema.Decoder<unknown>>(schema: S, input: unknown) => Schema.decodeUnknownEffect(schema)(input)

/** A webhook registration to its own URL on the receiver, for every event or a few named ones. */
export const registerWebhook = Effect.fn("Workload.registerWebhook")(function*(w: Workload, m: Merchant) {
  const url = `https://hooks.sim.test/${m.number}/${++w.hooks}`
  const events = Random.chance(w.random, 0.3) ? SOME_EVENTS.filter(() => Random.chance(w.random, 0.5)) : []
  const label = `webhook ${url} of ${m.accountId} events=[${events.join(",")}]`
  const registered = yield* step(w.log, label, Billing.registerWebhook({ url, events }).pipe(as(m)), (r) => r.webhookId)
  if (Option.isSome(registered) && registered.value.secret !== undefined) yield* (yield* Receiver).listen(url, registered.value.secret)
})

/** Notes when the buyer will pay a charge just made: the same day, some days late, or never. */
export const planPayment = (w: Workload, chargeId: string, day: number) => {
  const plan = Random.weighted(w.random, [["onTime", 6], ["late", 2], ["never", 2]] as const)
  w.payDays.set(chargeId, plan === "onTime" ? day : plan === "late" ? day + Random.int(w.random, 1, 4) : null)
}

/** A merchant resends every delivery its endpoint failed (`POST .../events/{id}/retry`), as its dashboard offers. */
export const resendFailed = Effect.fn("Workload.resendFailed")(function*(w: Workload, m: Merchant) {
  const failed = yield* step(w.log, `list failed deliveries of ${m.accountId}`, listFailed.pipe(as(m)), (ids) => String(ids.length))
  if (Option.isNone(failed) || failed.value.length === 0) return
  let delivered = 0
  for (const id of failed.value) {
    const retried = yield* step(w.log, `resend a delivery of ${m.accountId}`, Billing.retryDelivery(WebhookDeliveryId.make(id)).pipe(as(m)), (r) => r.status)
    if (Option.isSome(retried) && retried.value.status === "delivered") delivered++
  }
  // The deliveries' own ids are the database's random ones: only their counts go in the record.
  w.log.lines.push(`resend ${m.accountId} -> ${delivered}/${failed.value.length} delivered`)
})

/** Every delivery of the caller whose endpoint failed, all pages. */
const listFailed = Effect.gen(function*() {
  const failed: Array<string> = []
  let page: string | undefined = undefined
  do {
    const listed: { readonly items: ReadonlyArray<{ readonly webhookEventId: string }>; readonly nextPageToken: string | null } = yield* Billing.listDeliveries({ status: "failed", limit: 100, nextPageToken: page })
    failed.push(...listed.items.map((d) => d.webhookEventId))
    page = listed.nextPageToken ?? undefined
  } while (page !== undefined)
  return failed
})

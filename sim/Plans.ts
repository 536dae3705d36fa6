/**
 * Plan changes of a live subscription: its main item moves between the
 * two prices of its plan's recurrence (`Operations.createPlans`). Up, the
 * engine charges the prorata of the days left at once, by the
 * subscription's method (a Pix or boleto the buyer pays as any other, a
 * card answered on the spot); down, it waits for the next cycle and
 * charges nothing. The amounts it charged are checked against the rules
 * by `PlanInvariants.ts`.
 */
import { Billing, PriceId, SubscriptionId, SubscriptionItemId } from "@billing/core"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import * as Random from "./Random.ts"
import { step } from "./Steps.ts"
import { as, type Merchant, planPayment, type Workload } from "./Workload.ts"

interface Live {
  readonly id: string
  readonly itemId: string
  readonly priceId: string
}

/** A field of a change's answer, whose shape depends on whether it was charged, free or scheduled. */
const field = (answer: object, name: string): string => {
  const value = (answer as Record<string, unknown>)[name]
  return value === undefined || value === null ? "-" : String(value)
}

/** The other price of the plan `priceId` belongs to: its dearer one, or back to the plan's own. */
const otherPrice = (m: Merchant, priceId: string): string | undefined => {
  const up = m.prices.indexOf(priceId)
  if (up >= 0) return m.upgrades[up]
  const down = m.upgrades.indexOf(priceId)
  return down >= 0 ? m.prices[down] : undefined
}

/** The merchant moves a live subscription's main item to the other price of its plan (`PUT /v1/subscriptions/{id}/items/{itemId}`). */
export const changePlan = Effect.fn("Plans.changePlan")(function*(w: Workload, m: Merchant, day: number) {
  const sql = yield* SqlClient.SqlClient
  const live = yield* sql<Live>`
    SELECT s.id, i.id AS "itemId", i.price_id AS "priceId" FROM subscriptions s JOIN subscription_items i ON i.id = s.primary_item_id
    WHERE s.account_id = ${m.accountId} AND s.status = 'ACTIVE' AND s.canceled_at IS NULL AND NOT s.cancel_at_period_end
    ORDER BY s.id`.pipe(Effect.orDie)
  if (live.length === 0) return void w.log.lines.push(`plan change: no live subscription at ${m.accountId}`)
  const sub = Random.pick(w.random, live)
  const target = otherPrice(m, sub.priceId)
  if (target === undefined) return void w.log.lines.push(`plan change: ${sub.id} is on no plan's price`)
  const direction = m.prices.includes(sub.priceId) ? "up" : "down"
  const changed = yield* step(
    w.log,
    `plan ${direction} ${sub.id} ${sub.priceId} -> ${target}`,
    Billing.changeItem(SubscriptionId.make(sub.id), { itemId: SubscriptionItemId.make(sub.itemId) }, { priceId: PriceId.make(target) }).pipe(as(m)),
    (r) => `${field(r, "type")} prorata=${field(r, "prorataAmount")} ${field(r, "status")} ${field(r, "chargeId")} effective=${field(r, "effectiveAt")}`
  )
  if (Option.isNone(changed)) return
  // A prorata by Pix or boleto waits for its buyer, as any other charge.
  const chargeId = field(changed.value, "chargeId")
  if (chargeId !== "-" && field(changed.value, "status") === "pending") planPayment(w, chargeId, day)
})

/**
 * The merchants' coupons: a percentage or a fixed amount off, some with a
 * cap on redemptions (so a popular one runs out and the next checkout that
 * names it is refused), some with a floor on the amount; checkouts and
 * subscriptions name one now and then (`Purchases.ts`).
 */
import { Billing, CouponInput } from "@billing/core"
import { Effect, Option } from "effect"
import * as Random from "./Random.ts"
import { step } from "./Steps.ts"
import { as, decode, type Merchant, type Workload } from "./Workload.ts"

/** The body of the merchant's next coupon, drawn from the seed. */
const couponBody = (w: Workload, m: Merchant) => {
  const code = `SIM${m.number}C${++w.coupons}`
  const percent = Random.chance(w.random, 0.5)
  const limited = Random.chance(w.random, 0.4)
  const floor = Random.chance(w.random, 0.3)
  return {
    code,
    name: `Cupom ${code}`,
    discountType: percent ? "PERCENTAGE" : "FIXED",
    discountValue: percent ? Random.int(w.random, 5, 50) : Random.int(w.random, 1, 20),
    ...(limited ? { maxRedemptions: Random.int(w.random, 1, 3) } : {}),
    ...(floor ? { minAmount: Random.int(w.random, 20, 100) } : {})
  }
}

/** The merchant creates a coupon (`POST /v1/coupons`). */
export const create = Effect.fn("Coupons.create")(function*(w: Workload, m: Merchant, options?: { readonly crashable?: boolean }) {
  const body = couponBody(w, m)
  const terms = `${body.discountType} ${body.discountValue} max=${body.maxRedemptions ?? "-"} min=${body.minAmount ?? "-"}`
  const created = yield* step(w.log, `coupon ${body.code} ${terms} of ${m.accountId}`, Effect.flatMap(decode(CouponInput, body), Billing.createCoupon).pipe(as(m)), (c) => c.couponId, options)
  if (Option.isSome(created)) m.coupons.push(body.code)
})

/** A coupon code a buyer types at checkout now and then: one of the merchant's. */
export const couponFor = (w: Workload, m: Merchant): string | undefined =>
  m.coupons.length > 0 && Random.chance(w.random, 0.25) ? Random.pick(w.random, m.coupons) : undefined

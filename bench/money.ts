/**
 * `npm run bench -- money`: split, prorata and coupon evaluation per second,
 * with the same split computed naively with decimal.js as the baseline of the
 * same run (what a hand-written "exact" implementation would cost).
 */
import { Decimal } from "decimal.js"
import { Result } from "effect"
import { PriceId } from "../packages/core/src/domain/Ids.ts"
import { cents } from "../packages/core/src/money/Money.ts"
import { validateCoupon, type CouponRules } from "../packages/core/src/rules/Coupons.ts"
import { prorata } from "../packages/core/src/rules/Prorata.ts"
import { computeSplit, type SplitReceiver } from "../packages/core/src/rules/Split.ts"

const seconds = Number(process.env.BENCH_SECONDS ?? 2)

const perSecond = (name: string, op: (i: number) => unknown) => {
  for (let i = 0; i < 10_000; i++) op(i) // warm-up
  let n = 0
  let sink = 0
  const started = performance.now()
  const until = started + seconds * 1000
  while (performance.now() < until) {
    for (let k = 0; k < 256; k++) sink += op(n++) === undefined ? 0 : 1
  }
  const rate = n / ((performance.now() - started) / 1000)
  console.log(`${name.padEnd(16)} ${rate.toFixed(0).padStart(10)} ops/s${sink < 0 ? "" : ""}`)
  return rate
}

const receivers: Array<SplitReceiver<string>> = [
  { type: "percentage", percentHundredths: 1250, account: "100002" },
  { type: "percentage", percentHundredths: 500, account: "100003" },
  { type: "fixed", amount: cents(199), account: "100004" }
]
const split = perSecond("split", (i) => Result.isSuccess(computeSplit(cents(10_000 + (i % 5000)), receivers)))
const baseline = perSecond("split decimal.js", (i) => {
  const net = new Decimal(10_000 + (i % 5000)).div(100)
  const parts = [net.mul(12.5).div(100).toDecimalPlaces(2, Decimal.ROUND_DOWN), net.mul(5).div(100).toDecimalPlaces(2, Decimal.ROUND_DOWN), new Decimal("1.99")]
  return net.minus(parts.reduce((a, b) => a.plus(b), new Decimal(0))).gte(0)
})
const prorataRate = perSecond("prorata", (i) =>
  prorata({ cycleStart: "2026-11-01", nextCycleDate: "2026-12-01", changeDate: `2026-11-${String(1 + (i % 28)).padStart(2, "0")}`, currentAmount: cents(9990), newAmount: cents(14990) })
)
const coupon: CouponRules = {
  discountType: "PERCENTAGE", discountValue: 1500, maxDiscount: cents(5000), minAmount: cents(1000), maxRedemptions: 100,
  currentRedemptions: 10, validFrom: 0, validUntil: Date.UTC(2030, 0, 1), productIds: [PriceId.make("price_a"), PriceId.make("price_b")], firstTimeOnly: true,
  appliesTo: "RECURRING", status: "ACTIVE"
}
const couponRate = perSecond("coupon", (i) => validateCoupon(coupon, { amount: cents(20_000 + i % 100), productIds: ["price_b"] }, Date.UTC(2026, 10, 22)))
console.log(`RESULT money split_per_s=${split.toFixed(0)} prorata_per_s=${prorataRate.toFixed(0)} coupon_per_s=${couponRate.toFixed(0)} baseline_split_per_s=${baseline.toFixed(0)}`)

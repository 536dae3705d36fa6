/** Handlers of `/v1/coupons`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

type Needed = Services<ReturnType<typeof Billing.createCoupon>> | Services<ReturnType<typeof Billing.updateCoupon>>

export const CouponsHandlers = HttpApiBuilder.group(BillingApi, "coupons", Effect.fn("Handlers.coupons")(function*(handlers) {
  const provide = yield* capture<Needed>()
  return handlers
    .handle("create", ({ payload }) => provide(Billing.createCoupon(payload)))
    .handle("list", ({ query }) => provide(Billing.listCoupons(query)))
    .handle("get", ({ params }) => provide(Billing.getCoupon(params.couponId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateCoupon(params.couponId, payload)))
    .handle("patch", ({ params, payload }) => provide(Billing.updateCoupon(params.couponId, payload)))
    .handle("status", ({ params, payload }) => provide(Billing.changeCouponStatus(params.couponId, payload.status)))
    .handle("remove", ({ params }) => provide(Billing.deleteCoupon(params.couponId)))
}))

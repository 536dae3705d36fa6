/** Handlers of the public `POST /v1/coupons/validate`. */
import { Billing } from "@billing/core"
import { Effect, Predicate } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { bearerToken, capture, type Services } from "./Common.ts"

type Needed =
  | Services<ReturnType<typeof Billing.validateCouponCode>>
  | Services<ReturnType<typeof Billing.couponValidationAccount>>

export const CouponValidationHandlers = HttpApiBuilder.group(
  BillingApi,
  "couponValidation",
  Effect.fn("Handlers.couponValidation")(function*(handlers) {
    const provide = yield* capture<Needed>()
    return handlers.handle("validate", ({ payload }) =>
      Effect.gen(function*() {
        const body = Predicate.isObject(payload) ? (payload as Record<string, unknown>) : {}
        const bearer = yield* bearerToken
        return yield* provide(Effect.flatMap(
          Billing.couponValidationAccount({ bearer, accountNumber: body.accountNumber }),
          (accountId) => Billing.validateCouponCode(body, accountId)
        ))
      }))
  })
)

/** Handlers of the public coupon validation. */
import { Billing } from "@billing/core"
import { Effect, Predicate } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiMiddleware } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { AlwaysVerdict } from "../api/CouponValidation.ts"
import { bearerToken, capture, type Services } from "./Common.ts"

type Needed =
  | Services<ReturnType<typeof Billing.validateCouponCode>>
  | Services<ReturnType<typeof Billing.couponValidationAccount>>

export const CouponValidationHandlers = HttpApiBuilder.group(
  BillingApi,
  "couponValidation",
  Effect.fn("Handlers.couponValidation")(function*(handlers) {
    const provide = yield* capture<Needed>()
    /** The verdict for `payload`, the code of the path winning over the body's. */
    const verdict = (payload: unknown, code?: string) =>
      Effect.gen(function*() {
        const body = Predicate.isObject(payload) ? (payload as Record<string, unknown>) : {}
        const request = yield* HttpServerRequest.HttpServerRequest
        const accountNumber = body.accountNumber ?? request.headers["x-account-number"]
        const bearer = yield* bearerToken
        const input = code === undefined ? body : { ...body, code }
        return yield* provide(Effect.flatMap(
          Billing.couponValidationAccount({ bearer, accountNumber, code: input.code, productIds: input.productIds }),
          (accountId) => Billing.validateCouponCode(input, accountId)
        ))
      })
    return handlers
      .handle("validate", ({ payload }) => verdict(payload))
      .handle("validateCode", ({ params, payload }) => verdict(payload, params.code))
  })
)

/** A body that is not JSON gets the verdict `COUPON_NOT_FOUND`, with 200 like every verdict. */
export const AlwaysVerdictLive = HttpApiMiddleware.layerSchemaErrorTransform(AlwaysVerdict, () =>
  Effect.succeed(HttpServerResponse.jsonUnsafe({ valid: false, reason: "COUPON_NOT_FOUND" })))

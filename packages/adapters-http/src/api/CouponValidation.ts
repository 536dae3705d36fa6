/**
 * `POST /v1/coupons/validate` and the provider's `POST /v1/coupons/{code}/validate`:
 * public (a token, when sent, only names the merchant), so a group of its
 * own, outside the authenticated wiring.
 */
import { CouponVerdict, InvalidData } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { Id } from "./Common.ts"

/**
 * The coupon validation answers 200 with a verdict to anything (spec:
 * "always answers HTTP 200"), a body that is not JSON included: this
 * middleware turns the parse failure into the `COUPON_NOT_FOUND` verdict.
 */
export class AlwaysVerdict extends HttpApiMiddleware.Service<AlwaysVerdict>()("@billing/adapters-http/AlwaysVerdict") {}

/** Any JSON body: the verdict names what is wrong with it (`COUPON_NOT_FOUND` when there is no code). */
const ValidationBody = Schema.Unknown.annotate({
  description: "`{ code, amount?, productIds?, chargeType?, customerDocument?, accountNumber? }`; the merchant is named by a token, " +
    "`accountNumber` or the `X-Account-Number` header; without one, it is the owner of the `productIds`, else the only account with the code"
})

/** The bounds of every route (`InputGuard`: NUL, nesting) answer before the verdict; nothing else does. */
const edgeRefusal = enveloped(InvalidData)

export class CouponValidationGroup extends HttpApiGroup.make("couponValidation")
  .add(
    HttpApiEndpoint.post("validate", "/v1/coupons/validate", { payload: ValidationBody, success: CouponVerdict, error: edgeRefusal })
      .annotate(OpenApi.Summary, "Validate a coupon code (public)"),
    HttpApiEndpoint.post("validateCode", "/v1/coupons/:code/validate", {
      params: { code: Id },
      payload: ValidationBody,
      success: CouponVerdict,
      error: edgeRefusal
    })
      .annotate(OpenApi.Summary, "Validate the coupon code of the path (public, the provider's path)")
  )
  .middleware(AlwaysVerdict)
  .annotateMerge(OpenApi.annotations({ title: "Coupon validation", description: "Public: no token needed" }))
{}

/**
 * `POST /v1/coupons/validate`: public (a token, when sent, only narrows the
 * account), so it is a group of its own, outside the authenticated wiring.
 */
import { CouponVerdict, InvalidData } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"

/**
 * `POST /v1/coupons/validate`: public, and 200 with a verdict for any JSON
 * body. Only a body that is not JSON answers 400 `INVALID_DATA`, before the
 * handler, like every route.
 */
export class CouponValidationGroup extends HttpApiGroup.make("couponValidation")
  .add(
    HttpApiEndpoint.post("validate", "/v1/coupons/validate", {
      payload: Schema.Unknown,
      success: CouponVerdict,
      error: enveloped(InvalidData)
    }).annotate(OpenApi.Summary, "Validate a coupon code (public)")
  )
  .annotateMerge(OpenApi.annotations({ title: "Coupon validation", description: "Public: no token needed" }))
{}

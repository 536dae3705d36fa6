/**
 * `POST /v1/coupons/validate`: public (a token, when sent, only narrows the
 * account), so it is a group of its own, outside the authenticated wiring.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

/** `POST /v1/coupons/validate`: public, and always 200 with a verdict (even for a malformed body). */
export class CouponValidationGroup extends HttpApiGroup.make("couponValidation")
  .add(
    HttpApiEndpoint.post("validate", "/v1/coupons/validate", {
      payload: Schema.Unknown,
      success: Schema.Struct({
        valid: Schema.Boolean,
        reason: Schema.optionalKey(Schema.String),
        coupon: Schema.optionalKey(Schema.Unknown),
        discountAmount: Schema.optionalKey(Schema.Unknown),
        finalAmount: Schema.optionalKey(Schema.Unknown)
      })
    }).annotate(OpenApi.Summary, "Validate a coupon code (public)")
  )
  .annotateMerge(OpenApi.annotations({ title: "Coupon validation", description: "Public: no token needed" }))
{}

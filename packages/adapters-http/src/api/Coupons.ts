/** `/v1/coupons`: coupon management. The public validation is `CouponValidation.ts`. */
import {
  CouponCodeAlreadyExists,
  CouponInactiveCannotReactivate,
  CouponInput,
  CouponInUse,
  CouponNotFound,
  CouponView,
  InvalidData
} from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, CatalogueFilters, CouponIdParam, KeysetQuery, requires } from "./Common.ts"

const couponUpdateErrors = [
  enveloped(InvalidData),
  enveloped(CouponNotFound),
  enveloped(CouponCodeAlreadyExists),
  enveloped(CouponInactiveCannotReactivate)
] as const

/** Update by PUT, and by PATCH as the provider's clients send it: the fields sent change, `status` included. */
const couponUpdate = {
  params: CouponIdParam,
  payload: CouponInput,
  success: CouponView,
  error: couponUpdateErrors
} as const

export class CouponsGroup extends HttpApiGroup.make("coupons")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CouponInput,
      success: CouponView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(CouponCodeAlreadyExists)]
    })
      .annotateMerge(requires("coupons/write"))
      .annotate(OpenApi.Summary, "Create a coupon"),
    HttpApiEndpoint.get("list", "/", {
      query: { ...KeysetQuery, ...CatalogueFilters },
      success: Schema.Struct({
        items: Schema.Array(CouponView),
        pagination: Schema.Struct({
          total: Schema.Number,
          totalPages: Schema.Number,
          limit: Schema.Number,
          hasMore: Schema.Boolean,
          lastKey: Schema.NullOr(Schema.String)
        })
      }),
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires("products/read"))
      .annotate(OpenApi.Summary, "List coupons"),
    HttpApiEndpoint.get("get", "/:couponId", {
      params: CouponIdParam,
      success: CouponView,
      error: enveloped(CouponNotFound)
    })
      .annotateMerge(requires("coupons/read"))
      .annotate(OpenApi.Summary, "Get a coupon"),
    HttpApiEndpoint.put("update", "/:couponId", couponUpdate)
      .annotateMerge(requires("coupons/write"))
      .annotate(OpenApi.Summary, "Update a coupon"),
    HttpApiEndpoint.patch("patch", "/:couponId", couponUpdate)
      .annotateMerge(requires("coupons/write"))
      .annotate(OpenApi.Summary, "Update a coupon's fields or status (the provider's PATCH, same rules as PUT)"),
    HttpApiEndpoint.patch("status", "/:couponId/status", {
      params: CouponIdParam,
      payload: Schema.Struct({ status: Schema.Literals(["ACTIVE", "PAUSED", "INACTIVE"]) }),
      success: CouponView,
      error: couponUpdateErrors
    })
      .annotateMerge(requires("coupons/write"))
      .annotate(OpenApi.Summary, "Activate, pause or deactivate a coupon"),
    HttpApiEndpoint.delete("remove", "/:couponId", {
      params: CouponIdParam,
      success: Schema.Struct({ success: Schema.Literal(true), message: Schema.String, couponId: Schema.String }),
      error: [enveloped(CouponNotFound), enveloped(CouponInUse)]
    })
      .annotateMerge(requires("coupons/write"))
      .annotate(OpenApi.Summary, "Delete a coupon")
  )
  .pipe(authenticated({ prefix: "/v1/coupons", title: "Coupons", description: "Coupon management" }))
{}

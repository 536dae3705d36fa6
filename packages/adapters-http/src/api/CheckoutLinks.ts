/** `/v1/checkouts`: reusable hosted checkout links (`pl_`). */
import { CheckoutLinkInput, CheckoutLinkView, CheckoutNotFound, CheckoutSessionInput, InvalidData, PriceNotFound, ProductNotFound } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, KeysetPagination, KeysetQuery, LinkIdParam, requires } from "./Common.ts"

export class CheckoutLinksGroup extends HttpApiGroup.make("checkoutLinks")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CheckoutLinkInput,
      success: CheckoutLinkView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(PriceNotFound), enveloped(ProductNotFound)]
    })
      .annotateMerge(requires("checkouts/write"))
      .annotate(OpenApi.Summary, "Create a checkout link"),
    // The provider's path of `POST /v1/checkout-sessions`, which answers 200 there.
    HttpApiEndpoint.post("createSession", "/session", {
      payload: CheckoutSessionInput,
      success: CheckoutLinkView,
      error: [enveloped(InvalidData), enveloped(PriceNotFound)]
    })
      .annotateMerge(requires("checkouts/write"))
      .annotate(OpenApi.Summary, "Create a checkout session (the provider's path)"),
    HttpApiEndpoint.get("list", "/", {
      query: KeysetQuery,
      success: Schema.Struct({ items: Schema.Array(CheckoutLinkView), pagination: KeysetPagination }),
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires("checkouts/read"))
      .annotate(OpenApi.Summary, "List checkout links"),
    HttpApiEndpoint.get("get", "/:id", { params: LinkIdParam, success: CheckoutLinkView, error: enveloped(CheckoutNotFound) })
      .annotateMerge(requires("checkouts/read"))
      .annotate(OpenApi.Summary, "Get a checkout link"),
    HttpApiEndpoint.put("update", "/:id", {
      params: LinkIdParam,
      payload: CheckoutLinkInput,
      success: CheckoutLinkView,
      error: [enveloped(InvalidData), enveloped(CheckoutNotFound), enveloped(PriceNotFound)]
    })
      .annotateMerge(requires("checkouts/write"))
      .annotate(OpenApi.Summary, "Update a checkout link")
  )
  .pipe(authenticated({
    prefix: "/v1/checkouts",
    title: "Checkout links",
    description: "Reusable hosted checkout links (pl_)"
  }))
{}

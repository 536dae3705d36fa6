/** `/v1/checkout-sessions`: single-use hosted checkouts (`cs_`). */
import { CheckoutLinkView, CheckoutSessionInput, InvalidData, PriceNotFound, SessionNotFound } from "@billing/core"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, requires, SessionIdParam } from "./Common.ts"

export class CheckoutSessionsGroup extends HttpApiGroup.make("checkoutSessions")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CheckoutSessionInput,
      success: CheckoutLinkView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(PriceNotFound)]
    })
      .annotateMerge(requires("checkouts/write"))
      .annotate(OpenApi.Summary, "Create a checkout session"),
    HttpApiEndpoint.get("get", "/:id", { params: SessionIdParam, success: CheckoutLinkView, error: enveloped(SessionNotFound) })
      .annotateMerge(requires("checkouts/read"))
      .annotate(OpenApi.Summary, "Get a checkout session")
  )
  .pipe(authenticated({
    prefix: "/v1/checkout-sessions",
    title: "Checkout sessions",
    description: "Single-use hosted checkouts (cs_)"
  }))
{}

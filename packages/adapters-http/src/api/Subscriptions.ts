/** `/v1/subscriptions`: reading, cancelling and archiving subscriptions (they are created by the checkout). */
import {
  CancelSubscriptionInput,
  CancelSubscriptionResponse,
  InvalidData,
  SubscriptionAlreadyCanceled,
  SubscriptionDetailView,
  SubscriptionListResponse,
  SubscriptionNotEligible,
  SubscriptionNotFound,
  SubscriptionStatus
} from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, Id, KeysetQuery, requires } from "./Common.ts"

const SubscriptionIdParam = { subscriptionId: Id }
const Filter = Schema.optionalKey(Schema.String)

export class SubscriptionsGroup extends HttpApiGroup.make("subscriptions")
  .add(
    HttpApiEndpoint.get("list", "/", {
      query: {
        ...KeysetQuery,
        status: Filter,
        paymentMethod: Filter,
        paymentType: Filter,
        document: Filter,
        search: Filter,
        startDate: Filter,
        endDate: Filter,
        priceId: Filter,
        productId: Filter,
        checkoutId: Filter
      },
      success: SubscriptionListResponse,
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires("subscriptions/read"))
      .annotate(OpenApi.Summary, "List subscriptions"),
    HttpApiEndpoint.get("get", "/:subscriptionId", {
      params: SubscriptionIdParam,
      success: SubscriptionDetailView,
      error: enveloped(SubscriptionNotFound)
    })
      .annotateMerge(requires("subscriptions/read"))
      .annotate(OpenApi.Summary, "Get a subscription with its cycles, invoices and items"),
    HttpApiEndpoint.delete("cancel", "/:subscriptionId", {
      params: SubscriptionIdParam,
      // The body is optional: an empty DELETE cancels now.
      payload: [CancelSubscriptionInput, Schema.Null],
      success: CancelSubscriptionResponse,
      error: [enveloped(InvalidData), enveloped(SubscriptionNotFound), enveloped(SubscriptionAlreadyCanceled), enveloped(SubscriptionNotEligible)]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Cancel a subscription now or at the end of its period"),
    HttpApiEndpoint.post("archive", "/:subscriptionId/archive", {
      params: SubscriptionIdParam,
      success: Schema.Struct({ subscriptionId: Schema.String, status: SubscriptionStatus, archivedAt: Schema.DateFromString }),
      error: [enveloped(SubscriptionNotFound), enveloped(SubscriptionNotEligible)]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Archive a subscription: hidden from the list, history kept")
  )
  .pipe(authenticated({ prefix: "/v1/subscriptions", title: "Subscriptions", description: "Subscriptions, their cycles and invoices" }))
{}

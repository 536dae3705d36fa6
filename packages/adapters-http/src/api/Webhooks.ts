/** `/v1/users/webhooks`: registrations, deliveries, test and retry. */
import { DeliveryView, InvalidData, optional, WebhookEventNotFound, WebhookNotFound, WebhookDetailView,
  WebhookId, WebhookView } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, LimitQuery, requires, WebhookEventIdParam, WebhookIdParam } from "./Common.ts"

/** Manual resend of a delivery, at the spec's path and at the provider's (`/events/{id}/retry`). */
const retry = {
  params: WebhookEventIdParam,
  success: Schema.Struct({
    message: Schema.String,
    webhookEventId: Schema.String,
    attempt: Schema.Number,
    status: Schema.String,
    responseStatusCode: Schema.NullOr(Schema.Number),
    error: Schema.NullOr(Schema.String)
  }),
  error: enveloped(WebhookEventNotFound)
} as const

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("register", "/", {
      payload: Schema.Struct({
        url: Schema.String,
        events: optional(Schema.Array(Schema.String)),
        secret: optional(Schema.String),
        authToken: optional(Schema.String)
      }),
      success: WebhookView.pipe(HttpApiSchema.status(201)),
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Register a webhook"),
    HttpApiEndpoint.get("list", "/", {
      success: Schema.Struct({ items: Schema.Array(WebhookView) })
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "List webhooks"),
    HttpApiEndpoint.get("deliveries", "/events", {
      query: {
        ...LimitQuery,
        nextPageToken: Schema.optionalKey(Schema.String),
        type: Schema.optionalKey(Schema.String),
        status: Schema.optionalKey(Schema.String)
      },
      success: Schema.Struct({
        items: Schema.Array(DeliveryView),
        count: Schema.Number,
        hasMore: Schema.Boolean,
        nextPageToken: Schema.NullOr(Schema.String)
      }),
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "List webhook deliveries"),
    HttpApiEndpoint.post("test", "/test", {
      payload: Schema.Struct({
        entity: Schema.String,
        webhookId: optional(Schema.String.pipe(Schema.decodeTo(WebhookId))),
        url: optional(Schema.String)
      }),
      success: Schema.Struct({
        success: Schema.Boolean,
        url: Schema.String,
        event: Schema.String,
        payload: Schema.Unknown,
        response: Schema.NullOr(Schema.Struct({ statusCode: Schema.Number })),
        error: Schema.optionalKey(Schema.String)
      }),
      error: [enveloped(InvalidData), enveloped(WebhookNotFound)]
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Send a test event"),
    HttpApiEndpoint.get("get", "/:webhookId", {
      params: WebhookIdParam,
      success: WebhookDetailView,
      error: enveloped(WebhookNotFound)
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Get a webhook, with its deliveries' counters"),
    HttpApiEndpoint.put("update", "/:webhookId", {
      params: WebhookIdParam,
      payload: Schema.Struct({
        url: optional(Schema.String),
        events: optional(Schema.Array(Schema.String)),
        status: optional(Schema.Literals(["active", "inactive"])),
        authToken: Schema.optionalKey(Schema.NullOr(Schema.String))
      }),
      success: WebhookView,
      error: [enveloped(InvalidData), enveloped(WebhookNotFound)]
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Update a webhook"),
    HttpApiEndpoint.delete("remove", "/:webhookId", {
      params: WebhookIdParam,
      success: Schema.Struct({ message: Schema.String, webhookId: Schema.String }),
      error: enveloped(WebhookNotFound)
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Delete a webhook"),
    HttpApiEndpoint.post("retry", "/:webhookEventId/retry", retry)
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Retry a delivery"),
    HttpApiEndpoint.post("retryEvent", "/events/:webhookEventId/retry", retry)
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Retry a delivery (the provider's path)")
  )
  .pipe(authenticated({
    prefix: "/v1/users/webhooks",
    title: "Webhooks",
    description: "Registrations, deliveries, test and retry"
  }))
{}

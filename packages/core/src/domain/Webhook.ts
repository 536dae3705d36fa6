import { Schema } from "effect"
import { EventName } from "./Events.ts"

export const WebhookStatus = Schema.Literals(["active", "inactive"])
export type WebhookStatus = typeof WebhookStatus.Type

/**
 * A webhook registration (`uwh_…`). `events` empty means every event. The
 * `secret` keys the HMAC of `X-Webhook-Signature`; `authToken`, when set, is
 * sent verbatim as `x-access-token`.
 */
export const WebhookRegistration = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  url: Schema.String,
  events: Schema.Array(EventName),
  secret: Schema.String,
  authToken: Schema.NullOr(Schema.String),
  status: WebhookStatus,
  createdAt: Schema.Date
}).annotate({ identifier: "WebhookRegistrationRecord" })
export type WebhookRegistration = typeof WebhookRegistration.Type

export const DeliveryStatus = Schema.Literals(["pending", "sending", "delivered", "failed"])
export type DeliveryStatus = typeof DeliveryStatus.Type

/**
 * One event sent (or to be sent) to one registration; its id is the
 * `webhookEventId` of `POST /v1/users/webhooks/{webhookEventId}/retry`.
 */
export const WebhookDelivery = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  webhookId: Schema.String,
  event: EventName,
  body: Schema.String,
  status: DeliveryStatus,
  attempt: Schema.Int,
  responseStatusCode: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  deliveredAt: Schema.NullOr(Schema.Date)
}).annotate({ identifier: "WebhookDeliveryRecord" })
export type WebhookDelivery = typeof WebhookDelivery.Type

import { Schema } from "effect"
import { EventName } from "./Events.ts"
import { Instant } from "./Wire.ts"
import { AccountId, WebhookDeliveryId, WebhookId } from "./Ids.ts"

export const WebhookStatus = Schema.Literals(["active", "inactive"])
export type WebhookStatus = typeof WebhookStatus.Type

/**
 * A webhook registration (`uwh_…`). `events` empty means every event but
 * those a registration gets only by naming them (`NamedOnlyEventNames`). The
 * `secret` keys the HMAC of `X-Webhook-Signature`; `authToken`, when set, is
 * sent verbatim as `x-access-token`.
 */
export const WebhookRegistration = Schema.Struct({
  id: WebhookId,
  accountId: AccountId,
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
  id: WebhookDeliveryId,
  accountId: AccountId,
  webhookId: WebhookId,
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

const registration = WebhookRegistration.fields
const delivery = WebhookDelivery.fields

/** A registration as clients see it; `secret` only in the answer that created it. */
export const WebhookView = Schema.Struct({
  webhookId: registration.id,
  url: registration.url,
  events: registration.events,
  status: registration.status,
  hasAuthToken: Schema.Boolean,
  secret: Schema.optionalKey(registration.secret),
  createdAt: Instant
}).annotate({ identifier: "Webhook" })

/**
 * `GET /v1/users/webhooks/{id}`: the registration with its deliveries'
 * counters: attempts delivered and failed so far, in flight now, waiting,
 * and since when the oldest waits (null when none does).
 */
export const WebhookDetailView = Schema.Struct({
  ...WebhookView.fields,
  deliveries: Schema.Struct({
    delivered: Schema.Number,
    failed: Schema.Number,
    inFlight: Schema.Number,
    pending: Schema.Number,
    oldestPendingAt: Schema.NullOr(Instant)
  })
}).annotate({ identifier: "WebhookDetail" })

/** A delivery as clients see it in listings; its id is the `webhookEventId` to retry. */
export const DeliveryView = Schema.Struct({
  webhookEventId: delivery.id,
  webhookId: delivery.webhookId,
  type: delivery.event,
  status: delivery.status,
  attempt: delivery.attempt,
  responseStatusCode: delivery.responseStatusCode,
  error: delivery.error,
  createdAt: Instant,
  deliveredAt: Schema.NullOr(Instant)
}).annotate({ identifier: "WebhookDelivery" })

export const toWebhookView = (r: WebhookRegistration, options?: { readonly withSecret?: boolean }): typeof WebhookView.Type => ({
  webhookId: r.id,
  url: r.url,
  events: r.events,
  status: r.status,
  hasAuthToken: r.authToken !== null,
  ...(options?.withSecret ? { secret: r.secret } : {}),
  createdAt: r.createdAt
})

export const toDeliveryView = (d: WebhookDelivery): typeof DeliveryView.Type => ({
  webhookEventId: d.id,
  webhookId: d.webhookId,
  type: d.event,
  status: d.status,
  attempt: d.attempt,
  responseStatusCode: d.responseStatusCode,
  error: d.error,
  createdAt: d.createdAt,
  deliveredAt: d.deliveredAt
})

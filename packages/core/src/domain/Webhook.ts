import { Schema } from "effect"
import { EventName } from "./Events.ts"

export const WebhookStatus = Schema.Literals(["active", "inactive"])
export type WebhookStatus = typeof WebhookStatus.Type

/**
 * A webhook registration (`uwh_…`). `events` empty means every event. The
 * `secret` keys the HMAC of `X-Webhook-Signature`; `authToken`, when set, is
 * sent verbatim as `x-access-token`.
 */
export interface WebhookRegistration {
  readonly id: string
  readonly accountId: string
  readonly url: string
  readonly events: ReadonlyArray<EventName>
  readonly secret: string
  readonly authToken: string | null
  readonly status: WebhookStatus
  readonly createdAt: Date
}

export const DeliveryStatus = Schema.Literals(["pending", "sending", "delivered", "failed"])
export type DeliveryStatus = typeof DeliveryStatus.Type

/**
 * One event sent (or to be sent) to one registration; its id is the
 * `webhookEventId` of `POST /v1/users/webhooks/{webhookEventId}/retry`.
 */
export interface WebhookDelivery {
  readonly id: string
  readonly accountId: string
  readonly webhookId: string
  readonly event: EventName
  readonly body: string
  readonly status: DeliveryStatus
  readonly attempt: number
  readonly responseStatusCode: number | null
  readonly error: string | null
  readonly createdAt: Date
  readonly deliveredAt: Date | null
}

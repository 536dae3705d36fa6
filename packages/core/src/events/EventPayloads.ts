/**
 * The payload of every event the engine emits, by name: what receivers get
 * and what the OpenAPI document's `webhooks` section describes (so the two
 * cannot drift). Events of the catalog the engine does not emit yet
 * (refunds, onboarding, MED, overdue) are absent; `subscription.renewed`
 * carries the base until the billing run adds its next-cycle fields.
 */
import { Schema } from "effect"
import type { EventName } from "../domain/Events.ts"
import { ChargeExpiredEvent, PaymentSuccessEvent } from "./ChargeEvents.ts"
import { ChargeCreatedEvent, PaymentFailedEvent, SubscriptionEvent, SubscriptionPaymentSuccessEvent } from "./SubscriptionEvents.ts"

export const EventPayloads = {
  "payment.success": Schema.Union([PaymentSuccessEvent, SubscriptionPaymentSuccessEvent]),
  "charge.expired": ChargeExpiredEvent,
  "charge.created": ChargeCreatedEvent,
  "payment.failed": PaymentFailedEvent,
  "subscription.created": SubscriptionEvent,
  "subscription.trial": SubscriptionEvent,
  "subscription.activated": SubscriptionEvent,
  "subscription.renewed": SubscriptionEvent,
  "subscription.upgraded": SubscriptionEvent,
  "subscription.item_added": SubscriptionEvent,
  "subscription.item_removed": SubscriptionEvent,
  "subscription.downgrade_scheduled": SubscriptionEvent,
  "subscription.canceled": SubscriptionEvent,
  "subscription.cancel_scheduled": SubscriptionEvent
} as const satisfies Partial<Record<EventName, Schema.Top>>

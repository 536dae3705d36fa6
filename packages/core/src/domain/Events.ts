import { Schema } from "effect"

/** The events of the catalog that carry the subscription base. */
export const SubscriptionEventNames = [
  "subscription.created",
  "subscription.trial",
  "subscription.activated",
  "subscription.renewed",
  "subscription.upgraded",
  "subscription.item_added",
  "subscription.item_removed",
  "subscription.downgrade_scheduled",
  "subscription.canceled",
  "subscription.cancel_scheduled",
  "subscription.expired"
] as const

/** Every event name of the spec's catalog. */
export const EventNames = [
  "payment.success",
  "payment.overdue",
  "payment.failed",
  "charge.created",
  "charge.expired",
  ...SubscriptionEventNames,
  "refund.requested",
  "refund.confirmed",
  "refund.failed",
  "onboarding.create",
  "onboarding.backgroundcheck",
  "onboarding.documentscopy",
  "onboarding.proposal",
  "med.infraction.updated",
  "med.balance.blocked",
  "med.balance.unblocked",
  "med.refund.opened",
  "med.refund.closed"
] as const

export const EventName = Schema.Literals(EventNames)
export type EventName = typeof EventName.Type

/**
 * An event as a use case records it in the outbox, in the same transaction as
 * the change it describes. `body` is the serialized JSON that receivers get,
 * written once so that every delivery and every retry sends the same bytes.
 */
export const OutboxEvent = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  event: EventName,
  body: Schema.String,
  createdAt: Schema.Date
}).annotate({ identifier: "OutboxEvent" })
export type OutboxEvent = typeof OutboxEvent.Type

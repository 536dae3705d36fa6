import { Schema } from "effect"
import { AccountId } from "./Ids.ts"

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

/**
 * Events of the spec's catalog that a registration gets only by naming them
 * in its `events` (spec: Events, Catalog, "Assignment"): the provider's panel
 * lists the others, and receivers written against that list would otherwise
 * meet plan changes and MED notices they never chose to handle.
 */
export const OptInEventNames = [
  "subscription.upgraded",
  "subscription.item_added",
  "subscription.item_removed",
  "subscription.downgrade_scheduled",
  "med.infraction.updated",
  "med.balance.blocked",
  "med.balance.unblocked",
  "med.refund.opened",
  "med.refund.closed"
] as const

/**
 * Events of the engine beyond the spec's catalog. A registration gets them
 * only by naming them in its `events`, as the opt-in ones, so the provider's
 * clients never meet a name they do not know.
 */
export const EngineEventNames = [
  /** The billing run held a cycle for review instead of billing it (safety bounds, `rules/CycleBounds.ts`). */
  "subscription.cycle_held",
  /** A card dispute was opened or decided (`domain/Dispute.ts`): the spec has charge statuses for it and no event. */
  "charge.dispute.updated",
  /**
   * The spec's message to a proposal's own `webhookUrl` when its sub-account
   * opens: delivered to the registration of that URL only, never fanned out
   * (`onboarding.create` is the catalog's event for every registration).
   */
  "account_approved"
] as const

/** What a registration gets only by naming it: the catalog's opt-in events and the engine's own. */
export const NamedOnlyEventNames = [...OptInEventNames, ...EngineEventNames] as const

/** Every event name: the spec's catalog, then the engine's own. */
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
  "med.refund.closed",
  ...EngineEventNames
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
  accountId: AccountId,
  event: EventName,
  body: Schema.String,
  createdAt: Schema.Date
}).annotate({ identifier: "OutboxEvent" })
export type OutboxEvent = typeof OutboxEvent.Type

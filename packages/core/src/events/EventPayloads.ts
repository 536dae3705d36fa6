/**
 * The payload of every event the engine emits, by name: what receivers get
 * and what the OpenAPI document's `webhooks` section describes (so the two
 * cannot drift).
 */
import { Schema } from "effect"
import type { EventName } from "../domain/Events.ts"
import { ChargeExpiredEvent, PaymentSuccessEvent } from "./ChargeEvents.ts"
import { DisputeUpdatedEvent } from "./DisputeEvents.ts"
import { AccountApprovedMessage, OnboardingCreateEvent, OnboardingStageEvent } from "./OnboardingEvents.ts"
import { MedBalanceEvent, MedInfractionUpdatedEvent, MedRefundEvent } from "./MedEvents.ts"
import { RefundConfirmedEvent, RefundFailedEvent, RefundRequestedEvent } from "./RefundEvents.ts"
import { ChargeCreatedEvent, CycleHeldEvent, PaymentFailedEvent, PaymentOverdueEvent, SubscriptionEvent, SubscriptionPaymentSuccessEvent } from "./SubscriptionEvents.ts"

export const EventPayloads = {
  "payment.success": Schema.Union([PaymentSuccessEvent, SubscriptionPaymentSuccessEvent]),
  "charge.expired": ChargeExpiredEvent,
  "charge.created": ChargeCreatedEvent,
  "payment.failed": PaymentFailedEvent,
  "payment.overdue": PaymentOverdueEvent,
  "subscription.created": SubscriptionEvent,
  "subscription.trial": SubscriptionEvent,
  "subscription.activated": SubscriptionEvent,
  "subscription.renewed": SubscriptionEvent,
  "subscription.upgraded": SubscriptionEvent,
  "subscription.item_added": SubscriptionEvent,
  "subscription.item_removed": SubscriptionEvent,
  "subscription.downgrade_scheduled": SubscriptionEvent,
  "subscription.canceled": SubscriptionEvent,
  "subscription.cancel_scheduled": SubscriptionEvent,
  "subscription.expired": SubscriptionEvent,
  "subscription.cycle_held": CycleHeldEvent,
  "refund.requested": RefundRequestedEvent,
  "refund.confirmed": RefundConfirmedEvent,
  "refund.failed": RefundFailedEvent,
  "med.infraction.updated": MedInfractionUpdatedEvent,
  "med.balance.blocked": MedBalanceEvent,
  "med.balance.unblocked": MedBalanceEvent,
  "med.refund.opened": MedRefundEvent,
  "med.refund.closed": MedRefundEvent,
  "charge.dispute.updated": DisputeUpdatedEvent,
  "onboarding.create": OnboardingCreateEvent,
  "onboarding.backgroundcheck": OnboardingStageEvent,
  "onboarding.documentscopy": OnboardingStageEvent,
  "onboarding.proposal": OnboardingStageEvent,
  "account_approved": AccountApprovedMessage
} as const satisfies Partial<Record<EventName, Schema.Top>>

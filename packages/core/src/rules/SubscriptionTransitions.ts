/**
 * The subscription state machine, in one table as the charge's
 * (`ChargeTransitions.ts`): use cases name the trigger, storage applies it as
 * one conditional UPDATE (`WHERE status IN from`), so two triggers racing on
 * one subscription (a payment and a cancel) cannot both win.
 *
 * Spec: States and transitions, Subscription status values. Moves the spec
 * leaves open are recorded in docs/decisions.md.
 */
import type { EventName } from "../domain/Events.ts"
import type { SubscriptionStatus } from "../domain/Subscription.ts"

export type SubscriptionTrigger =
  /** The first payment is confirmed (or a free period's first charge is paid). */
  | "activated"
  /** A later cycle, or an overdue one, is paid. */
  | "renewed"
  /** A cycle's due date passed unpaid on an active subscription. */
  | "overdueActive"
  /** A cycle's due date passed unpaid before the subscription was ever paid. */
  | "overdueEarly"
  /** `DELETE /v1/subscriptions/{id}` now, a cancel at period end reaching its date, or a cycle's dunning ending unpaid. */
  | "canceled"
  /** The first charge expired unpaid: the subscription never started. */
  | "expired"
  /** Hidden from listings, history kept. */
  | "archived"

export interface SubscriptionTransition {
  readonly trigger: SubscriptionTrigger
  readonly from: ReadonlyArray<SubscriptionStatus>
  readonly to: SubscriptionStatus
  readonly event: EventName | null
}

export const SubscriptionTransitions = {
  activated: { trigger: "activated", from: ["PENDING", "TRIALING", "PAST_DUE"], to: "ACTIVE", event: "subscription.activated" },
  renewed: { trigger: "renewed", from: ["ACTIVE", "DEFAULT"], to: "ACTIVE", event: "subscription.renewed" },
  overdueActive: { trigger: "overdueActive", from: ["ACTIVE"], to: "DEFAULT", event: "payment.overdue" },
  overdueEarly: { trigger: "overdueEarly", from: ["PENDING", "TRIALING"], to: "PAST_DUE", event: "payment.overdue" },
  canceled: { trigger: "canceled", from: ["PENDING", "TRIALING", "ACTIVE", "PAST_DUE", "DEFAULT"], to: "CANCELED", event: "subscription.canceled" },
  expired: { trigger: "expired", from: ["PENDING", "PAST_DUE"], to: "EXPIRED", event: "subscription.expired" },
  archived: { trigger: "archived", from: ["ACTIVE", "PAST_DUE", "CANCELED", "COMPLETED", "EXPIRED"], to: "ARCHIVED", event: null }
} as const satisfies { readonly [T in SubscriptionTrigger]: SubscriptionTransition & { readonly trigger: T } }

/** The status `trigger` moves a subscription in `from` to, or `undefined` when the table has no such move. */
export const nextSubscriptionStatus = (from: SubscriptionStatus, trigger: SubscriptionTrigger): SubscriptionStatus | undefined => {
  const transition: SubscriptionTransition = SubscriptionTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

/**
 * Which subscription statuses count as what: open (it may still bill),
 * finished (it never will again), billing (the billing run issues its
 * cycles) and hidden (left out of listings). Each set is read from the
 * state machine where it can be (`SubscriptionTransitions.ts`), so a status
 * added there lands in the right sets.
 *
 * Spec: Subscription status values. The sets the spec leaves to the engine
 * (which statuses bill) are recorded in docs/decisions.md.
 */
import { type SubscriptionStatus, SubscriptionStatuses } from "../domain/Subscription.ts"
import { SubscriptionTransitions } from "./SubscriptionTransitions.ts"

/**
 * A subscription that may still bill: it can be canceled, its cycles are
 * collected, and it blocks deleting its customer or product.
 */
export const OPEN_SUBSCRIPTION_STATUSES: ReadonlyArray<SubscriptionStatus> = SubscriptionTransitions.canceled.from

/** A subscription that ended, whatever the way: nothing of it bills again (the detail's `cancellation` is final). */
export const FINISHED_SUBSCRIPTION_STATUSES: ReadonlyArray<SubscriptionStatus> = SubscriptionStatuses.filter((status) =>
  !OPEN_SUBSCRIPTION_STATUSES.includes(status)
)

/** The billing run issues every cycle of these (a subscription in default keeps billing while it is collected). */
export const BILLING_SUBSCRIPTION_STATUSES: ReadonlyArray<SubscriptionStatus> = ["ACTIVE", "DEFAULT"]

/** The billing run issues only the first cycle of these: the first charge after a free period. */
export const FIRST_CYCLE_BILLING_STATUSES: ReadonlyArray<SubscriptionStatus> = ["TRIALING"]

/**
 * Items change (upgrade, downgrade, add-on, removal) only on these (spec:
 * add item "`ACTIVE` or `PAST_DUE`"; the provider's rule for every plan change).
 */
export const PLAN_CHANGE_STATUSES: ReadonlyArray<SubscriptionStatus> = ["ACTIVE", "PAST_DUE"]

/** Left out of a listing without a status filter, unless asked for. */
export const HIDDEN_SUBSCRIPTION_STATUSES: ReadonlyArray<SubscriptionStatus> = [SubscriptionTransitions.archived.to]

/** The Pix Automático recurrence status that waits for the payer's bank: the subscription starts only once it answers. */
export const RECURRENCE_AWAITING_BANK = "PENDING" as const

/**
 * The statuses of a subscription and of what it is made of (items, cycles,
 * invoices), how often it bills and where an item came from: the spec's
 * values (States and transitions). Which move leads where is a rule
 * (`rules/SubscriptionTransitions.ts`, `CycleTransitions.ts`, ...).
 */
import { Schema } from "effect"

/** Every subscription status of the spec (there is no `PAUSED`). */
export const SubscriptionStatuses = ["PENDING", "TRIALING", "ACTIVE", "PAST_DUE", "DEFAULT", "EXPIRED", "CANCELED", "COMPLETED", "ARCHIVED"] as const
export const SubscriptionStatus = Schema.Literals(SubscriptionStatuses)
export type SubscriptionStatus = typeof SubscriptionStatus.Type

export const ItemStatuses = ["PENDING", "TRIALING", "AWAITING_PAYMENT", "ACTIVE", "CHARGED", "FAILED", "CANCELED", "PENDING_UPGRADE", "DEFAULT"] as const
export const ItemStatus = Schema.Literals(ItemStatuses)
export type ItemStatus = typeof ItemStatus.Type

export const CycleStatuses = [
  "SCHEDULED", "PENDING", "AWAITING_PAYMENT", "PROCESSING", "RETRY_SCHEDULED", "DUNNING", "PAID", "FAILED", "EXPIRED", "CANCELED"
] as const
export const CycleStatus = Schema.Literals(CycleStatuses)
export type CycleStatus = typeof CycleStatus.Type

export const InvoiceStatuses = ["PENDING", "AWAITING_PAYMENT", "OVERDUE", "PAID", "CANCELED", "EXPIRED", "UNCOLLECTIBLE"] as const
export const InvoiceStatus = Schema.Literals(InvoiceStatuses)
export type InvoiceStatus = typeof InvoiceStatus.Type

/** How often a subscription bills. */
export const Interval = Schema.Literals(["DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "SEMIANNUAL", "YEARLY"])
export type Interval = typeof Interval.Type

/** Where an item came from: the purchase, an order bump, an add-on, or a plan change (`PRORATA_ADJUSTMENT`). */
export const ItemOrigin = Schema.Literals(["CHECKOUT", "ORDER_BUMP", "ADD_ON", "PRORATA_ADJUSTMENT"])
export type ItemOrigin = typeof ItemOrigin.Type

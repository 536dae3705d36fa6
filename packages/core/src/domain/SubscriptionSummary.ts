import { Schema } from "effect"
import { Subscription } from "./Subscription.ts"
import { Instant } from "./Wire.ts"

/** A subscription as its customer's detail lists it. */
export const SubscriptionSummary = Schema.Struct({
  subscriptionId: Subscription.fields.id,
  status: Subscription.fields.status,
  paymentMethod: Subscription.fields.paymentMethod,
  interval: Subscription.fields.interval,
  currentCycleNumber: Subscription.fields.currentCycleNumber,
  cancelAtPeriodEnd: Subscription.fields.cancelAtPeriodEnd,
  createdAt: Instant
}).annotate({ identifier: "SubscriptionSummary" })

export const toSubscriptionSummary = (s: Subscription): typeof SubscriptionSummary.Type => ({
  subscriptionId: s.id,
  status: s.status,
  paymentMethod: s.paymentMethod,
  interval: s.interval,
  currentCycleNumber: s.currentCycleNumber,
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  createdAt: s.createdAt
})

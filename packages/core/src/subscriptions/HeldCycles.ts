/**
 * `POST /v1/subscriptions/{id}/cycles/{cycleNumber}/approve` (scope
 * `subscriptions/write`): the merchant reviewed a cycle the billing run held
 * (`subscription.cycle_held`, safety bounds) and approves it; the run bills
 * it as it is at its next pass. To bill something else, change the plan
 * first (the held cycle is repriced with the change) and approve then.
 */
import { Clock, Effect, Schema } from "effect"
import { SubscriptionNotEligible } from "../domain/Subscription.ts"
import { Instant } from "../domain/Wire.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { SubscriptionId } from "../domain/Ids.ts"

export const ApproveCycleResponse = Schema.Struct({
  success: Schema.Literal(true),
  subscriptionId: Schema.String,
  cycleNumber: Schema.Int,
  approvedAt: Instant
}).annotate({ identifier: "ApproveCycleResponse" })

export const approveHeldCycle = Effect.fn("Subscriptions.approveHeldCycle")(function*(subscriptionId: SubscriptionId, cycleNumber: number) {
  yield* findOwnSubscription(subscriptionId)
  const at = new Date(yield* Clock.currentTimeMillis)
  const approved = yield* (yield* Subscriptions).updateScheduledCycles({ subscriptionId, cycleNumber, held: true }, { heldReason: null, approvedAt: at }, at)
  if (approved.length === 0) {
    return yield* new SubscriptionNotEligible({ message: `O ciclo ${cycleNumber} não está retido para revisão`, details: { subscriptionId, cycleNumber } })
  }
  return { success: true as const, subscriptionId, cycleNumber, approvedAt: at }
})

/**
 * `POST /v1/subscriptions/{id}/retry` (scope `subscriptions/write`): charges
 * the card on file again now for the subscription's unpaid card cycle (in
 * its retry schedule or in dunning), say after the customer changed the
 * card. The attempt is counted in the cycle's `manualRetryCount` and
 * `lastManualRetryAt` and leaves the automatic schedule as it was; an
 * approval pays the cycle (`ACTIVE` again, `subscription.renewed`), a
 * refusal answers 400 `PAYMENT_DECLINED` with `details.declinedCode`, as the
 * plan-change routes do.
 */
import { Effect, Option, Schema } from "effect"
import { PaymentDeclined, PaymentFailed, SubscriptionNotEligible } from "../domain/Subscription.ts"
import { RETRYABLE_CYCLE_STATUSES } from "../rules/CycleTransitions.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { attemptCycle } from "./IssueCycle.ts"
import { SubscriptionId } from "../domain/Ids.ts"

/** The 200 of a manual retry: the cycle, its new charge, and how many manual retries it has had. */
export const ManualRetryResponse = Schema.Struct({
  success: Schema.Literal(true),
  subscriptionId: Schema.String,
  cycleNumber: Schema.Int,
  chargeId: Schema.String,
  status: Schema.Literals(["paid", "pending"]),
  manualRetryCount: Schema.Int
}).annotate({ identifier: "ManualRetryResponse" })

export const retrySubscriptionPayment = Effect.fn("Subscriptions.retryPayment")(function*(id: SubscriptionId) {
  const aggregate = yield* findOwnSubscription(id)
  const cycle = aggregate.cycles.find((c) => RETRYABLE_CYCLE_STATUSES.includes(c.status))
  if (cycle === undefined) {
    return yield* new SubscriptionNotEligible({ message: "Nenhum ciclo com pagamento recusado aguarda nova tentativa", details: { subscriptionId: id } })
  }
  const ref = { accountId: aggregate.subscription.accountId, subscriptionId: id, cycleNumber: cycle.cycleNumber }
  const outcome = yield* attemptCycle(ref, { manual: true, from: RETRYABLE_CYCLE_STATUSES })
  if (Option.isNone(outcome)) {
    return yield* new SubscriptionNotEligible({ message: "O ciclo mudou durante a tentativa", details: { subscriptionId: id } })
  }
  const result = outcome.value
  if (result._tag === "Refused") {
    return yield* result.declinedCode === null
      ? new PaymentFailed({ message: "Não foi possível processar o pagamento", details: { reason: "acquirer_unavailable", chargeId: result.chargeId } })
      : new PaymentDeclined({ message: "Cartão recusado", details: { declinedCode: result.declinedCode, chargeId: result.chargeId } })
  }
  return {
    success: true as const,
    subscriptionId: id,
    cycleNumber: cycle.cycleNumber,
    chargeId: result.chargeId,
    status: result._tag === "Paid" ? "paid" as const : "pending" as const,
    manualRetryCount: cycle.manualRetryCount + 1
  }
})

/**
 * The bank's answer on a Pix Automático recurrence. In production it comes
 * from the PSP; in the sandbox a route stands in for the payer's bank
 * (`POST /v1/subscriptions/pix-automatico/{recurrencyId}/authorize` or
 * `/reject`). An authorized recurrence activates a subscription whose first
 * charge is paid; a rejected one leaves it `PENDING` (the merchant may move
 * it to another method or cancel it).
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { NotSandboxAccount } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { SubscriptionNotFound } from "../domain/Subscription.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { SubscriptionTransitions } from "../rules/SubscriptionTransitions.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { activate, appendSubscriptionEvent } from "./SubscriptionPayments.ts"

export const decideSandboxRecurrence = Effect.fn("Subscriptions.decideSandboxRecurrence")(function*(
  recurrencyId: string,
  decision: "AUTHORIZED" | "REJECTED"
) {
  const caller = yield* Caller
  if (!caller.account.sandbox) {
    return yield* new NotSandboxAccount({ message: "Simulação do banco pagador disponível apenas em contas sandbox", details: null })
  }
  const subscriptions = yield* Subscriptions
  const id = yield* subscriptions.findByRecurrence(caller.account.id, recurrencyId)
  if (Option.isNone(id)) return yield* new SubscriptionNotFound({ message: `Recorrência ${recurrencyId} não encontrada`, details: { recurrencyId } })
  const at = new Date(yield* Clock.currentTimeMillis)
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    if (!(yield* subscriptions.decideRecurrence(id.value, decision, at))) {
      return yield* invalid("recurrencyId", "the recurrence was already decided")
    }
    const aggregate = yield* findOwnSubscription(id.value)
    const firstPaid = aggregate.cycles[0]?.status === "PAID"
    if (decision === "AUTHORIZED" && firstPaid && Option.isSome(yield* activate(id.value, at))) {
      yield* appendSubscriptionEvent(SubscriptionTransitions.activated.event, yield* findOwnSubscription(id.value), at)
    }
  }))
  const after = yield* findOwnSubscription(id.value)
  return {
    subscriptionId: id.value,
    recurrencyId,
    recurrenceStatus: decision,
    status: after.subscription.status
  }
})

/**
 * Pix Automático after the checkout: moving a subscription to it, and the
 * bank's answer on a recurrence. In production the answer comes from the
 * PSP; in the sandbox a route stands in for the payer's bank
 * (`POST /v1/subscriptions/pix-automatico/{recurrencyId}/authorize` or
 * `/reject`). An authorized recurrence activates a subscription whose first
 * charge is paid, or moves an existing one to Pix Automático; a rejected one
 * changes nothing (a new subscription stays `PENDING` for the merchant to
 * move to another method or cancel).
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { sandboxCaller } from "../auth/SandboxOnly.ts"
import { qrPngDataUrl } from "../brazil/QrPng.ts"
import { ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { mayUsePixAutomatico } from "../domain/Account.ts"
import { PixAutomaticoPjOnly } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { type Subscription, type SubscriptionAggregate, SubscriptionNotFound } from "../domain/Subscription.ts"
import { nextCycleOf } from "../rules/NextCycle.ts"
import { PixProvider } from "../ports/PixProvider.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { SubscriptionTransitions } from "../rules/SubscriptionTransitions.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { repriceNextCycle } from "./SubscriptionItems.ts"
import { activate, appendSubscriptionEvent } from "./SubscriptionPayments.ts"

/** The least a Pix Automático cycle may bill (spec: Limits), in centavos. */
export const PIX_AUTOMATICO_MINIMUM = 499

/**
 * Moves the method of the cycles not issued yet, in the caller's
 * transaction (which holds the subscription's lock), with its history entry.
 */
export const switchPaymentMethod = Effect.fn("Subscriptions.switchPaymentMethod")(function*(
  sub: Subscription,
  to: Pick<Subscription, "paymentMethod" | "paymentMethodId" | "card">,
  at: Date
) {
  const subscriptions = yield* Subscriptions
  yield* subscriptions.update(sub.id, to, at)
  yield* subscriptions.updateScheduledCycles({ subscriptionId: sub.id }, { paymentMethod: to.paymentMethod }, at)
  yield* subscriptions.appendChange(sub.id, { kind: "PAYMENT_METHOD", from: sub.paymentMethod, to: to.paymentMethod, at })
  yield* repriceNextCycle(yield* findOwnSubscription(sub.id), at)
})

/**
 * Asks the payer's bank to authorize Pix Automático for a subscription (PJ
 * or internal accounts, at least 4.99 per cycle): the recurrence alone, whose BR Code the
 * payer scans; the subscription keeps its method until the bank answers.
 */
export const requestPixAutomatico = Effect.fn("Subscriptions.requestPixAutomatico")(function*(aggregate: SubscriptionAggregate, at: Date) {
  const caller = yield* Caller
  const sub = aggregate.subscription
  if (!mayUsePixAutomatico(caller.account)) return yield* new PixAutomaticoPjOnly({ message: "Pix Automático é exclusivo para contas PJ", details: null })
  const next = nextCycleOf(aggregate)
  if (next === null || next.amount < PIX_AUTOMATICO_MINIMUM) return yield* invalid("paymentMethod", "Pix Automático needs at least 4.99 per cycle")
  yield* requireProvider(caller.account, "pix")
  const { emv, recurrencyId } = yield* (yield* PixProvider).requestRecurrence({ receiver: caller.account, reference: sub.id, amount: next.amount, at }).pipe(
    Effect.mapError((e) => new ProviderUnavailable({ message: "Provedor Pix indisponível", details: { reason: e.message } }))
  )
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const subscriptions = yield* Subscriptions
    yield* subscriptions.lock(sub.id)
    yield* subscriptions.update(sub.id, { pixRecurrencyId: recurrencyId, pixRecurrenceStatus: "PENDING" }, at)
  }))
  return { emv, qrCode: qrPngDataUrl(emv), recurrencyId }
})

export const decideSandboxRecurrence = Effect.fn("Subscriptions.decideSandboxRecurrence")(function*(
  recurrencyId: string,
  decision: "AUTHORIZED" | "REJECTED"
) {
  const caller = yield* sandboxCaller("Simulação do banco pagador disponível apenas em contas sandbox")
  const subscriptions = yield* Subscriptions
  const id = yield* subscriptions.findByRecurrence(caller.account.id, recurrencyId)
  if (Option.isNone(id)) return yield* new SubscriptionNotFound({ message: `Recorrência ${recurrencyId} não encontrada`, details: { recurrencyId } })
  const at = new Date(yield* Clock.currentTimeMillis)
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    if (!(yield* subscriptions.decideRecurrence(id.value, decision, at))) {
      return yield* invalid("recurrencyId", "the recurrence was already decided")
    }
    if (decision === "REJECTED") return
    const aggregate = yield* findOwnSubscription(id.value)
    const sub = aggregate.subscription
    // An existing subscription moving to Pix Automático: its later cycles are the bank's now.
    if (sub.paymentMethod !== "pix_automatico") {
      return yield* switchPaymentMethod(sub, { paymentMethod: "pix_automatico", paymentMethodId: null, card: null }, at)
    }
    const firstPaid = aggregate.cycles[0]?.status === "PAID"
    if (firstPaid && Option.isSome(yield* activate(id.value, at))) {
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

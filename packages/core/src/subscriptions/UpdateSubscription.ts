/**
 * `PATCH /v1/subscriptions/{id}` and the provider's
 * `POST /v1/subscriptions/update`: one body, several changes. `action:
 * "cancel"` cancels; `old` with `new` changes an item; `old` alone removes
 * it; `new` alone adds one; `billingDay` moves the due day (with a
 * prorata); `additionalEmails`, `cancelAtPeriodEnd` and `paymentMethod`
 * (with `card` or `paymentMethodId`) edit the subscription. The first of these the body carries, in that order, is
 * what is done.
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { tokenizeCard } from "../checkout/TokenizeCard.ts"
import { MissingCardData } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import type { SubscriptionAggregate } from "../domain/Subscription.ts"
import { PaymentMethods } from "../ports/PaymentMethods.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { providerOf } from "../rules/PaymentProviders.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { cancelSubscription } from "./CancelSubscription.ts"
import { changeBillingDay } from "./DueDateChange.ts"
import { addItem, changeItem, previewPlanChange, removeItem } from "./PlanChanges.ts"
import { findOwnSubscription } from "./ReadSubscriptions.ts"
import { requestPixAutomatico, switchPaymentMethod } from "./PixAutomatico.ts"
import type { ProviderProrataRequest, UpdateSubscriptionRequest } from "./SubscriptionRequests.ts"
import { type AccountId, SubscriptionId } from "../domain/Ids.ts"

type UpdateBody = typeof UpdateSubscriptionRequest.Type

type Edits = Pick<UpdateBody, "additionalEmails" | "cancelAtPeriodEnd" | "paymentMethod" | "paymentMethodId" | "card">

/**
 * The card a subscription moves to: a typed card is tokenized; a
 * `paymentMethodId` must be a card of the account.
 */
const cardOnFile = Effect.fnUntraced(function*(edits: Edits, accountId: AccountId) {
  if (edits.card !== undefined) {
    const { paymentMethodId, brand, firstSix, lastFour } = yield* tokenizeCard({ card: edits.card })
    return { paymentMethodId, card: { brand, firstSix, lastFour } }
  }
  if (edits.paymentMethodId === undefined) return yield* new MissingCardData({ message: "Envie card ou paymentMethodId", details: null })
  const method = yield* (yield* PaymentMethods).find(accountId, edits.paymentMethodId)
  if (Option.isNone(method)) return yield* invalid("paymentMethodId", `paymentMethodId ${edits.paymentMethodId} is not a card of this account`)
  const { brand, firstSix, lastFour } = method.value
  return { paymentMethodId: method.value.id, card: { brand, firstSix, lastFour } }
})

/**
 * The payment method of later cycles (also when past due): recorded in
 * `paymentMethodChanges`; the cycles not issued yet are repriced (discounts
 * may be per method). Pix Automático is asked of the payer's bank first
 * (`requestPixAutomatico`); the method changes when the bank authorizes it.
 */
const changePaymentMethod = Effect.fnUntraced(function*(aggregate: SubscriptionAggregate, edits: Edits, at: Date) {
  const sub = aggregate.subscription
  const to = edits.paymentMethod ?? sub.paymentMethod
  // The later cycles would be left unbilled: a method a production account cannot be charged by is refused now.
  yield* requireProvider((yield* Caller).account, providerOf(to))
  if (to === "pix_automatico") return yield* requestPixAutomatico(aggregate, at)
  const card = to === "creditcard" ? yield* cardOnFile(edits, sub.accountId) : { paymentMethodId: null, card: null }
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    yield* (yield* Subscriptions).lock(sub.id)
    yield* switchPaymentMethod(sub, { paymentMethod: to, ...card }, at)
  }))
  return undefined
})

/**
 * Edits: `additionalEmails`; `cancelAtPeriodEnd` (set: cancel when the
 * period ends, `subscription.cancel_scheduled`; unset: keep going); the
 * payment method of later cycles.
 */
export const editSubscription = Effect.fn("Subscriptions.edit")(function*(id: SubscriptionId, edits: Edits) {
  const aggregate = yield* findOwnSubscription(id)
  const at = new Date(yield* Clock.currentTimeMillis)
  const pix = edits.paymentMethod !== undefined || edits.paymentMethodId !== undefined || edits.card !== undefined
    ? yield* changePaymentMethod(aggregate, edits, at)
    : undefined
  if (edits.cancelAtPeriodEnd === true && !aggregate.subscription.cancelAtPeriodEnd) {
    yield* cancelSubscription(id, { cancelAtPeriodEnd: true })
  }
  const unschedule = edits.cancelAtPeriodEnd === false && aggregate.subscription.cancelAtPeriodEnd
  if (edits.additionalEmails !== undefined || unschedule) {
    yield* (yield* Transactor).withTransaction(Effect.flatMap(Subscriptions, (s) =>
      s.update(id, { additionalEmails: edits.additionalEmails, cancelAtPeriodEnd: unschedule ? false : undefined }, at)))
  }
  const after = yield* findOwnSubscription(id)
  const sub = after.subscription
  return {
    success: true as const,
    subscriptionId: id,
    status: sub.status,
    additionalEmails: sub.additionalEmails,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    paymentMethod: sub.paymentMethod,
    ...(pix === undefined ? {} : { pix })
  }
})

export const updateSubscription = Effect.fn("Subscriptions.update")(function*(id: SubscriptionId, body: UpdateBody) {
  if (body.action === "cancel") return yield* cancelSubscription(id, { reason: body.reason })
  const old = body.old
  const hasOld = old !== undefined && (old.itemId !== undefined || old.priceId !== undefined)
  if (hasOld && body.new !== undefined) return yield* changeItem(id, old, body.new)
  if (hasOld) return yield* removeItem(id, old)
  if (body.new?.priceId !== undefined) return yield* addItem(id, { priceId: body.new.priceId, quantity: body.new.quantity })
  if (body.billingDay !== undefined) return yield* changeBillingDay(id, body.billingDay)
  const edits = [body.additionalEmails, body.cancelAtPeriodEnd, body.paymentMethod, body.paymentMethodId, body.card]
  if (edits.some((edit) => edit !== undefined)) return yield* editSubscription(id, body)
  return yield* invalid("old", "send old and/or new, action, or an edit (additionalEmails, cancelAtPeriodEnd, paymentMethod)")
})

/** The provider's `POST /v1/subscriptions/prorata`: the preview, with the subscription in the body. */
export const providerProrata = (body: typeof ProviderProrataRequest.Type) => previewPlanChange(body.subscriptionId, body)


/**
 * Bodies of the events about subscriptions (spec: Events, Common envelope):
 * every one carries the subscription base (`subscriptionId`, `customerId`,
 * `customer`, `items`, `currentCycle`) with `accountNumber` as the account
 * key and `timestamp`; payments and created charges add their charge. One
 * Schema per body, derived from the entities, serialized once when the event
 * is recorded.
 */
import type { BillableSubscription } from "../domain/Subscription.ts"
import { Schema } from "effect"
import { Charge } from "../domain/Charge.ts"
import { PaymentSuccessEvent, paymentFieldsOf } from "./ChargeEvents.ts"
import { type EventName, SubscriptionEventNames } from "../domain/Events.ts"
import type { AccountId } from "../domain/Ids.ts"
import { BillingCycle, Subscription, SubscriptionItem } from "../domain/Subscription.ts"
import { nextCycleOf } from "../rules/NextCycle.ts"
import { type Cents, cents } from "../money/Money.ts"
import { Instant, ReaisJson } from "../domain/Wire.ts"

const s = Subscription.fields
const i = SubscriptionItem.fields
const c = BillingCycle.fields
const ch = Charge.fields

/** The names of the events that carry the subscription base. */
export const SubscriptionEventName = Schema.Literals(SubscriptionEventNames)
export type SubscriptionEventName = typeof SubscriptionEventName.Type

const EventItem = Schema.Struct({
  itemId: i.id,
  priceId: i.priceId,
  productId: i.productId,
  name: i.name,
  quantity: i.quantity,
  amount: ReaisJson,
  type: i.type,
  status: i.status,
  price: Schema.Struct({
    title: i.name,
    amount: ReaisJson,
    recurrenceType: i.recurrenceType,
    recurrenceInterval: i.recurrenceInterval,
    trialDays: i.trialDays
  })
})

/**
 * The cycle under the names of the spec's billing cycle entry (`cycle`), which
 * the subscription detail and the test bodies use too: its day is `chargeDate`.
 */
const EventCycle = Schema.Struct({
  cycleNumber: c.cycleNumber,
  status: c.status,
  amount: ReaisJson,
  chargeDate: c.dueDate,
  chargeId: c.chargeId,
  paymentMethod: c.paymentMethod
})

/** The subscription base every subscription-related event carries. */
const base = {
  timestamp: Instant,
  accountNumber: Schema.String,
  subscriptionId: s.id,
  status: s.status,
  customerId: s.customerId,
  customer: Schema.Struct({ customerId: s.customerId, name: s.name, email: s.email, phone: s.phone, document: s.document }),
  items: Schema.Array(EventItem),
  currentCycle: Schema.NullOr(EventCycle)
}

/** The cycle a renewal moves to and the one after it (`subscription.renewed` from the billing engine). */
const renewal = {
  currentCycleNumber: Schema.optionalKey(s.currentCycleNumber),
  currentCycleAmount: Schema.optionalKey(ReaisJson),
  nextCycleNumber: Schema.optionalKey(Schema.NullOr(c.cycleNumber)),
  nextCycleAmount: Schema.optionalKey(Schema.NullOr(ReaisJson)),
  nextCycleChargeDate: Schema.optionalKey(Schema.NullOr(c.dueDate))
}

/** `subscription.*`: the base, the cancellation fields, and on `subscription.renewed` the next cycle's. */
export const SubscriptionEvent = Schema.Struct({
  event: SubscriptionEventName,
  ...base,
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  canceledAt: Schema.NullOr(Instant),
  reason: s.cancelReason,
  ...renewal
}).annotate({ identifier: "SubscriptionEvent" })

/** `subscription.cycle_held` (the engine's own): the base, and the cycle the billing run held for review instead of billing. */
export const CycleHeldEvent = Schema.Struct({
  event: Schema.Literal("subscription.cycle_held"),
  ...base,
  cycleNumber: c.cycleNumber,
  amount: ReaisJson,
  previousAmount: Schema.NullOr(ReaisJson),
  dueDate: c.dueDate,
  reason: Schema.String
}).annotate({ identifier: "CycleHeldEvent" })

/** `payment.overdue`: the base and the cycle whose due date passed unpaid (the spec shows no more). */
export const PaymentOverdueEvent = Schema.Struct({
  event: Schema.Literal("payment.overdue"),
  ...base,
  cycleNumber: c.cycleNumber,
  chargeId: c.chargeId,
  amount: ReaisJson,
  dueDate: c.dueDate
}).annotate({ identifier: "PaymentOverdueEvent" })

const { accountId: _, metadata: __, ...payment } = PaymentSuccessEvent.fields

/** `payment.success` of a subscription's charge: the standalone event's payment, with the base instead of `accountId` and `metadata`. */
export const SubscriptionPaymentSuccessEvent = Schema.Struct({ ...payment, ...base })
  .annotate({ identifier: "SubscriptionPaymentSuccessEvent" })

/** `charge.created`: the base and the charge, whose `status` is the charge's. */
export const ChargeCreatedEvent = Schema.Struct({
  event: Schema.Literal("charge.created"),
  ...base,
  status: ch.status,
  chargeId: ch.id,
  amount: ReaisJson,
  paymentType: ch.paymentType,
  dueDate: ch.dueDate
}).annotate({ identifier: "ChargeCreatedEvent" })

/** `payment.failed`: a recurring charge's attempt failed; its own schema, `accountId` and `failed` (why), no subscription base. */
export const PaymentFailedEvent = Schema.Struct({
  event: Schema.Literal("payment.failed"),
  timestamp: Instant,
  accountId: ch.accountId,
  failed: Schema.String,
  chargeId: ch.id,
  subscriptionId: ch.subscriptionId,
  cycleNumber: ch.cycleNumber,
  amount: ReaisJson,
  paymentMethod: ch.paymentType
}).annotate({ identifier: "PaymentFailedEvent" })

const encodeSubscription = Schema.encodeSync(SubscriptionEvent)
const encodePaymentFailed = Schema.encodeSync(PaymentFailedEvent)
const encodePayment = Schema.encodeSync(SubscriptionPaymentSuccessEvent)
const encodeChargeCreated = Schema.encodeSync(ChargeCreatedEvent)
const encodeOverdue = Schema.encodeSync(PaymentOverdueEvent)
const encodeHeld = Schema.encodeSync(CycleHeldEvent)

/** The base of `aggregate` at `at` for the account numbered `accountNumber`. */
const baseOf = (aggregate: BillableSubscription, accountNumber: string, at: Date) => {
  const sub = aggregate.subscription
  const cycle = aggregate.cycles.find((x) => x.cycleNumber === sub.currentCycleNumber) ?? null
  return {
    timestamp: at,
    accountNumber,
    subscriptionId: sub.id,
    status: sub.status,
    customerId: sub.customerId,
    customer: { customerId: sub.customerId, name: sub.name, email: sub.email, phone: sub.phone, document: sub.document },
    items: aggregate.items.filter((x) => x.status !== "CANCELED").map((x) => ({
      itemId: x.id,
      priceId: x.priceId,
      productId: x.productId,
      name: x.name,
      quantity: x.quantity,
      amount: x.unitAmount,
      type: x.type,
      status: x.status,
      price: { title: x.name, amount: x.unitAmount, recurrenceType: x.recurrenceType, recurrenceInterval: x.recurrenceInterval, trialDays: x.trialDays }
    })),
    currentCycle: cycle === null ? null : {
      cycleNumber: cycle.cycleNumber,
      status: cycle.status,
      amount: cycle.amount,
      chargeDate: cycle.dueDate,
      chargeId: cycle.chargeId,
      paymentMethod: cycle.paymentMethod
    }
  }
}

/** An outbox entry of a subscription event. */
export interface SubscriptionEventEntry {
  readonly accountId: AccountId
  readonly event: EventName
  readonly body: string
}

export const subscriptionEvent = (
  event: SubscriptionEventName,
  aggregate: BillableSubscription,
  accountNumber: string,
  at: Date
): SubscriptionEventEntry => ({
  accountId: aggregate.subscription.accountId,
  event,
  body: JSON.stringify(encodeSubscription({
    event,
    ...baseOf(aggregate, accountNumber, at),
    cancelAtPeriodEnd: aggregate.subscription.cancelAtPeriodEnd,
    canceledAt: aggregate.subscription.canceledAt,
    reason: aggregate.subscription.cancelReason,
    ...(event === "subscription.renewed" ? renewalOf(aggregate) : {})
  }))
})

/** The current cycle and the next one (the first not issued yet), as a renewal reports them. */
const renewalOf = (aggregate: BillableSubscription) => {
  const current = aggregate.cycles.find((x) => x.cycleNumber === aggregate.subscription.currentCycleNumber)
  const next = nextCycleOf(aggregate)
  return {
    currentCycleNumber: aggregate.subscription.currentCycleNumber,
    currentCycleAmount: current?.amount ?? cents(0),
    nextCycleNumber: next?.cycleNumber ?? null,
    nextCycleAmount: next?.amount ?? null,
    nextCycleChargeDate: next?.dueDate ?? null
  }
}

/** `payment.overdue` for cycle `cycleNumber` of `aggregate`. */
export const paymentOverdue = (aggregate: BillableSubscription, cycleNumber: number, accountNumber: string, at: Date): SubscriptionEventEntry => {
  const cycle = aggregate.cycles.find((x) => x.cycleNumber === cycleNumber)!
  return {
    accountId: aggregate.subscription.accountId,
    event: "payment.overdue",
    body: JSON.stringify(encodeOverdue({
      event: "payment.overdue",
      ...baseOf(aggregate, accountNumber, at),
      cycleNumber,
      chargeId: cycle.chargeId,
      amount: cycle.amount,
      dueDate: cycle.dueDate
    }))
  }
}

export const subscriptionPaymentSuccess = (
  aggregate: BillableSubscription,
  charge: Charge,
  accountNumber: string,
  at: Date
): SubscriptionEventEntry => ({
  accountId: charge.accountId,
  event: "payment.success",
  body: JSON.stringify(encodePayment({
    event: "payment.success",
    ...baseOf(aggregate, accountNumber, at),
    ...paymentFieldsOf(charge, at)
  }))
})

export const chargeCreated = (aggregate: BillableSubscription, charge: Charge, accountNumber: string, at: Date): SubscriptionEventEntry => ({
  accountId: charge.accountId,
  event: "charge.created",
  body: JSON.stringify(encodeChargeCreated({
    event: "charge.created",
    ...baseOf(aggregate, accountNumber, at),
    status: charge.status,
    chargeId: charge.id,
    amount: charge.amount,
    paymentType: charge.paymentType,
    dueDate: charge.dueDate
  }))
})

/** `payment.failed` for a subscription's charge refused at `at` for `reason`. */
export const paymentFailed = (charge: Charge, reason: string, at: Date): SubscriptionEventEntry => ({
  accountId: charge.accountId,
  event: "payment.failed",
  body: JSON.stringify(encodePaymentFailed({
    event: "payment.failed",
    timestamp: at,
    accountId: charge.accountId,
    failed: reason,
    chargeId: charge.id,
    subscriptionId: charge.subscriptionId,
    cycleNumber: charge.cycleNumber,
    amount: charge.amount,
    paymentMethod: charge.paymentType
  }))
})

/** `subscription.cycle_held` for cycle `cycleNumber` of `aggregate`, which would have billed `amount`. */
export const cycleHeld = (
  aggregate: BillableSubscription,
  held: { readonly cycleNumber: number; readonly amount: Cents; readonly previousAmount: Cents | null; readonly reason: string },
  accountNumber: string,
  at: Date
): SubscriptionEventEntry => ({
  accountId: aggregate.subscription.accountId,
  event: "subscription.cycle_held",
  body: JSON.stringify(encodeHeld({
    event: "subscription.cycle_held",
    ...baseOf(aggregate, accountNumber, at),
    ...held,
    dueDate: aggregate.cycles.find((x) => x.cycleNumber === held.cycleNumber)?.dueDate ?? ""
  }))
})

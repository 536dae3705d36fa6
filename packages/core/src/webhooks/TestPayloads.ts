/**
 * Fictional payloads of `POST /v1/users/webhooks/test`. Each is written
 * against the encoded side of the Schema its real event is encoded with
 * (`EventPayloads`), so a field added to an event does not type-check until
 * its sample has it too (`test/webhook-payloads.test.ts` compares every key
 * with a real delivery). They differ from real ones only by the quirks the
 * spec documents for test deliveries (Webhook management), so receivers can
 * tell them apart: the account key is always `accountNumber`,
 * `subscription.trial` carries a `trial` object and `subscription.canceled`
 * has `currentCycle: null`.
 */
import { cents, toJsonNumber } from "../money/Money.ts"
import type { EventName } from "../domain/Events.ts"
import type { EventPayloads } from "../events/EventPayloads.ts"
import type { SubscriptionEventName } from "../events/SubscriptionEvents.ts"

type Encoded<E extends EventName> = (typeof EventPayloads)[E]["Encoded"]

/** When the sample is made, in the forms its fields take. */
interface Moment {
  readonly timestamp: string
  readonly today: string
  readonly nextMonth: string
}

const DAY_MILLIS = 86_400_000

/** An amount as real events print it (`99.90`). */
const reais = (centavos: number) => toJsonNumber(cents(centavos))

const ids = {
  account: "acc_test000000000000",
  subscription: "sub_test000000000000",
  customer: "cus_test000000000000",
  item: "item_test000000000000",
  price: "price_test000000000000",
  product: "prod_test000000000000",
  charge: "cha_test000000000000",
  refund: "ref_test000000000000",
  infraction: "med_test000000000000",
  dispute: "dis_test000000000000",
  form: "00000000-0000-4000-8000-000000000000",
  onboarding: "00000000-0000-4000-8000-000000000001"
}

const endToEndId = "E00000000202601010000TESTE000000"
const returnIdentification = "D00000000202601010000TESTE000000"

const person = { name: "Cliente Teste", email: "cliente@example.com", phone: "+5511999999999", document: "12345678909" }

/** What a subscription is like at each of its events. */
const subscriptionStatus = {
  "subscription.created": "PENDING",
  "subscription.trial": "TRIALING",
  "subscription.activated": "ACTIVE",
  "subscription.renewed": "ACTIVE",
  "subscription.upgraded": "ACTIVE",
  "subscription.item_added": "ACTIVE",
  "subscription.item_removed": "ACTIVE",
  "subscription.downgrade_scheduled": "ACTIVE",
  "subscription.canceled": "CANCELED",
  "subscription.cancel_scheduled": "ACTIVE",
  "subscription.expired": "EXPIRED"
} as const satisfies Record<SubscriptionEventName, string>

/** The subscription base (spec: Events, Common envelope), for an account numbered `accountNumber`. */
const subscriptionBase = (at: Moment, accountNumber: string, status: Encoded<"subscription.created">["status"]) => ({
  timestamp: at.timestamp,
  accountNumber,
  subscriptionId: ids.subscription,
  status,
  customerId: ids.customer,
  customer: { customerId: ids.customer, ...person },
  items: [{
    itemId: ids.item,
    priceId: ids.price,
    productId: ids.product,
    name: "Plano Teste",
    quantity: 1,
    amount: reais(9990),
    type: "RECURRING" as const,
    status: status === "PENDING" ? "PENDING" as const : "ACTIVE" as const,
    price: { title: "Plano Teste", amount: reais(9990), recurrenceType: "MONTHLY" as const, recurrenceInterval: 1, trialDays: 7 }
  }],
  currentCycle: {
    cycleNumber: 1,
    status: status === "PENDING" ? "AWAITING_PAYMENT" as const : "PAID" as const,
    amount: reais(9990),
    chargeDate: at.today,
    chargeId: ids.charge,
    paymentMethod: "pix" as const
  }
})

const subscriptionSample = (event: SubscriptionEventName) => (at: Moment, accountNumber: string): Encoded<typeof event> => ({
  event,
  ...subscriptionBase(at, accountNumber, subscriptionStatus[event]),
  cancelAtPeriodEnd: event === "subscription.cancel_scheduled",
  canceledAt: event === "subscription.canceled" ? at.timestamp : null,
  reason: event === "subscription.canceled" ? "Cancelado pelo cliente" : null,
  ...(event === "subscription.renewed"
    ? { currentCycleNumber: 2, currentCycleAmount: reais(9990), nextCycleNumber: 3, nextCycleAmount: reais(9990), nextCycleChargeDate: at.nextMonth }
    : {})
})

const refundCommon = (at: Moment) => ({
  timestamp: at.timestamp,
  accountId: ids.account,
  refundId: ids.refund,
  chargeId: ids.charge,
  amount: reais(1000),
  customer: { customerId: ids.customer, name: person.name, email: person.email, taxId: person.document, phone: person.phone }
})

const medCommon = (at: Moment) => ({
  timestamp: at.timestamp,
  accountId: ids.account,
  infractionId: ids.infraction,
  chargeId: ids.charge,
  endToEndId,
  amount: reais(1000)
})

const onboardingCommon = (at: Moment) => ({
  timestamp: at.timestamp,
  accountId: ids.account,
  formId: ids.form,
  onboardingId: ids.onboarding,
  documentNumber: person.document
})

const stage = (event: Encoded<"onboarding.proposal">["event"]) => (at: Moment): Encoded<typeof event> => ({
  event,
  ...onboardingCommon(at),
  status: "APPROVED",
  reason: null
})

const subAccount = { account: "123456", branch: "0001", documentNumber: person.document, ispb: "99999999", name: person.name }

/** The samples of some events, each shaped as its real delivery (the account key still `accountId` where the real one has it). */
type Samples<E extends EventName> = { readonly [K in E]: (at: Moment, accountNumber: string) => Encoded<K> }

/** Payments and charges. */
const paymentSamples: Samples<"payment.success" | "payment.overdue" | "payment.failed" | "charge.created" | "charge.expired"> = {
  "payment.success": (at) => ({
    event: "payment.success",
    timestamp: at.timestamp,
    accountId: ids.account,
    chargeId: ids.charge,
    amount: reais(1000),
    paymentMethod: "PIX",
    paymentId: endToEndId,
    paidAt: at.timestamp,
    metadata: null,
    payer: { name: "Pagador Teste", taxId: person.document, bank: "00000000", account: "12345", branch: "0001", accountType: "CACC" }
  }),
  "payment.overdue": (at, accountNumber) => ({
    event: "payment.overdue",
    ...subscriptionBase(at, accountNumber, "DEFAULT"),
    cycleNumber: 1,
    chargeId: ids.charge,
    amount: reais(9990),
    dueDate: at.today
  }),
  "payment.failed": (at) => ({
    event: "payment.failed",
    timestamp: at.timestamp,
    accountId: ids.account,
    failed: "card_declined",
    chargeId: ids.charge,
    subscriptionId: ids.subscription,
    cycleNumber: 2,
    amount: reais(9990),
    paymentMethod: "CREDIT_CARD"
  }),
  "charge.created": (at, accountNumber) => ({
    event: "charge.created",
    ...subscriptionBase(at, accountNumber, "ACTIVE"),
    status: "PENDING",
    chargeId: ids.charge,
    amount: reais(9990),
    paymentType: "PIX",
    dueDate: at.nextMonth
  }),
  "charge.expired": (at) => ({
    event: "charge.expired",
    timestamp: at.timestamp,
    accountId: ids.account,
    chargeId: ids.charge,
    status: "EXPIRED",
    amount: reais(1000),
    paymentType: "PIX",
    expiresAt: at.timestamp,
    metadata: null
  })
}

/** Subscriptions: the catalog's and the held cycle. */
const subscriptionSamples: Samples<SubscriptionEventName | "subscription.cycle_held"> = {
  "subscription.created": subscriptionSample("subscription.created"),
  "subscription.trial": subscriptionSample("subscription.trial"),
  "subscription.activated": subscriptionSample("subscription.activated"),
  "subscription.renewed": subscriptionSample("subscription.renewed"),
  "subscription.upgraded": subscriptionSample("subscription.upgraded"),
  "subscription.item_added": subscriptionSample("subscription.item_added"),
  "subscription.item_removed": subscriptionSample("subscription.item_removed"),
  "subscription.downgrade_scheduled": subscriptionSample("subscription.downgrade_scheduled"),
  "subscription.canceled": subscriptionSample("subscription.canceled"),
  "subscription.cancel_scheduled": subscriptionSample("subscription.cancel_scheduled"),
  "subscription.expired": subscriptionSample("subscription.expired"),
  "subscription.cycle_held": (at, accountNumber) => ({
    event: "subscription.cycle_held",
    ...subscriptionBase(at, accountNumber, "ACTIVE"),
    cycleNumber: 2,
    amount: reais(199000),
    previousAmount: reais(9990),
    dueDate: at.nextMonth,
    reason: "amount 199000 is more than 10 times the last cycle's 9990"
  })
}

/** Refunds. */
const refundSamples: Samples<"refund.requested" | "refund.confirmed" | "refund.failed"> = {
  "refund.requested": (at) => ({
    event: "refund.requested",
    ...refundCommon(at),
    status: "PROCESSING",
    endToEndId,
    reason: "CUSTOMER_REQUEST"
  }),
  "refund.confirmed": (at) => ({
    event: "refund.confirmed",
    ...refundCommon(at),
    returnIdentification,
    status: "CONFIRMED"
  }),
  "refund.failed": (at) => ({
    event: "refund.failed",
    ...refundCommon(at),
    returnIdentification: null,
    status: "ERROR",
    error: "Devolução recusada pelo banco do pagador"
  })
}

/** Sub-account opening, and its account_approved. */
const onboardingSamples: Samples<"onboarding.create" | "onboarding.backgroundcheck" | "onboarding.documentscopy" | "onboarding.proposal" | "account_approved"> = {
  "onboarding.create": (at) => ({
    event: "onboarding.create",
    ...onboardingCommon(at),
    status: "CONFIRMED",
    data: subAccount
  }),
  "onboarding.backgroundcheck": stage("onboarding.backgroundcheck"),
  "onboarding.documentscopy": stage("onboarding.documentscopy"),
  "onboarding.proposal": stage("onboarding.proposal"),
  "account_approved": (at) => ({
    event: "account_approved",
    status: "CONFIRMED",
    account: subAccount,
    onboardingId: ids.onboarding,
    documentNumber: person.document,
    formId: ids.form,
    createdAt: at.timestamp
  })
}

/** MED, the Pix special return mechanism. */
const medSamples: Samples<"med.infraction.updated" | "med.balance.blocked" | "med.balance.unblocked" | "med.refund.opened" | "med.refund.closed"> = {
  "med.infraction.updated": (at) => ({ event: "med.infraction.updated", ...medCommon(at), status: "OPEN", reason: "FRAUD" }),
  "med.balance.blocked": (at) => ({ event: "med.balance.blocked", ...medCommon(at), blockedAmount: reais(1000) }),
  "med.balance.unblocked": (at) => ({ event: "med.balance.unblocked", ...medCommon(at), blockedAmount: reais(1000) }),
  "med.refund.opened": (at) => ({
    event: "med.refund.opened",
    ...medCommon(at),
    refundId: ids.refund,
    status: "PROCESSING",
    returnIdentification: null
  }),
  "med.refund.closed": (at) => ({
    event: "med.refund.closed",
    ...medCommon(at),
    refundId: ids.refund,
    status: "CONFIRMED",
    returnIdentification
  })
}

/** Card disputes. */
const disputeSamples: Samples<"charge.dispute.updated"> = {
  "charge.dispute.updated": (at) => ({
    event: "charge.dispute.updated",
    timestamp: at.timestamp,
    accountId: ids.account,
    disputeId: ids.dispute,
    chargeId: ids.charge,
    amount: reais(1000),
    reason: "FRAUD",
    status: "OPEN",
    chargeStatus: "DISPUTE",
    refundId: null
  })
}

/** Every event's sample: the type checker refuses a catalog event left without one. */
const samples: Samples<EventName> = { ...paymentSamples, ...subscriptionSamples, ...refundSamples, ...onboardingSamples, ...medSamples, ...disputeSamples }

/**
 * The test body of `event` for the account numbered `accountNumber` at `now`:
 * its real shape with the spec's three quirks applied.
 */
export const samplePayload = (event: EventName, accountNumber: string, now: Date): Record<string, unknown> => {
  const at: Moment = {
    timestamp: now.toISOString(),
    today: now.toISOString().slice(0, 10),
    nextMonth: new Date(now.getTime() + 30 * DAY_MILLIS).toISOString().slice(0, 10)
  }
  // Quirk 3: `accountNumber` where a real body has `accountId`, in the same place.
  const body: Record<string, unknown> = Object.fromEntries(
    Object.entries(samples[event](at, accountNumber)).map(([key, value]) => key === "accountId" ? ["accountNumber", accountNumber] : [key, value])
  )
  // Quirk 1: a trial's length, which real deliveries carry only in `items[].price.trialDays`.
  if (event === "subscription.trial") return { ...body, trial: { days: 7, endsAt: new Date(now.getTime() + 7 * DAY_MILLIS).toISOString() } }
  // Quirk 2: no current cycle on a cancel, where real deliveries keep it.
  if (event === "subscription.canceled") return { ...body, currentCycle: null }
  return body
}

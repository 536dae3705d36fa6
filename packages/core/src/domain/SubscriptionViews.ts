/**
 * The subscription as the HTTP API shows it (spec: Resources, Subscription):
 * every field of the spec's table, built from the entities' field schemas.
 * Amounts are `ReaisJson`; billing cycles show `paymentMethod` in the input
 * form (spec: General rule 4).
 */
import { Schema } from "effect"
import { type Cents, cents, toReais } from "../money/Money.ts"
import { percentFromHundredths } from "../money/Rounding.ts"
import { type Charge, Charge as ChargeSchema, OPEN_STATUSES } from "./Charge.ts"
import { DiscountValueJson, discountValueOut } from "./Coupon.ts"
import { AddressView, type CustomerAddress } from "./Customer.ts"
import {
  BillingCycle,
  DueDateChange,
  Invoice,
  InvoiceLine,
  type Subscription,
  Subscription as SubscriptionSchema,
  PaymentMethodChange,
  PlanChange,
  type SubscriptionAggregate,
  SubscriptionItem
} from "./Subscription.ts"
import { Instant, ReaisJson } from "./Wire.ts"
import { SCHEDULED_CYCLE_STATUSES } from "../rules/CycleTransitions.ts"
import { nextCycleOf } from "../rules/NextCycle.ts"
import { FINISHED_SUBSCRIPTION_STATUSES } from "../rules/SubscriptionStatuses.ts"

const s = SubscriptionSchema.fields
const i = SubscriptionItem.fields
const c = BillingCycle.fields
const inv = Invoice.fields
const ch = ChargeSchema.fields
const NullableInstant = Schema.NullOr(Instant)

/** The method of a subscription in the output form; Pix Automático is its own (spec: Subscription, `paymentType`). */
export const SubscriptionPaymentType = Schema.Literals(["PIX", "BOLETO", "CREDIT_CARD", "PIX_AUTOMATICO"])
export const subscriptionPaymentType = {
  pix: "PIX",
  boleto: "BOLETO",
  creditcard: "CREDIT_CARD",
  pix_automatico: "PIX_AUTOMATICO"
} as const satisfies Record<Subscription["paymentMethod"], typeof SubscriptionPaymentType.Type>

const SplitRuleView = Schema.Struct({ accountNumber: Schema.String, type: Schema.Literals(["fixed", "percentage"]), amount: Schema.Number })

const ItemView = Schema.Struct({
  itemId: i.id,
  name: i.name,
  amount: ReaisJson,
  quantity: i.quantity,
  discount: ReaisJson,
  type: i.type,
  status: i.status,
  origin: i.origin,
  priceId: i.priceId,
  productId: i.productId,
  createdAt: Instant,
  upgradedFromItemId: i.upgradedFromItemId,
  upgradedToItemId: i.upgradedToItemId,
  price: Schema.Struct({
    title: i.name,
    amount: ReaisJson,
    statementDescriptor: i.statementDescriptor,
    recurrenceType: i.recurrenceType,
    recurrenceInterval: i.recurrenceInterval,
    trialDays: i.trialDays,
    productId: i.productId
  }),
  product: Schema.Struct({ name: i.productName, type: i.productType })
})

const LineView = Schema.Struct({
  name: InvoiceLine.fields.name,
  productName: InvoiceLine.fields.productName,
  planName: InvoiceLine.fields.planName,
  type: InvoiceLine.fields.type,
  origin: InvoiceLine.fields.origin,
  netAmount: ReaisJson,
  quantity: InvoiceLine.fields.quantity,
  priceId: InvoiceLine.fields.priceId,
  productId: InvoiceLine.fields.productId
})

const InvoiceView = Schema.Struct({
  invoiceId: inv.id,
  invoiceNumber: inv.invoiceNumber,
  status: inv.status,
  paymentType: inv.paymentType,
  dueDate: inv.dueDate,
  paidAt: NullableInstant,
  canceledAt: NullableInstant,
  discount: ReaisJson,
  summary: Schema.Struct({ discount: ReaisJson, total: ReaisJson }),
  lineItems: Schema.Array(LineView),
  charge: Schema.NullOr(Schema.Struct({
    chargeId: ch.id,
    paymentType: ch.paymentType,
    payer: Schema.NullOr(Schema.Struct({ name: Schema.String, document: Schema.String })),
    manualSettlement: Schema.Null
  }))
})

const CycleChargeView = Schema.Struct({
  type: Schema.Literal("CYCLE"),
  paymentType: ch.paymentType,
  status: ch.status,
  amount: ReaisJson,
  grossAmount: ReaisJson,
  netAmount: ReaisJson,
  fees: Schema.Struct({ total: ReaisJson, fixed: ReaisJson, percentageRate: Schema.Number }),
  paidAt: NullableInstant,
  createdAt: Instant
})

const BillingCycleView = Schema.Struct({
  cycleNumber: c.cycleNumber,
  cycle: Schema.Struct({
    status: c.status,
    amount: ReaisJson,
    chargeDate: c.dueDate,
    chargeId: c.chargeId,
    paymentMethod: c.paymentMethod,
    discount: ReaisJson,
    splitRules: Schema.NullOr(Schema.Array(SplitRuleView)),
    rulerHistory: c.rulerHistory,
    manualRetryCount: c.manualRetryCount,
    lastManualRetryAt: NullableInstant,
    pixAutoScheduledEndToEndId: c.pixAutoScheduledEndToEndId,
    /** Ours: card attempts made by the billing run, the day of the next one (or of the end of dunning), when it went overdue, why it is held for review, when the merchant approved it. */
    attemptCount: c.attemptCount,
    nextAttemptDate: c.nextAttemptOn,
    overdueAt: NullableInstant,
    heldReason: c.heldReason,
    approvedAt: NullableInstant
  }),
  credit: ReaisJson,
  /** Only for a cycle not issued yet. */
  expectedIssueDate: Schema.NullOr(c.issueDate),
  invoices: Schema.Array(InvoiceView),
  charge: Schema.NullOr(CycleChargeView)
})

const PlanChangeView = Schema.Struct({
  ...PlanChange.fields,
  currentAmount: ReaisJson,
  newAmount: ReaisJson,
  prorataAmount: ReaisJson
})
const DueDateChangeView = Schema.Struct({ ...DueDateChange.fields, prorataAmount: ReaisJson })

/** `GET /v1/subscriptions/{subscriptionId}`. */
export const SubscriptionDetailView = Schema.Struct({
  subscriptionId: s.id,
  customerId: s.customerId,
  productId: i.productId,
  priceId: i.priceId,
  checkoutId: s.checkoutId,
  cartId: s.cartId,
  status: s.status,
  interval: s.interval,
  intervalCount: s.intervalCount,
  billingDay: s.billingDay,
  paymentType: SubscriptionPaymentType,
  allowedPaymentMethods: s.allowedPaymentMethods,
  passFeesToCustomer: s.passFeesToCustomer,
  checkoutUrl: Schema.NullOr(Schema.String),
  name: s.name,
  email: s.email,
  document: s.document,
  taxId: s.document,
  additionalEmails: s.additionalEmails,
  currentCycleNumber: s.currentCycleNumber,
  currentCycleAmount: ReaisJson,
  nextCycleAmount: Schema.NullOr(ReaisJson),
  nextCycleChargeDate: Schema.NullOr(Schema.String),
  trialEndsOn: s.trialEndsOn,
  pixRecurrencyId: s.pixRecurrencyId,
  pixRecurrenceStatus: s.pixRecurrenceStatus,
  cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  canceledAt: NullableInstant,
  cancelReason: s.cancelReason,
  splitRules: Schema.NullOr(Schema.Array(SplitRuleView)),
  boletoInstructions: s.boletoInstructions,
  pixInstructions: s.pixInstructions,
  issueDaysBeforeDue: s.issueDaysBeforeDue,
  expirationAfterDueDate: s.expirationAfterDueDate,
  allowConcurrentCycles: Schema.Boolean,
  nfConfigId: s.nfConfigId,
  createdAt: Instant,
  updatedAt: Instant,
  notificationEmails: Schema.Struct({ primary: s.email, additional: s.additionalEmails }),
  primaryItemId: s.primaryItemId,
  cancellation: Schema.Struct({ immediate: Schema.Boolean, effectiveAt: Schema.String }),
  card: s.card,
  customer: Schema.Struct({
    customerId: s.customerId,
    name: s.name,
    email: s.email,
    phone: s.phone,
    document: s.document,
    ltv: ReaisJson,
    additionalEmails: s.additionalEmails
  }),
  customerAddress: Schema.NullOr(AddressView),
  coupon: Schema.NullOr(Schema.Struct({
    code: Schema.String,
    discountType: Schema.Literals(["PERCENTAGE", "FIXED", "EXTRA_PERIOD"]),
    discountValue: DiscountValueJson,
    extraPeriodUnit: Schema.NullOr(Schema.Literals(["DAYS", "MONTHS"])),
    maxCycles: Schema.NullOr(Schema.Int)
  })),
  items: Schema.Array(ItemView),
  billingCycles: Schema.Array(BillingCycleView),
  planChanges: Schema.Array(PlanChangeView),
  paymentMethodChanges: Schema.Array(PaymentMethodChange),
  dueDateChanges: Schema.Array(DueDateChangeView)
}).annotate({ identifier: "Subscription" })
export type SubscriptionDetailView = typeof SubscriptionDetailView.Type

/** An entry of `GET /v1/subscriptions` (the provider's list, with the spec's names). */
export const SubscriptionListItemView = Schema.Struct({
  subscriptionId: s.id,
  status: s.status,
  paymentType: SubscriptionPaymentType,
  paymentMethod: SubscriptionPaymentType,
  interval: s.interval,
  amount: ReaisJson,
  customerId: s.customerId,
  customer: Schema.Struct({ name: s.name, email: s.email, document: s.document }),
  productId: Schema.NullOr(i.productId),
  priceId: Schema.NullOr(i.priceId),
  checkoutId: s.checkoutId,
  currentCycleNumber: s.currentCycleNumber,
  currentCycleAmount: ReaisJson,
  nextCycleChargeDate: Schema.NullOr(Schema.String),
  lastCharge: Schema.NullOr(Schema.Struct({ netAmount: ReaisJson, status: ch.status })),
  createdAt: Instant
}).annotate({ identifier: "SubscriptionListItem" })

/** What the detail view needs beyond the aggregate. */
export interface SubscriptionViewContext {
  readonly charges: ReadonlyArray<Charge>
  /** What the customer has paid the account. */
  readonly ltv: Cents
  readonly customerAddress: CustomerAddress | null
  /** Where the hosted page that finishes a first payment lives. */
  readonly origin: string
  /** Today, `YYYY-MM-DD`. */
  readonly today: string
}

const splitRulesView = (rules: Subscription["splitRules"]) =>
  rules === null ? null : rules.map((r) => ({
    accountNumber: r.accountNumber,
    type: r.type,
    amount: r.type === "fixed" ? toReais(cents(r.value)) : percentFromHundredths(r.value)
  }))

const cycleChargeView = (charge: Charge | undefined): typeof CycleChargeView.Type | null =>
  charge === undefined ? null : {
    type: "CYCLE",
    paymentType: charge.paymentType,
    status: charge.status,
    amount: charge.amount,
    grossAmount: charge.amount,
    netAmount: charge.net,
    fees: { total: charge.fee, fixed: charge.feeFixed, percentageRate: percentFromHundredths(charge.feePercentHundredths) },
    paidAt: charge.paidAt,
    createdAt: charge.createdAt
  }

const invoiceView = (invoice: Invoice, charge: Charge | undefined): typeof InvoiceView.Type => ({
  invoiceId: invoice.id,
  invoiceNumber: invoice.invoiceNumber,
  status: invoice.status,
  paymentType: invoice.paymentType,
  dueDate: invoice.dueDate,
  paidAt: invoice.paidAt,
  canceledAt: invoice.canceledAt,
  discount: invoice.discount,
  summary: { discount: invoice.discount, total: invoice.total },
  lineItems: invoice.lines.map((l) => ({ ...l, netAmount: cents(l.netAmount) })),
  charge: charge === undefined ? null : {
    chargeId: charge.id,
    paymentType: charge.paymentType,
    payer: charge.payer === null ? null : { name: charge.payer.name, document: charge.payer.taxId },
    manualSettlement: null
  }
})

type DetailView = SubscriptionDetailView

/** An item as the detail shows it, with its price and product. */
const itemView = (x: SubscriptionAggregate["items"][number]): DetailView["items"][number] => ({
  itemId: x.id,
  name: x.name,
  amount: x.unitAmount,
  quantity: x.quantity,
  discount: cents(0),
  type: x.type,
  status: x.status,
  origin: x.origin,
  priceId: x.priceId,
  productId: x.productId,
  createdAt: x.createdAt,
  upgradedFromItemId: x.upgradedFromItemId,
  upgradedToItemId: x.upgradedToItemId,
  price: {
    title: x.name,
    amount: x.unitAmount,
    statementDescriptor: x.statementDescriptor,
    recurrenceType: x.recurrenceType,
    recurrenceInterval: x.recurrenceInterval,
    trialDays: x.trialDays,
    productId: x.productId
  },
  product: { name: x.productName, type: x.productType }
})

/** A billing cycle as the detail shows it: the cycle, its invoices and its charge (`chargeOf` finds a charge read with the subscription). */
const billingCycleView = (
  aggregate: SubscriptionAggregate,
  cycle: SubscriptionAggregate["cycles"][number],
  chargeOf: (id: string | null) => Charge | undefined
): DetailView["billingCycles"][number] => ({
  cycleNumber: cycle.cycleNumber,
  cycle: {
    status: cycle.status,
    amount: cycle.amount,
    chargeDate: cycle.dueDate,
    chargeId: cycle.chargeId,
    paymentMethod: cycle.paymentMethod,
    discount: cycle.discount,
    splitRules: splitRulesView(cycle.splitRules),
    rulerHistory: cycle.rulerHistory,
    manualRetryCount: cycle.manualRetryCount,
    lastManualRetryAt: cycle.lastManualRetryAt,
    pixAutoScheduledEndToEndId: cycle.pixAutoScheduledEndToEndId,
    attemptCount: cycle.attemptCount,
    nextAttemptDate: cycle.nextAttemptOn,
    overdueAt: cycle.overdueAt,
    heldReason: cycle.heldReason,
    approvedAt: cycle.approvedAt
  },
  credit: cycle.credit,
  expectedIssueDate: SCHEDULED_CYCLE_STATUSES.includes(cycle.status) ? cycle.issueDate : null,
  invoices: aggregate.invoices.filter((x) => x.cycleNumber === cycle.cycleNumber).map((x) => invoiceView(x, chargeOf(x.chargeId))),
  charge: cycleChargeView(chargeOf(cycle.chargeId))
})

const couponView = (coupon: NonNullable<Subscription["coupon"]>): NonNullable<DetailView["coupon"]> => ({
  code: coupon.code,
  discountType: coupon.discountType,
  discountValue: discountValueOut(coupon),
  extraPeriodUnit: coupon.extraPeriodUnit,
  maxCycles: coupon.maxCycles
})

const customerView = (sub: Subscription, ltv: SubscriptionViewContext["ltv"]): DetailView["customer"] => ({
  customerId: sub.customerId,
  name: sub.name,
  email: sub.email,
  phone: sub.phone,
  document: sub.document,
  ltv: ltv,
  additionalEmails: sub.additionalEmails
})

/** The detail view of `aggregate`. */
export const toSubscriptionDetailView = (aggregate: SubscriptionAggregate, context: SubscriptionViewContext): SubscriptionDetailView => {
  const sub = aggregate.subscription
  const charge = (id: string | null) => (id === null ? undefined : context.charges.find((x) => x.id === id))
  const primary = aggregate.items.find((x) => x.id === sub.primaryItemId) ?? aggregate.items[0]!
  const current = aggregate.cycles.find((x) => x.cycleNumber === sub.currentCycleNumber)
  const next = nextCycleOf(aggregate)
  const firstCharge = charge(aggregate.cycles[0]?.chargeId ?? null)
  const unpaidFirst = sub.status === "PENDING" && firstCharge !== undefined && OPEN_STATUSES.includes(firstCharge.status)
  const finished = FINISHED_SUBSCRIPTION_STATUSES.includes(sub.status)
  return {
    subscriptionId: sub.id,
    customerId: sub.customerId,
    productId: primary.productId,
    priceId: primary.priceId,
    checkoutId: sub.checkoutId,
    cartId: sub.cartId,
    status: sub.status,
    interval: sub.interval,
    intervalCount: sub.intervalCount,
    billingDay: sub.billingDay,
    paymentType: subscriptionPaymentType[sub.paymentMethod],
    allowedPaymentMethods: sub.allowedPaymentMethods,
    passFeesToCustomer: sub.passFeesToCustomer,
    checkoutUrl: unpaidFirst ? `${context.origin}/pay/${firstCharge.id}` : null,
    name: sub.name,
    email: sub.email,
    document: sub.document,
    taxId: sub.document,
    additionalEmails: sub.additionalEmails,
    currentCycleNumber: sub.currentCycleNumber,
    currentCycleAmount: current?.amount ?? cents(0),
    nextCycleAmount: finished || next === null ? null : next.amount,
    nextCycleChargeDate: finished || next === null ? null : next.dueDate,
    trialEndsOn: sub.trialEndsOn,
    pixRecurrencyId: sub.pixRecurrencyId,
    pixRecurrenceStatus: sub.pixRecurrenceStatus,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    canceledAt: sub.canceledAt,
    cancelReason: sub.cancelReason,
    splitRules: splitRulesView(sub.splitRules),
    boletoInstructions: sub.boletoInstructions,
    pixInstructions: sub.pixInstructions,
    issueDaysBeforeDue: sub.issueDaysBeforeDue,
    expirationAfterDueDate: sub.expirationAfterDueDate,
    allowConcurrentCycles: false,
    nfConfigId: sub.nfConfigId,
    createdAt: sub.createdAt,
    updatedAt: sub.updatedAt,
    notificationEmails: { primary: sub.email, additional: sub.additionalEmails },
    primaryItemId: sub.primaryItemId,
    cancellation: sub.cancelAtPeriodEnd && next !== null
      ? { immediate: false, effectiveAt: next.dueDate }
      : { immediate: true, effectiveAt: context.today },
    card: sub.card,
    customer: customerView(sub, context.ltv),
    customerAddress: context.customerAddress,
    coupon: sub.coupon === null ? null : couponView(sub.coupon),
    items: aggregate.items.map(itemView),
    billingCycles: aggregate.cycles.map((cycle) => billingCycleView(aggregate, cycle, charge)),
    planChanges: aggregate.changes.filter((x) => x.kind === "PLAN"),
    paymentMethodChanges: aggregate.changes.filter((x) => x.kind === "PAYMENT_METHOD"),
    dueDateChanges: aggregate.changes.filter((x) => x.kind === "DUE_DATE").map((x) => ({ ...x, prorataAmount: cents(x.prorataAmount) }))
  }
}

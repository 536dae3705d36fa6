/**
 * A subscription (`sub_`) and what it is made of: its items (`item_`), one
 * billing cycle per period, and the invoice (`inv_`) of each issued cycle
 * with its line items. The one definition of each: storage rows, the detail
 * view and the event payloads derive from these structs.
 */
import { Schema } from "effect"
import { Cents } from "../money/Money.ts"
import { BoletoInstructionsInput, ChargeCard, PaymentMethodInput, PaymentType, PixInstructions } from "./Charge.ts"
import { Coupon } from "./Coupon.ts"
import { ErrorFields } from "./Errors.ts"
import { PriceRecurrence, ProductType } from "./Product.ts"
import { Instant } from "./Wire.ts"

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

/** A discount of `discounts[]`, kept on the subscription for every cycle it covers (see `rules/Discounts.ts`). */
export const SubscriptionDiscount = Schema.Struct({
  type: Schema.Literals(["percentage", "fixed"]),
  /** Hundredths of a percent, or centavos. */
  value: Schema.Int,
  paymentMethod: Schema.optionalKey(Schema.String),
  fromCycle: Schema.optionalKey(Schema.Int),
  toCycle: Schema.optionalKey(Schema.NullOr(Schema.Int)),
  durationMonths: Schema.optionalKey(Schema.Int)
})
export type SubscriptionDiscount = typeof SubscriptionDiscount.Type

/** The coupon a subscription was bought with, as it was then: later edits of the coupon do not reprice it. */
export const SubscriptionCoupon = Schema.Struct({
  couponId: Schema.String,
  code: Schema.String,
  discountType: Coupon.fields.discountType,
  discountValue: Coupon.fields.discountValue,
  extraPeriodUnit: Coupon.fields.extraPeriodUnit,
  /** Cycles the discount applies to, from the first; null for all. */
  maxCycles: Coupon.fields.maxCycles,
  maxDiscount: Coupon.fields.maxDiscount
})
export type SubscriptionCoupon = typeof SubscriptionCoupon.Type

/** A receiver of the split of every cycle, as requested. */
export const SubscriptionSplitRule = Schema.Struct({
  accountNumber: Schema.String,
  type: Schema.Literals(["fixed", "percentage"]),
  /** Centavos for `fixed`, hundredths of a percent for `percentage`. */
  value: Schema.Int
})
export type SubscriptionSplitRule = typeof SubscriptionSplitRule.Type

const NullableString = Schema.NullOr(Schema.String)

/** The card later cycles are charged to, as much of it as may be kept. */
export const SubscriptionCard = Schema.Struct({
  brand: ChargeCard.fields.brand,
  firstSix: ChargeCard.fields.firstSix,
  lastFour: ChargeCard.fields.lastFour
})

/** The subscription record. Dates without time are `YYYY-MM-DD` in America/Sao_Paulo. */
export const Subscription = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  masterAccountId: Schema.String,
  customerId: Schema.String,
  /** The checkout link or session that originated it. */
  checkoutId: NullableString,
  /** Groups the subscriptions of one purchase. */
  cartId: NullableString,
  status: SubscriptionStatus,
  interval: Interval,
  intervalCount: Schema.Int,
  /** Day of the month the charge is due (monthly-based intervals); the month's last day when shorter. */
  billingDay: Schema.Int,
  paymentMethod: PaymentMethodInput,
  /** The tokenized card (`pm_`) later cycles are charged to. */
  paymentMethodId: NullableString,
  card: Schema.NullOr(SubscriptionCard),
  allowedPaymentMethods: Schema.Array(PaymentMethodInput),
  passFeesToCustomer: Schema.Boolean,
  name: Schema.String,
  email: Schema.String,
  document: Schema.String,
  phone: NullableString,
  additionalEmails: Schema.Array(Schema.String),
  currentCycleNumber: Schema.Int,
  cancelAtPeriodEnd: Schema.Boolean,
  canceledAt: Schema.NullOr(Schema.Date),
  cancelReason: NullableString,
  splitRules: Schema.NullOr(Schema.Array(SubscriptionSplitRule)),
  boletoInstructions: Schema.NullOr(BoletoInstructionsInput),
  pixInstructions: Schema.NullOr(PixInstructions),
  issueDaysBeforeDue: Schema.Int,
  expirationAfterDueDate: Schema.Int,
  nfConfigId: NullableString,
  coupon: Schema.NullOr(SubscriptionCoupon),
  discounts: Schema.Array(SubscriptionDiscount),
  /** Due date of cycle `anchorCycle`; every later cycle's due date follows from it (`rules/CycleSchedule.ts`). */
  anchorDate: Schema.String,
  anchorCycle: Schema.Int,
  /** Last day of the free period (trial or `EXTRA_PERIOD` coupon), or null. */
  trialEndsOn: NullableString,
  primaryItemId: Schema.String,
  /** Pix Automático: the recurrence the payer's bank is asked to authorize, and where that stands. */
  pixRecurrencyId: NullableString,
  pixRecurrenceStatus: Schema.NullOr(Schema.Literals(["PENDING", "AUTHORIZED", "REJECTED"])),
  archivedAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "SubscriptionRecord" })
export type Subscription = typeof Subscription.Type

/** An item of a subscription: a price bought in some quantity. */
export const SubscriptionItem = Schema.Struct({
  id: Schema.String,
  subscriptionId: Schema.String,
  priceId: Schema.String,
  productId: Schema.String,
  /** The price's title. */
  name: Schema.String,
  productName: Schema.String,
  productType: ProductType,
  statementDescriptor: NullableString,
  unitAmount: Cents,
  quantity: Schema.Int,
  type: ProductType,
  recurrenceType: PriceRecurrence,
  recurrenceInterval: Schema.Int,
  trialDays: Schema.Int,
  status: ItemStatus,
  origin: ItemOrigin,
  upgradedFromItemId: NullableString,
  upgradedToItemId: NullableString,
  /** The prorata charge whose payment activates the item (an upgrade or add-on paid by Pix or boleto). */
  chargeId: NullableString,
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "SubscriptionItemRecord" })
export type SubscriptionItem = typeof SubscriptionItem.Type

/** A collection message sent for a cycle (the dunning ruler). */
export const RulerEntry = Schema.Struct({ kind: Schema.String, channel: Schema.String, sentAt: Schema.String })

/** One period of a subscription. Unique per (subscription, number) in the database. */
export const BillingCycle = Schema.Struct({
  subscriptionId: Schema.String,
  cycleNumber: Schema.Int,
  status: CycleStatus,
  /** What the cycle bills: its invoice's total. */
  amount: Cents,
  discount: Cents,
  /** Plan-change credit that reduces the cycle. */
  credit: Cents,
  /** A prorata carried into the cycle (a due day moved later: positive; earlier: negative, a credit). */
  adjustment: Schema.Int,
  periodStart: Schema.String,
  dueDate: Schema.String,
  /** The day its charge is issued (`issueDaysBeforeDue` before the due date). */
  issueDate: Schema.String,
  paymentMethod: PaymentMethodInput,
  chargeId: NullableString,
  splitRules: Schema.NullOr(Schema.Array(SubscriptionSplitRule)),
  rulerHistory: Schema.Array(RulerEntry),
  manualRetryCount: Schema.Int,
  lastManualRetryAt: Schema.NullOr(Schema.Date),
  pixAutoScheduledEndToEndId: NullableString,
  /** Card attempts the billing run made (the first on the due date, then the retry schedule); 0 for a checkout's charge. */
  attemptCount: Schema.Int,
  /** The day of the next card attempt (`RETRY_SCHEDULED`), or the end of dunning (`DUNNING`). */
  nextAttemptOn: NullableString,
  /** When `payment.overdue` was emitted for it. */
  overdueAt: Schema.NullOr(Schema.Date),
  /** Why the billing run parked it for review instead of billing it (safety bounds), or null. */
  heldReason: NullableString,
  /** When the merchant approved it after a hold (`POST /v1/subscriptions/{id}/cycles/{n}/approve`): billed as it is. */
  approvedAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "BillingCycleRecord" })
export type BillingCycle = typeof BillingCycle.Type

/** Kinds of invoice lines: a price, a prorata of a partial period or of a plan change, a credit. */
export const InvoiceLineType = Schema.Literals(["RECURRING", "ONE_TIME", "PRORATA", "PRORATA_UPGRADE", "CREDIT"])

/** A line of an invoice. A credit is negative; the lines less the invoice's discount are its total. */
export const InvoiceLine = Schema.Struct({
  name: Schema.String,
  productName: NullableString,
  planName: NullableString,
  type: InvoiceLineType,
  origin: Schema.String,
  unitAmount: Schema.Int,
  quantity: Schema.Int,
  netAmount: Schema.Int,
  priceId: NullableString,
  productId: NullableString
})
export type InvoiceLine = typeof InvoiceLine.Type

/** The invoice of an issued cycle. */
export const Invoice = Schema.Struct({
  id: Schema.String,
  subscriptionId: Schema.String,
  cycleNumber: Schema.Int,
  /** Sequential per account. */
  invoiceNumber: Schema.Int,
  status: InvoiceStatus,
  paymentType: PaymentType,
  dueDate: Schema.String,
  paidAt: Schema.NullOr(Schema.Date),
  canceledAt: Schema.NullOr(Schema.Date),
  discount: Cents,
  total: Cents,
  chargeId: NullableString,
  lines: Schema.Array(InvoiceLine),
  createdAt: Schema.Date
}).annotate({ identifier: "InvoiceRecord" })
export type Invoice = typeof Invoice.Type

/** A change of plan: an item upgraded, downgraded, added or removed. Amounts are one cycle's, before discounts. */
export const PlanChange = Schema.Struct({
  kind: Schema.Literal("PLAN"),
  type: Schema.Literals(["UPGRADE", "DOWNGRADE", "ADD_ITEM", "REMOVE_ITEM"]),
  itemId: NullableString,
  newItemId: NullableString,
  fromPriceId: NullableString,
  toPriceId: NullableString,
  fromQuantity: Schema.NullOr(Schema.Int),
  toQuantity: Schema.NullOr(Schema.Int),
  currentAmount: Cents,
  newAmount: Cents,
  prorataAmount: Cents,
  chargeId: NullableString,
  /** When it takes effect: now, once paid, or the next cycle's due date. */
  effectiveAt: Schema.String,
  at: Instant
})

export type PlanChange = typeof PlanChange.Type

/** A change of the payment method of later cycles. */
export const PaymentMethodChange = Schema.Struct({
  kind: Schema.Literal("PAYMENT_METHOD"),
  from: PaymentMethodInput,
  to: PaymentMethodInput,
  at: Instant
})

/** A change of the billing day, and the prorata it generated on the next cycle (negative: a credit). */
export const DueDateChange = Schema.Struct({
  kind: Schema.Literal("DUE_DATE"),
  fromDay: Schema.Int,
  toDay: Schema.Int,
  previousDueDate: Schema.String,
  newDueDate: Schema.String,
  prorataAmount: Schema.Int,
  at: Instant
})

/** An entry of a subscription's histories. */
export const SubscriptionChange = Schema.Union([PlanChange, PaymentMethodChange, DueDateChange])
export type SubscriptionChange = typeof SubscriptionChange.Type

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

/** A subscription with everything it is made of, cycles in number order. */
export interface SubscriptionAggregate {
  readonly subscription: Subscription
  readonly items: ReadonlyArray<SubscriptionItem>
  readonly cycles: ReadonlyArray<BillingCycle>
  readonly invoices: ReadonlyArray<Invoice>
  /** Its histories, oldest first. */
  readonly changes: ReadonlyArray<SubscriptionChange>
}

/** What billing a subscription reads of it: the record, its items and (some of) its cycles; an aggregate is one. */
export type BillableSubscription = Pick<SubscriptionAggregate, "subscription" | "items" | "cycles">

/** 404: unknown subscription, or another account's (they look the same). */
export class SubscriptionNotFound extends Schema.TaggedError<SubscriptionNotFound>()("SUBSCRIPTION_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: the subscription is already canceled (or its cancel is already scheduled). */
export class SubscriptionAlreadyCanceled extends Schema.TaggedError<SubscriptionAlreadyCanceled>()("SUBSCRIPTION_ALREADY_CANCELED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: the subscription's status does not allow the change (the provider's code). */
export class SubscriptionNotEligible extends Schema.TaggedError<SubscriptionNotEligible>()("SUBSCRIPTION_NOT_ELIGIBLE", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404: no such item on the subscription. */
export class ItemNotFound extends Schema.TaggedError<ItemNotFound>()("ITEM_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400 on the upgrade and add-item routes: the card was refused; `details.declinedCode` says why (not the checkout's 402). */
export class PaymentDeclined extends Schema.TaggedError<PaymentDeclined>()("PAYMENT_DECLINED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400 on the upgrade and add-item routes: the payment could not be made (the acquirer did not answer, or no card is on file). */
export class PaymentFailed extends Schema.TaggedError<PaymentFailed>()("PAYMENT_FAILED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404 of the prorata preview: the current price is not an item of the subscription. */
export class OldPriceNotFound extends Schema.TaggedError<OldPriceNotFound>()("OLD_PRICE_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 404 of the prorata preview: the new price does not exist on the account (or is inactive). */
export class NewPriceNotFound extends Schema.TaggedError<NewPriceNotFound>()("NEW_PRICE_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

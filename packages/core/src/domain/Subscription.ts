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
import { PriceRecurrence, ProductType } from "./Product.ts"
import { CycleStatus, Interval, InvoiceStatus, ItemOrigin, ItemStatus, SubscriptionStatus } from "./SubscriptionStatus.ts"
import type { SubscriptionChange } from "./SubscriptionHistory.ts"
import {
  AccountId,
  CartId,
  ChargeId,
  CouponId,
  CustomerId,
  InvoiceId,
  PaymentMethodId,
  PriceId,
  ProductId,
  SubscriptionId,
  SubscriptionItemId
} from "./Ids.ts"

// The concepts of a subscription live one per file; importers of this one keep finding them here.
export * from "./SubscriptionErrors.ts"
export * from "./SubscriptionHistory.ts"
export * from "./SubscriptionStatus.ts"

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
  couponId: CouponId,
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
  id: SubscriptionId,
  accountId: AccountId,
  masterAccountId: AccountId,
  customerId: CustomerId,
  /** The checkout link or session that originated it. */
  checkoutId: NullableString,
  /** Groups the subscriptions of one purchase. */
  cartId: Schema.NullOr(CartId),
  status: SubscriptionStatus,
  interval: Interval,
  intervalCount: Schema.Int,
  /** Day of the month the charge is due (monthly-based intervals); the month's last day when shorter. */
  billingDay: Schema.Int,
  paymentMethod: PaymentMethodInput,
  /** The tokenized card (`pm_`) later cycles are charged to. */
  paymentMethodId: Schema.NullOr(PaymentMethodId),
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
  primaryItemId: SubscriptionItemId,
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
  id: SubscriptionItemId,
  subscriptionId: SubscriptionId,
  priceId: PriceId,
  productId: ProductId,
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
  upgradedFromItemId: Schema.NullOr(SubscriptionItemId),
  upgradedToItemId: Schema.NullOr(SubscriptionItemId),
  /** The prorata charge whose payment activates the item (an upgrade or add-on paid by Pix or boleto). */
  chargeId: Schema.NullOr(ChargeId),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "SubscriptionItemRecord" })
export type SubscriptionItem = typeof SubscriptionItem.Type

/** A collection message sent for a cycle (the dunning ruler). */
export const RulerEntry = Schema.Struct({ kind: Schema.String, channel: Schema.String, sentAt: Schema.String })

/** One period of a subscription. Unique per (subscription, number) in the database. */
export const BillingCycle = Schema.Struct({
  subscriptionId: SubscriptionId,
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
  chargeId: Schema.NullOr(ChargeId),
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
  priceId: Schema.NullOr(PriceId),
  productId: Schema.NullOr(ProductId)
})
export type InvoiceLine = typeof InvoiceLine.Type

/** The invoice of an issued cycle. */
export const Invoice = Schema.Struct({
  id: InvoiceId,
  subscriptionId: SubscriptionId,
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
  chargeId: Schema.NullOr(ChargeId),
  lines: Schema.Array(InvoiceLine),
  createdAt: Schema.Date
}).annotate({ identifier: "InvoiceRecord" })
export type Invoice = typeof Invoice.Type

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


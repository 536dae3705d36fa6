/** A subscription's histories (spec: Subscription, `planChanges`, `paymentMethodChanges`, `dueDateChanges`). */
import { Schema } from "effect"
import { Cents } from "../money/Money.ts"
import { PaymentMethodInput } from "./Charge.ts"
import { Instant } from "./Wire.ts"
import { ChargeId } from "./Ids.ts"

const NullableString = Schema.NullOr(Schema.String)

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
  chargeId: Schema.NullOr(ChargeId),
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

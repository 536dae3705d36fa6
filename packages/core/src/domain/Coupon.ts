import { Schema } from "effect"
import { Cents, toJsonNumber, cents } from "../money/Money.ts"
import { percentFromHundredths } from "../money/Rounding.ts"
import { ErrorFields } from "./Errors.ts"

export const CouponDiscountType = Schema.Literals(["PERCENTAGE", "FIXED", "EXTRA_PERIOD"])
export const CouponStatus = Schema.Literals(["ACTIVE", "PAUSED", "INACTIVE"])
export const ChargeType = Schema.Literals(["RECURRING", "ONE_TIME"])
const NullableInt = Schema.NullOr(Schema.Int)

/** A coupon (`coup_`): the rules of `rules/Coupons.ts` plus who owns it and how clients name it. */
export const Coupon = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  code: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  discountType: CouponDiscountType,
  /** Percent in hundredths for PERCENTAGE, centavos for FIXED, periods for EXTRA_PERIOD. */
  discountValue: Schema.Int,
  extraPeriodUnit: Schema.NullOr(Schema.Literals(["DAYS", "MONTHS"])),
  maxCycles: NullableInt,
  maxRedemptions: NullableInt,
  currentRedemptions: Schema.Int,
  minAmount: Schema.NullOr(Cents),
  maxDiscount: Schema.NullOr(Cents),
  /** Epoch milliseconds. */
  validFrom: NullableInt,
  validUntil: NullableInt,
  /** Price ids the coupon is restricted to; empty means any. */
  productIds: Schema.Array(Schema.String),
  firstTimeOnly: Schema.Boolean,
  appliesTo: Schema.NullOr(ChargeType),
  status: CouponStatus,
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "CouponRecord" })
export type Coupon = typeof Coupon.Type

export class CouponNotFound extends Schema.TaggedError<CouponNotFound>()("COUPON_NOT_FOUND", ErrorFields, { httpApiStatus: 404 }) {}

/** 400: `INACTIVE` is terminal (provider guide). */
export class CouponInactiveCannotReactivate extends Schema.TaggedError<CouponInactiveCannotReactivate>()(
  "COUPON_INACTIVE_CANNOT_REACTIVATE",
  ErrorFields,
  { httpApiStatus: 400 }
) {}

/** 400: a coupon that was already redeemed cannot be deleted (deactivate it instead). */
export class CouponInUse extends Schema.TaggedError<CouponInUse>()("COUPON_IN_USE", ErrorFields, { httpApiStatus: 400 }) {}

/** 400: the account already has a coupon with this code. */
export class CouponCodeAlreadyExists extends Schema.TaggedError<CouponCodeAlreadyExists>()("COUPON_CODE_ALREADY_EXISTS", ErrorFields, {
  httpApiStatus: 400
}) {}

const OptionalNumber = Schema.optionalKey(Schema.NullOr(Schema.Union([Schema.Number, Schema.String])))
const OptionalString = Schema.optionalKey(Schema.NullOr(Schema.String))

/** Body of create and update (all optional on update; checked by the use cases). */
export const CouponInput = Schema.Struct({
  code: Schema.optionalKey(Schema.String),
  name: Schema.optionalKey(Schema.String),
  description: OptionalString,
  discountType: Schema.optionalKey(Schema.Literals(["PERCENTAGE", "FIXED", "EXTRA_PERIOD"])),
  discountValue: Schema.optionalKey(Schema.Union([Schema.Number, Schema.String])),
  extraPeriodUnit: Schema.optionalKey(Schema.NullOr(Schema.Literals(["DAYS", "MONTHS"]))),
  maxCycles: Schema.optionalKey(Schema.NullOr(Schema.Int)),
  maxRedemptions: Schema.optionalKey(Schema.NullOr(Schema.Int)),
  minAmount: OptionalNumber,
  maxDiscount: OptionalNumber,
  validFrom: OptionalString,
  validUntil: OptionalString,
  productIds: Schema.optionalKey(Schema.Array(Schema.String)),
  firstTimeOnly: Schema.optionalKey(Schema.Boolean),
  appliesTo: Schema.optionalKey(Schema.NullOr(Schema.Literals(["RECURRING", "ONE_TIME"]))),
  status: Schema.optionalKey(Schema.Literals(["ACTIVE", "PAUSED", "INACTIVE"]))
}).annotate({ identifier: "CouponInput" })
export type CouponInput = typeof CouponInput.Type

const Money = Schema.Unknown.annotate({ description: "Amount in reais, two decimals" })

export const CouponView = Schema.Struct({
  couponId: Schema.String,
  accountId: Schema.String,
  code: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  discountType: Schema.String,
  discountValue: Schema.Unknown.annotate({ description: "Percent (PERCENTAGE), reais (FIXED) or number of periods (EXTRA_PERIOD)" }),
  extraPeriodUnit: Schema.NullOr(Schema.String),
  maxCycles: Schema.NullOr(Schema.Number),
  maxRedemptions: Schema.NullOr(Schema.Number),
  currentRedemptions: Schema.Number,
  minAmount: Schema.NullOr(Money),
  maxDiscount: Schema.NullOr(Money),
  validFrom: Schema.NullOr(Schema.String),
  validUntil: Schema.NullOr(Schema.String),
  productIds: Schema.Array(Schema.String),
  firstTimeOnly: Schema.Boolean,
  appliesTo: Schema.NullOr(Schema.String),
  status: Schema.String,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "Coupon" })

/** `discountValue` as the spec prints it: a percent, reais with two decimals, or a count of periods. */
export const discountValueOut = (c: Pick<Coupon, "discountType" | "discountValue">): unknown =>
  c.discountType === "PERCENTAGE" ? percentFromHundredths(c.discountValue) : c.discountType === "FIXED" ? toJsonNumber(cents(c.discountValue)) : c.discountValue

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

export const toCouponView = (c: Coupon): typeof CouponView.Type => ({
  couponId: c.id,
  accountId: c.accountId,
  code: c.code,
  name: c.name,
  description: c.description,
  discountType: c.discountType,
  discountValue: discountValueOut(c),
  extraPeriodUnit: c.extraPeriodUnit,
  maxCycles: c.maxCycles,
  maxRedemptions: c.maxRedemptions,
  currentRedemptions: c.currentRedemptions,
  minAmount: c.minAmount === null ? null : toJsonNumber(c.minAmount),
  maxDiscount: c.maxDiscount === null ? null : toJsonNumber(c.maxDiscount),
  validFrom: iso(c.validFrom),
  validUntil: iso(c.validUntil),
  productIds: c.productIds,
  firstTimeOnly: c.firstTimeOnly,
  appliesTo: c.appliesTo,
  status: c.status,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString()
})

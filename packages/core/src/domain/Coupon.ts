import { Schema, Struct } from "effect"
import { Cents, cents, ReaisJson, toJsonNumber } from "../money/Money.ts"
import { percentFromHundredths } from "../money/Rounding.ts"
import { ErrorFields } from "./Errors.ts"
import { Instant } from "./Wire.ts"
import { Description, Identifier, idInput, Name, optional } from "./Values.ts"
import { AccountId, CouponId, PriceId } from "./Ids.ts"

export const CouponDiscountType = Schema.Literals(["PERCENTAGE", "FIXED", "EXTRA_PERIOD"])
export const CouponStatus = Schema.Literals(["ACTIVE", "PAUSED", "INACTIVE"])
export const ChargeType = Schema.Literals(["RECURRING", "ONE_TIME"])
const NullableInt = Schema.NullOr(Schema.Int)

/** A coupon (`coup_`): the rules of `rules/Coupons.ts` plus who owns it and how clients name it. */
export const Coupon = Schema.Struct({
  id: CouponId,
  accountId: AccountId,
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
  productIds: Schema.Array(PriceId),
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
  code: optional(Identifier),
  name: optional(Name),
  description: Schema.optionalKey(Schema.NullOr(Description)),
  discountType: optional(Schema.Literals(["PERCENTAGE", "FIXED", "EXTRA_PERIOD"])),
  discountValue: optional(Schema.Union([Schema.Number, Schema.String])),
  extraPeriodUnit: Schema.optionalKey(Schema.NullOr(Schema.Literals(["DAYS", "MONTHS"]))),
  maxCycles: Schema.optionalKey(Schema.NullOr(Schema.Int)),
  maxRedemptions: Schema.optionalKey(Schema.NullOr(Schema.Int)),
  minAmount: OptionalNumber,
  maxDiscount: OptionalNumber,
  validFrom: OptionalString,
  validUntil: OptionalString,
  productIds: optional(Schema.Array(idInput(PriceId)).pipe(Schema.check(Schema.isMaxLength(1_000)))),
  firstTimeOnly: optional(Schema.Boolean),
  appliesTo: Schema.optionalKey(Schema.NullOr(Schema.Literals(["RECURRING", "ONE_TIME"]))),
  status: optional(Schema.Literals(["ACTIVE", "PAUSED", "INACTIVE"]))
}).annotate({ identifier: "CouponInput" })
export type CouponInput = typeof CouponInput.Type

const coupon = Coupon.fields

/**
 * `discountValue` on the wire: a percent (PERCENTAGE), reais printed with two
 * decimals (FIXED) or a number of periods (EXTRA_PERIOD); see `discountValueOut`.
 */
export const DiscountValueJson = Schema.Unknown.annotate({
  description: "Percent (PERCENTAGE), reais (FIXED) or number of periods (EXTRA_PERIOD)"
})

export const CouponView = Schema.Struct({
  couponId: coupon.id,
  accountId: coupon.accountId,
  code: coupon.code,
  name: coupon.name,
  description: coupon.description,
  discountType: coupon.discountType,
  discountValue: DiscountValueJson,
  extraPeriodUnit: coupon.extraPeriodUnit,
  maxCycles: coupon.maxCycles,
  maxRedemptions: coupon.maxRedemptions,
  currentRedemptions: coupon.currentRedemptions,
  minAmount: Schema.NullOr(ReaisJson),
  maxDiscount: Schema.NullOr(ReaisJson),
  validFrom: Schema.NullOr(Instant),
  validUntil: Schema.NullOr(Instant),
  productIds: coupon.productIds,
  firstTimeOnly: coupon.firstTimeOnly,
  appliesTo: coupon.appliesTo,
  status: coupon.status,
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "Coupon" })

/** The coupon as the public validation shows it (spec: Coupons, valid answer). */
export const CouponSummaryView = CouponView.mapFields(Struct.pick([
  "code",
  "name",
  "description",
  "discountType",
  "discountValue",
  "maxCycles",
  "maxDiscount",
  "validUntil",
  "appliesTo",
  "firstTimeOnly"
])).annotate({ identifier: "CouponSummary" })

/** The answer of `POST /v1/coupons/validate`: always 200, a verdict and, when valid, the coupon and the discount. */
export const CouponVerdict = Schema.Struct({
  valid: Schema.Boolean,
  reason: Schema.optionalKey(Schema.String),
  coupon: Schema.optionalKey(CouponSummaryView),
  discountAmount: Schema.optionalKey(ReaisJson),
  finalAmount: Schema.optionalKey(ReaisJson)
}).annotate({ identifier: "CouponVerdict" })

/** `discountValue` as the spec prints it: a percent, reais with two decimals, or a count of periods. */
export const discountValueOut = (c: Pick<Coupon, "discountType" | "discountValue">): unknown =>
  c.discountType === "PERCENTAGE" ? percentFromHundredths(c.discountValue) : c.discountType === "FIXED" ? toJsonNumber(cents(c.discountValue)) : c.discountValue

const instant = (ms: number | null) => (ms === null ? null : new Date(ms))

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
  minAmount: c.minAmount,
  maxDiscount: c.maxDiscount,
  validFrom: instant(c.validFrom),
  validUntil: instant(c.validUntil),
  productIds: c.productIds,
  firstTimeOnly: c.firstTimeOnly,
  appliesTo: c.appliesTo,
  status: c.status,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt
})

/** The coupon as the public validation shows it. */
export const toCouponSummary = (c: Coupon): typeof CouponSummaryView.Type => {
  const view = toCouponView(c)
  return {
    code: view.code,
    name: view.name,
    description: view.description,
    discountType: view.discountType,
    discountValue: view.discountValue,
    maxCycles: view.maxCycles,
    maxDiscount: view.maxDiscount,
    validUntil: view.validUntil,
    appliesTo: view.appliesTo,
    firstTimeOnly: view.firstTimeOnly
  }
}

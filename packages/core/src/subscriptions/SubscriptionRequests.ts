/**
 * Bodies and answers of the routes that change a subscription. The spec
 * leaves them "not shown"; the shapes are the provider's collection's, so
 * its clients work unchanged.
 */
import { Schema } from "effect"
import { CardInput } from "../checkout/CheckoutRequest.ts"
import { PaymentMethodInput } from "../domain/Charge.ts"
import { Description, Email, idInput, optional } from "../domain/Values.ts"
import { ReaisJson } from "../domain/Wire.ts"
import { SubscriptionStatus } from "../domain/Subscription.ts"
import { PaymentMethodId, PriceId, SubscriptionId, SubscriptionItemId } from "../domain/Ids.ts"

const Quantity = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 999 })))

/** The item changed: by id, or by its price. */
const OldItem = Schema.Struct({ itemId: optional(idInput(SubscriptionItemId)), priceId: optional(idInput(PriceId)), quantity: optional(Quantity) })
/** The price and quantity asked for. */
const NewItem = Schema.Struct({ priceId: optional(idInput(PriceId)), quantity: optional(Quantity) })

/** Body of `POST /v1/subscriptions/{id}/prorata`: `old` and `new`, or `new` alone for an add-on. */
export const ProrataPreviewRequest = Schema.Struct({ old: optional(OldItem), new: optional(NewItem) }).annotate({ identifier: "ProrataPreviewRequest" })

/** Body of the provider's `POST /v1/subscriptions/prorata`. */
export const ProviderProrataRequest = Schema.Struct({ subscriptionId: idInput(SubscriptionId), ...ProrataPreviewRequest.fields })
  .annotate({ identifier: "ProviderProrataRequest" })

/** The preview: the spec's collection fields, and the guide's `daysRemaining` / `totalDays`. */
export const ProrataPreviewResponse = Schema.Struct({
  subscriptionId: Schema.String,
  type: Schema.Literals(["UPGRADE", "DOWNGRADE"]),
  currentAmount: ReaisJson,
  newAmount: ReaisJson,
  prorataAmount: ReaisJson,
  remainingDays: Schema.Int,
  cycleDays: Schema.Int,
  currentCredit: ReaisJson,
  nextCycleChargeDate: Schema.String,
  daysRemaining: Schema.Int,
  totalDays: Schema.Int
}).annotate({ identifier: "ProrataPreview" })

/** Body of `PUT /v1/subscriptions/{id}/items/{itemId}`. */
export const ChangeItemRequest = Schema.Struct({ priceId: optional(idInput(PriceId)), quantity: optional(Quantity) }).annotate({ identifier: "ChangeItemRequest" })

/** Body of `POST /v1/subscriptions/{id}/items`. */
export const AddItemRequest = Schema.Struct({ priceId: idInput(PriceId), quantity: optional(Quantity) }).annotate({ identifier: "AddItemRequest" })

/**
 * Body of `PATCH /v1/subscriptions/{id}`: `old` with `new` changes an item,
 * `old` alone removes it, `new` alone adds one, `action: "cancel"` cancels;
 * `additionalEmails` and `cancelAtPeriodEnd` are edits.
 */
export const UpdateSubscriptionRequest = Schema.Struct({
  old: optional(OldItem),
  new: optional(NewItem),
  action: optional(Schema.Literal("cancel")),
  reason: optional(Description),
  additionalEmails: optional(Schema.Array(Email).pipe(Schema.check(Schema.isMaxLength(10)))),
  cancelAtPeriodEnd: optional(Schema.Boolean),
  /** A new day of the month to bill on: the next cycle moves, with a prorata of the days gained or lost. */
  billingDay: optional(Schema.Int),
  /** The method later cycles are charged by; a card by `card` (tokenized) or `paymentMethodId`. */
  paymentMethod: optional(PaymentMethodInput),
  paymentMethodId: optional(idInput(PaymentMethodId)),
  card: optional(CardInput)
}).annotate({ identifier: "UpdateSubscriptionRequest" })

/** Body of the provider's `POST /v1/subscriptions/update`. */
export const ProviderUpdateRequest = Schema.Struct({ subscriptionId: idInput(SubscriptionId), ...UpdateSubscriptionRequest.fields })
  .annotate({ identifier: "ProviderUpdateRequest" })

const ChargeStatusWord = Schema.Literals(["paid", "pending"])

/** An upgrade or add-on: the prorata charge, and the new item (waiting for a Pix or boleto payment). */
export const UpgradeResponse = Schema.Struct({
  success: Schema.Literal(true),
  type: Schema.Literals(["UPGRADE", "ADD_ITEM"]),
  subscriptionId: Schema.String,
  chargeId: Schema.NullOr(Schema.String),
  status: ChargeStatusWord,
  amount: ReaisJson,
  prorataAmount: ReaisJson,
  newAmount: ReaisJson,
  itemId: Schema.String,
  item: Schema.optionalKey(Schema.Struct({
    itemId: Schema.String,
    priceId: Schema.String,
    amount: ReaisJson,
    quantity: Schema.Int,
    status: Schema.Literals(["ACTIVE", "PENDING_UPGRADE"])
  })),
  proRataCharge: Schema.optionalKey(Schema.Struct({ chargeId: Schema.String, amount: ReaisJson, status: Schema.Literals(["PAID", "PENDING"]) })),
  paymentMethod: Schema.optionalKey(Schema.Literals(["PIX", "BOLETO"])),
  pix: Schema.optionalKey(Schema.Struct({ emv: Schema.String, qrCode: Schema.String })),
  payment: Schema.optionalKey(Schema.Struct({ emvQrCode: Schema.String })),
  boleto: Schema.optionalKey(Schema.Struct({ digitableLine: Schema.String, barCode: Schema.String, dueDate: Schema.String }))
}).annotate({ identifier: "UpgradeResponse" })

/** A downgrade, scheduled for the next cycle. */
export const DowngradeResponse = Schema.Struct({
  success: Schema.Literal(true),
  type: Schema.Literal("DOWNGRADE"),
  subscriptionId: Schema.String,
  itemId: Schema.String,
  effectiveAt: Schema.String,
  newAmount: ReaisJson,
  scheduledChange: Schema.Struct({ effectiveDate: Schema.String, newPriceId: Schema.String, newAmount: ReaisJson })
}).annotate({ identifier: "DowngradeResponse" })

/** An item removed now. */
export const RemoveItemResponse = Schema.Struct({
  success: Schema.Literal(true),
  type: Schema.Literal("REMOVE_ITEM"),
  subscriptionId: Schema.String,
  itemId: Schema.String,
  newAmount: ReaisJson
}).annotate({ identifier: "RemoveItemResponse" })

/** The edits of `PATCH`, as they now stand. */
export const EditSubscriptionResponse = Schema.Struct({
  success: Schema.Literal(true),
  subscriptionId: Schema.String,
  status: SubscriptionStatus,
  additionalEmails: Schema.Array(Schema.String),
  cancelAtPeriodEnd: Schema.Boolean,
  paymentMethod: PaymentMethodInput,
  /** Moving to Pix Automático: the BR Code the payer scans to authorize the recurrence. */
  pix: Schema.optionalKey(Schema.Struct({ emv: Schema.String, qrCode: Schema.String, recurrencyId: Schema.String }))
}).annotate({ identifier: "EditSubscriptionResponse" })

/** A new billing day: the next cycle's new date and the prorata it carries (negative: a credit). */
export const BillingDayChangeResponse = Schema.Struct({
  success: Schema.Literal(true),
  subscriptionId: Schema.String,
  billingDay: Schema.Int,
  previousDueDate: Schema.String,
  nextCycleChargeDate: Schema.String,
  prorataAmount: ReaisJson,
  nextCycleAmount: ReaisJson
}).annotate({ identifier: "BillingDayChangeResponse" })

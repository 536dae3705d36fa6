import { Schema } from "effect"
import { CheckoutSplitItemInput } from "../charges/PixChargeRequest.ts"
import { BoletoInstructionsInput, PaymentMethodInput, PixInstructions } from "../domain/Charge.ts"
import { AddressInput } from "../domain/Customer.ts"
import { CalendarDate, Description, DocumentNumber, Email, Identifier, idInput, Name, optional, PhoneE164, Text } from "../domain/Values.ts"
import { Reais } from "../money/Money.ts"
import { CartId, PaymentMethodId, PriceId, ProductId } from "../domain/Ids.ts"

const OptionalString = optional(Text)

/** `externalId` and `externalTxid`: at most 100 characters (spec: Limits). */
const ExternalKey = Schema.String.pipe(Schema.check(Schema.isMaxLength(100)))
const OptionalInt = optional(Schema.Int)
/** An integer the spec bounds (Limits): out of range is refused, never clamped to the nearest bound. */
const IntBetween = (minimum: number, maximum: number) => optional(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum, maximum }))))

export const CardInput = Schema.Struct({
  number: Schema.String,
  cvv: Schema.String,
  name: Schema.String,
  expiration: Schema.String
})

/**
 * Body of `POST /v1/charges` (transparent checkout). Types are checked here;
 * the rules between fields are checked by `createCheckoutCharge`. Fields the
 * engine does not act on yet (recurrence, fiscal, notifications) are typed
 * so that bad values are refused, and documented where they are ignored.
 */
export const CheckoutRequest = Schema.Struct({
  paymentMethod: PaymentMethodInput,
  customer: Schema.Struct({
    name: Name,
    email: Email,
    documentNumber: DocumentNumber,
    phone: optional(PhoneE164),
    cep: OptionalString,
    metadata: Schema.optionalKey(Schema.Unknown),
    address: optional(Schema.Struct({
      type: optional(Schema.Literals(["BILLING", "SHIPPING"])),
      ...AddressInput.fields,
      country: OptionalString
    }))
  }),
  // Each item is one price lookup: at most 100, as a checkout link's items.
  items: optional(Schema.Array(Schema.Struct({
    priceId: idInput(PriceId),
    quantity: OptionalInt,
    isOrderBump: optional(Schema.Boolean)
  })).pipe(Schema.check(Schema.isMaxLength(100)))),
  amount: optional(Reais),
  productId: optional(idInput(ProductId)),
  card: optional(CardInput),
  paymentMethodId: optional(idInput(PaymentMethodId)),
  tokenId: optional(Identifier),
  installments: OptionalInt,
  freeInstallments: OptionalInt,
  passFeesToCustomer: optional(Schema.Boolean),
  externalId: optional(ExternalKey),
  externalTxid: optional(ExternalKey),
  /** Accepted and not stored (spec: General rule 10). */
  metadata: Schema.optionalKey(Schema.Unknown),
  description: optional(Description),
  couponCode: optional(Identifier),
  split: optional(Schema.Array(CheckoutSplitItemInput).pipe(Schema.check(Schema.isMaxLength(20)))),
  discounts: optional(Schema.Array(Schema.Struct({
    type: Schema.String,
    value: optional(Schema.Union([Schema.Number, Schema.String])),
    amount: optional(Schema.Union([Schema.Number, Schema.String])),
    paymentMethod: OptionalString,
    method: OptionalString,
    couponCode: optional(Identifier),
    fromCycle: OptionalInt,
    toCycle: Schema.optionalKey(Schema.NullOr(Schema.Int)),
    durationMonths: OptionalInt
  })).pipe(Schema.check(Schema.isMaxLength(20)))),
  allowedPaymentMethods: optional(Schema.Array(PaymentMethodInput).pipe(Schema.check(Schema.isMaxLength(10)))),
  dueDate: optional(CalendarDate),
  expirationAfterDueDate: IntBetween(0, 60),
  boletoDueDays: OptionalInt,
  /** The provider's structured instructions, or a line of text printed on the boleto. */
  boletoInstructions: optional(BoletoInstructionsInput),
  pixInstructions: optional(PixInstructions),
  expiration: optional(CalendarDate),
  billingDay: IntBetween(1, 31),
  // Recurrence (subscriptions): see `rules/SubscriptionStart.ts` for how they combine.
  recurrencyStartDate: optional(CalendarDate),
  prorataStartDate: optional(CalendarDate),
  prorataDueDate: optional(CalendarDate),
  mergeWithNextCycle: optional(Schema.Boolean),
  cartId: optional(idInput(CartId)),
  issueDaysBeforeDue: OptionalInt,
  additionalEmails: optional(Schema.Array(Email).pipe(Schema.check(Schema.isMaxLength(10)))),
  nfConfigId: optional(Identifier),
  // Checked by the use case, which names every unknown kind at once.
  notifications: optional(Schema.Array(Text))
}).annotate({ identifier: "CheckoutRequest" })
export type CheckoutRequest = typeof CheckoutRequest.Type

/**
 * 200 of `POST /v1/charges`: card `{ success, customerId, chargeId, status: "paid" }`;
 * Pix adds `pix { emv, qrCode }`, boleto `boleto { digitableLine, barCode, pdfUrl, dueDate }`.
 * A purchase that started a subscription adds `subscriptionId`; one that
 * starts in a free period has no charge yet (`status: "trialing"`, no
 * `chargeId`); a cart of several intervals adds `cartId` and `subscriptions`.
 */
export const CheckoutResponse = Schema.Struct({
  success: Schema.Literal(true),
  customerId: Schema.String,
  chargeId: Schema.optionalKey(Schema.String),
  subscriptionId: Schema.optionalKey(Schema.String),
  status: Schema.Literals(["paid", "pending", "trialing"]),
  pix: Schema.optionalKey(Schema.Struct({ emv: Schema.String, qrCode: Schema.String, recurrencyId: Schema.optionalKey(Schema.String) })),
  boleto: Schema.optionalKey(Schema.Struct({ digitableLine: Schema.String, barCode: Schema.String, pdfUrl: Schema.String, dueDate: Schema.String })),
  /** A cart of several intervals: its id, and each subscription it started with its first charge. */
  cartId: Schema.optionalKey(Schema.String),
  subscriptions: Schema.optionalKey(Schema.Array(Schema.Struct({
    subscriptionId: Schema.String,
    status: Schema.Literals(["paid", "pending", "trialing"]),
    chargeId: Schema.optionalKey(Schema.String),
    pix: Schema.optionalKey(Schema.Struct({ emv: Schema.String, qrCode: Schema.String, recurrencyId: Schema.optionalKey(Schema.String) })),
    boleto: Schema.optionalKey(Schema.Struct({ digitableLine: Schema.String, barCode: Schema.String, dueDate: Schema.String }))
  })))
}).annotate({ identifier: "CheckoutResponse" })

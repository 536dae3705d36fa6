import { Schema } from "effect"
import { Cents } from "../money/Money.ts"
import { NotificationKind } from "./Notification.ts"
import { ErrorFields } from "./Errors.ts"
import { AccountId, ChargeId, CustomerId, SubscriptionId } from "./Ids.ts"
import { CalendarDate, optional, Text } from "./Values.ts"

/** Every charge status of the spec. */
export const ChargeStatuses = [
  "PENDING", "PROCESSING", "AWAITING_PAYMENT", "PAID", "FAILED", "EXPIRED", "CANCELED", "ARCHIVED",
  "DISPUTE", "REFUNDED", "PARTIALLY_REFUNDED", "CHARGED_BACK"
] as const
export const ChargeStatus = Schema.Literals(ChargeStatuses)
export type ChargeStatus = typeof ChargeStatus.Type

/** Statuses in which a charge can still be paid, canceled or expire. */
export const OPEN_STATUSES: ReadonlyArray<ChargeStatus> = ["PENDING", "PROCESSING", "AWAITING_PAYMENT"]

/**
 * The payment method as clients send it (spec: General rule 4): lowercase
 * `pix`, `creditcard`, `boleto`, `pix_automatico`. Responses and events print
 * it as a `PaymentType`; a value read from a response is never input.
 */
export const PaymentMethodInput = Schema.Literals(["pix", "creditcard", "boleto", "pix_automatico"])
export type PaymentMethodInput = typeof PaymentMethodInput.Type

/** The payment method in responses and events: `PIX`, `BOLETO`, `CREDIT_CARD`. */
export const PaymentType = Schema.Literals(["PIX", "BOLETO", "CREDIT_CARD"])
export type PaymentType = typeof PaymentType.Type

/**
 * The output form of a payment method given in either form (`pix` or `PIX`):
 * the one mapping between them. Pix Automático charges are Pix.
 */
export const paymentTypeOf: Readonly<Record<PaymentMethodInput | PaymentType, PaymentType>> = {
  pix: "PIX",
  creditcard: "CREDIT_CARD",
  boleto: "BOLETO",
  pix_automatico: "PIX",
  PIX: "PIX",
  CREDIT_CARD: "CREDIT_CARD",
  BOLETO: "BOLETO"
}

const NullableString = Schema.NullOr(Schema.String)

/** The buyer as given on the charge. */
export const ChargeCustomer = Schema.Struct({
  documentNumber: NullableString,
  name: NullableString,
  email: NullableString,
  phone: NullableString,
  cep: NullableString
})
export type ChargeCustomer = typeof ChargeCustomer.Type

/** One receiver of the split, resolved to its account. */
export const ChargeSplitPart = Schema.Struct({
  accountId: AccountId,
  accountNumber: Schema.String,
  type: Schema.Literals(["fixed", "percentage"]),
  /** As requested: centavos for `fixed`, hundredths of a percent for `percentage`. */
  value: Schema.Int,
  /** What the receiver gets, computed on the net amount. */
  amount: Cents
})
export type ChargeSplitPart = typeof ChargeSplitPart.Type

/** Who paid a Pix, as the payer's bank reports it. */
export const PixPayer = Schema.Struct({
  name: Schema.String,
  taxId: Schema.String,
  bank: Schema.String,
  account: Schema.String,
  branch: Schema.String,
  accountType: Schema.Literals(["CACC", "SVGS", "TRAN"])
})
export type PixPayer = typeof PixPayer.Type

/** The card of a card charge: what may be kept of it. */
export const ChargeCard = Schema.Struct({
  brand: Schema.String,
  firstSix: Schema.String,
  lastFour: Schema.String,
  installments: Schema.Int
})
export type ChargeCard = typeof ChargeCard.Type

/** Boleto instructions as the provider takes them: fine and interest in percent, an early-payment discount. */
export const BoletoInstructions = Schema.Struct({
  fine: optional(Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 100 })))),
  interest: optional(Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 100 })))),
  discount: optional(Schema.Struct({
    amount: Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 }))),
    modality: Schema.Literals(["fixed", "percent"]),
    limitDate: CalendarDate
  }))
})

/** Instructions of a Pix with due date: the same fine, interest and discount. */
export const PixInstructions = BoletoInstructions

/** `boletoInstructions` as clients send it: the provider's structured instructions, or a line of text printed on the boleto. */
export const BoletoInstructionsInput = Schema.Union([Text, BoletoInstructions])

/**
 * The boleto of a boleto charge; `instructions` are kept as the client sent
 * them. `pixCopiaECola` is the bank's Pix on the boleto (a BR Code the payer
 * may pay instead), null when the bank offers none; absent on boletos
 * recorded before banks were asked for it.
 */
export const ChargeBoleto = Schema.Struct({
  bankCode: Schema.String,
  ourNumber: Schema.String,
  barcode: Schema.String,
  digitableLine: Schema.String,
  dueDate: Schema.String,
  instructions: Schema.Unknown,
  pixCopiaECola: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type ChargeBoleto = typeof ChargeBoleto.Type

/** The buyer's address on a charge (required complete for boleto). */
export const ChargeAddress = Schema.Struct({
  street: Schema.String,
  number: Schema.String,
  complement: NullableString,
  neighborhood: Schema.String,
  city: Schema.String,
  state: Schema.String,
  zipCode: Schema.String,
  cityCode: NullableString
})
export type ChargeAddress = typeof ChargeAddress.Type

/** `metadata` of a Pix charge: an object kept as sent. */
export const ChargeMetadata = Schema.Record(Schema.String, Schema.Unknown)

/**
 * A charge. Amounts are centavos: `amount` is the gross, `fee` + `net` add up
 * to it (the database checks so), which is what the wallet will credit.
 * The one definition of a charge: storage rows, views and event bodies are
 * derived from it.
 */
export const Charge = Schema.Struct({
  id: ChargeId,
  accountId: AccountId,
  masterAccountId: AccountId,
  paymentType: PaymentType,
  status: ChargeStatus,
  amount: Cents,
  fee: Cents,
  feeFixed: Cents,
  feePercentHundredths: Schema.Int,
  net: Cents,
  txid: Schema.String,
  emv: NullableString,
  /** The PSP that holds a Pix charge (its `name` in the providers file): its refunds and callbacks go there. Null in the sandbox and for other methods. */
  psp: NullableString,
  externalTxid: NullableString,
  description: NullableString,
  metadata: Schema.NullOr(ChargeMetadata),
  customer: Schema.NullOr(ChargeCustomer),
  split: Schema.NullOr(Schema.Array(ChargeSplitPart)),
  /** `YYYY-MM-DD`: the due date of a Pix with due date or of a boleto. */
  dueDate: NullableString,
  expiresAt: Schema.Date,
  paidAt: Schema.NullOr(Schema.Date),
  endToEndId: NullableString,
  payer: Schema.NullOr(PixPayer),
  canceledAt: Schema.NullOr(Schema.Date),
  archivedAt: Schema.NullOr(Schema.Date),
  attempts: Schema.Int,
  /** Idempotency key of `POST /v1/charges`; unique per account. */
  externalId: NullableString,
  customerId: Schema.NullOr(CustomerId),
  card: Schema.NullOr(ChargeCard),
  boleto: Schema.NullOr(ChargeBoleto),
  address: Schema.NullOr(ChargeAddress),
  /** E-mails the charge asked for (`notifications` of the checkout); null sends none. */
  notifications: Schema.NullOr(Schema.Array(NotificationKind)),
  /** Why a card was refused (`card_declined`, …). */
  failureReason: NullableString,
  /** The subscription a charge bills, and the cycle when it is a cycle's charge (null for a plan change's prorata). */
  subscriptionId: Schema.NullOr(SubscriptionId),
  cycleNumber: Schema.NullOr(Schema.Int),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "Charge" })
export type Charge = typeof Charge.Type

/** What a charge has not lived through yet when it is created: no payment, payer, cancel, archive, attempt or refusal. */
export const unsettledCharge = {
  paidAt: null,
  endToEndId: null,
  payer: null,
  canceledAt: null,
  archivedAt: null,
  attempts: 0,
  failureReason: null
} as const satisfies Partial<Charge>

/** 404: unknown charge, or a charge of another account (they look the same). */
export class ChargeNotFound extends Schema.TaggedError<ChargeNotFound>()("CHARGE_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: the charge id is missing from the path. */
export class MissingChargeId extends Schema.TaggedError<MissingChargeId>()("MISSING_CHARGE_ID", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: only open charges (`PENDING`, `PROCESSING`, `AWAITING_PAYMENT`) can be canceled. */
export class ChargeNotCancelable extends Schema.TaggedError<ChargeNotCancelable>()("CHARGE_NOT_CANCELABLE", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: only canceled charges can be archived. */
export class ChargeNotArchivable extends Schema.TaggedError<ChargeNotArchivable>()("CHARGE_NOT_ARCHIVABLE", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: the charge is not open, so it cannot be paid. */
export class ChargeNotPayable extends Schema.TaggedError<ChargeNotPayable>()("CHARGE_NOT_PAYABLE", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: sandbox payment simulation on a production account. */
export class NotSandboxAccount extends Schema.TaggedError<NotSandboxAccount>()("NOT_SANDBOX_ACCOUNT", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 409: a charge with this `externalId` exists; `details.chargeId` is it. */
export class DuplicateCharge extends Schema.TaggedError<DuplicateCharge>()("DUPLICATE_CHARGE", ErrorFields, {
  httpApiStatus: 409
}) {}

/** 400: a card charge without `card`, `tokenId` or `paymentMethodId`. */
export class MissingCardData extends Schema.TaggedError<MissingCardData>()("MISSING_CARD_DATA", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404: an item's price does not exist on the account (or is inactive). */
export class PriceNotFound extends Schema.TaggedError<PriceNotFound>()("PRICE_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: Pix Automático on a PF account. */
export class PixAutomaticoPjOnly extends Schema.TaggedError<PixAutomaticoPjOnly>()("PIX_AUTOMATICO_PJ_ONLY", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 402 of the transparent checkout: the card was refused; its body is not the envelope. */
export class CardRefused extends Schema.TaggedError<CardRefused>()("CardRefused", {
  chargeId: Schema.String,
  error: Schema.String
}, { httpApiStatus: 402 }) {}

/** 400: the boleto PDF of a charge that is not a boleto. */
export class ChargeNotBoleto extends Schema.TaggedError<ChargeNotBoleto>()("CHARGE_NOT_BOLETO", ErrorFields, {
  httpApiStatus: 400
}) {}

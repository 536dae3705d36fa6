import { Schema } from "effect"
import type { Cents } from "../money/Money.ts"
import type { NotificationKind } from "../ports/Notifications.ts"
import { ErrorFields } from "./Errors.ts"

/** Every charge status of the spec. */
export const ChargeStatuses = [
  "PENDING", "PROCESSING", "AWAITING_PAYMENT", "PAID", "FAILED", "EXPIRED", "CANCELED", "ARCHIVED",
  "DISPUTE", "REFUNDED", "PARTIALLY_REFUNDED", "CHARGED_BACK"
] as const
export type ChargeStatus = (typeof ChargeStatuses)[number]

/** Statuses in which a charge can still be paid, canceled or expire. */
export const OPEN_STATUSES: ReadonlyArray<ChargeStatus> = ["PENDING", "PROCESSING", "AWAITING_PAYMENT"]

/** Output form of the payment method (input is lowercase `pix`, `boleto`, `creditcard`). */
export type PaymentType = "PIX" | "BOLETO" | "CREDIT_CARD"

/** The buyer as given on the charge. */
export interface ChargeCustomer {
  readonly documentNumber: string | null
  readonly name: string | null
  readonly email: string | null
  readonly phone: string | null
  readonly cep: string | null
}

/** One receiver of the split, resolved to its account. */
export interface ChargeSplitPart {
  readonly accountId: string
  readonly accountNumber: string
  readonly type: "fixed" | "percentage"
  /** As requested: centavos for `fixed`, hundredths of a percent for `percentage`. */
  readonly value: number
  /** What the receiver gets, computed on the net amount. */
  readonly amount: Cents
}

/** Who paid a Pix, as the payer's bank reports it. */
export interface PixPayer {
  readonly name: string
  readonly taxId: string
  readonly bank: string
  readonly account: string
  readonly branch: string
  readonly accountType: "CACC" | "SVGS" | "TRAN"
}

/** The card of a card charge: what may be kept of it. */
export interface ChargeCard {
  readonly brand: string
  readonly firstSix: string
  readonly lastFour: string
  readonly installments: number
}

/** The boleto of a boleto charge. */
export interface ChargeBoleto {
  readonly bankCode: string
  readonly ourNumber: string
  readonly barcode: string
  readonly digitableLine: string
  readonly dueDate: string
  readonly instructions: unknown
}

/** The buyer's address on a charge (required complete for boleto). */
export interface ChargeAddress {
  readonly street: string
  readonly number: string
  readonly complement: string | null
  readonly neighborhood: string
  readonly city: string
  readonly state: string
  readonly zipCode: string
  readonly cityCode: string | null
}

/**
 * A charge. Amounts are centavos: `amount` is the gross, `fee` + `net` add up
 * to it (the database checks so), which is what the wallet will credit.
 */
export interface Charge {
  readonly id: string
  readonly accountId: string
  readonly masterAccountId: string
  readonly paymentType: PaymentType
  readonly status: ChargeStatus
  readonly amount: Cents
  readonly fee: Cents
  readonly feeFixed: Cents
  readonly feePercentHundredths: number
  readonly net: Cents
  readonly txid: string
  readonly emv: string | null
  readonly externalTxid: string | null
  readonly description: string | null
  readonly metadata: Record<string, unknown> | null
  readonly customer: ChargeCustomer | null
  readonly split: ReadonlyArray<ChargeSplitPart> | null
  readonly dueDate: string | null
  readonly expiresAt: Date
  readonly paidAt: Date | null
  readonly endToEndId: string | null
  readonly payer: PixPayer | null
  readonly canceledAt: Date | null
  readonly archivedAt: Date | null
  readonly attempts: number
  /** Idempotency key of `POST /v1/charges`; unique per account. */
  readonly externalId: string | null
  readonly customerId: string | null
  readonly card: ChargeCard | null
  readonly boleto: ChargeBoleto | null
  readonly address: ChargeAddress | null
  /** E-mails the charge asked for (`notifications` of the checkout); null sends none. */
  readonly notifications: ReadonlyArray<NotificationKind> | null
  /** Why a card was refused (`card_declined`, …). */
  readonly failureReason: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

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

/**
 * Refunds (spec: Refund, Refund status, Refund payloads). A Pix refund is
 * `PROCESSING` until the provider returns the money (`CONFIRMED`, with the
 * return's `returnIdentification`) or refuses (`ERROR`); a card refund is
 * answered by the acquirer at once. Split receivers return their part in
 * proportion; what one lacks becomes a debt (`sdb_`) paid from its next
 * credits.
 */
import { Schema } from "effect"
import { Cents } from "../money/Money.ts"
import { ErrorFields } from "./Errors.ts"
import { AccountId, ChargeId, DebtId, RefundId } from "./Ids.ts"

export const RefundReason = Schema.Literals(["CUSTOMER_REQUEST", "FRAUD", "BANK_ERROR", "PIX_CHANGE_ERROR"])
export type RefundReason = typeof RefundReason.Type

/** Why a refund was made: a merchant's reason, or `CHARGEBACK` for a card dispute the acquirer took back (`domain/Dispute.ts`). */
export const RefundRecordReason = Schema.Literals([...RefundReason.literals, "CHARGEBACK"])
export type RefundRecordReason = typeof RefundRecordReason.Type

export const RefundStatus = Schema.Literals(["PROCESSING", "CONFIRMED", "ERROR"])
export type RefundStatus = typeof RefundStatus.Type

/** One receiver's part of a refund: returned from its balance, or `PENDING` with the debt for what it lacked. */
export const SplitReversal = Schema.Struct({
  accountId: AccountId,
  accountNumber: Schema.String,
  amount: Cents,
  /** What it paid at once: from the charge's receivable (a card's), then from its balance. */
  reversed: Cents,
  status: Schema.Literals(["REVERSED", "PENDING"]),
  debtId: Schema.NullOr(DebtId)
})
export type SplitReversal = typeof SplitReversal.Type

/** What a card refund took of a holder's receivable (of the charge refunded) before it settled. */
export const ReceivableTaken = Schema.Struct({
  receivableId: Schema.String,
  holder: Schema.String,
  amount: Cents
})
export type ReceivableTaken = typeof ReceivableTaken.Type

/** What the owner could not pay of a chargeback (a merchant's own refund never leaves one): a debt paid from its next credits. */
export const OwnerDebt = Schema.Struct({ debtId: DebtId, amount: Cents })
export type OwnerDebt = typeof OwnerDebt.Type

/** A refund: the one definition its row, views and event bodies derive from. */
export const Refund = Schema.Struct({
  id: RefundId,
  accountId: AccountId,
  chargeId: ChargeId,
  paymentType: Schema.Literals(["PIX", "CREDIT_CARD"]),
  /** The end-to-end id of the Pix payment refunded. */
  endToEndId: Schema.NullOr(Schema.String),
  amount: Cents,
  reason: Schema.NullOr(RefundRecordReason),
  status: RefundStatus,
  /** The return's own end-to-end id (`D…`), once the provider made it. */
  returnIdentification: Schema.NullOr(Schema.String),
  /** A card refund's: the acquirer's id of the payment refunded. */
  providerChargeId: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  splitReversals: Schema.Array(SplitReversal),
  /** A card refund's parts paid from the charge's own receivables, newest installment first, before the balances. */
  receivablesTaken: Schema.Array(ReceivableTaken),
  ownerDebt: Schema.NullOr(OwnerDebt),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "Refund" })
export type Refund = typeof Refund.Type

/** 400: the refunds of the charge would pass what was paid (the database refuses it too). */
export class RefundAmountExceeded extends Schema.TaggedError<RefundAmountExceeded>()("REFUND_AMOUNT_EXCEEDED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: the charge is not a paid Pix or card charge (open, failed, expired, a boleto, or refunded in full). */
export class ChargeNotRefundable extends Schema.TaggedError<ChargeNotRefundable>()("CHARGE_NOT_REFUNDABLE", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404: no refund with this id on the account. */
export class RefundNotFound extends Schema.TaggedError<RefundNotFound>()("REFUND_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

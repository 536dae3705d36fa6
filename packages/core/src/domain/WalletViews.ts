/**
 * The wallet as the HTTP API shows it: the spec's wallet transaction (a
 * statement line of the ledger), the provider's balance and withdrawal
 * shapes where the spec leaves them "not shown". Amounts are `ReaisJson`.
 */
import { Schema } from "effect"
import { type LedgerLine, LedgerCategory, LedgerLine as Line } from "./Ledger.ts"
import { Identifier, idInput, optional, QueryInt, Text } from "./Values.ts"
import { Withdrawal, type Withdrawal as WithdrawalType, PixKeyType } from "./Withdrawal.ts"
import { Instant, ReaisJson } from "./Wire.ts"
import { Reais } from "../money/Money.ts"
import { Dispute, type Dispute as DisputeType } from "./Dispute.ts"
import { MedInfraction, type MedInfraction as MedInfractionType } from "./Med.ts"
import { PixClaim, type PixClaim as PixClaimType } from "./PixClaim.ts"
import { Refund, type Refund as RefundType, RefundReason } from "./Refund.ts"
import { ChargeId, RefundId } from "./Ids.ts"

const line = Line.fields
const w = Withdrawal.fields

/** One account's balances: the provider's three, the retained (blocked) amount, and who it is. */
export const BalanceView = Schema.Struct({
  accountNumber: Schema.String,
  name: Schema.String,
  availableBalance: ReaisJson,
  pendingBalance: ReaisJson,
  retainedBalance: ReaisJson,
  totalBalance: ReaisJson,
  /** What the account owes for split reversals and chargebacks it could not pay (zero or positive); paid from its next credits. */
  debtBalance: ReaisJson
}).annotate({ identifier: "WalletBalance" })

/** Several accounts at once (the header named `accountId`): the provider's `balances[]`, each with `balance` (available). */
export const BalancesView = Schema.Struct({
  masterAccountId: Schema.String,
  balances: Schema.Array(Schema.Struct({ ...BalanceView.fields, balance: ReaisJson }))
}).annotate({ identifier: "WalletBalances" })

/** The spec's wallet transaction. */
export const WalletTransactionView = Schema.Struct({
  transactionId: line.id,
  type: Schema.Literals(["CREDIT", "DEBIT"]),
  category: line.category,
  amount: ReaisJson,
  balanceAfter: ReaisJson,
  title: line.title,
  paymentMethod: line.paymentMethod,
  chargeId: line.chargeId,
  subscriptionId: line.subscriptionId,
  endToEndId: line.endToEndId,
  counterparty: line.counterparty,
  referenceId: line.referenceId,
  description: line.description,
  note: line.note,
  createdAt: Instant
}).annotate({ identifier: "WalletTransaction" })

/** A statement line as the spec shows it: the direction as `type`, the amount unsigned. */
export const toTransactionView = (l: LedgerLine): typeof WalletTransactionView.Type => ({
  transactionId: l.id,
  type: l.amount > 0 ? "CREDIT" : "DEBIT",
  category: l.category,
  amount: Math.abs(l.amount) as typeof l.amount,
  balanceAfter: l.balanceAfter!,
  title: l.title,
  paymentMethod: l.paymentMethod,
  chargeId: l.chargeId,
  subscriptionId: l.subscriptionId,
  endToEndId: l.endToEndId,
  counterparty: l.counterparty,
  referenceId: l.referenceId,
  description: l.description,
  note: l.note,
  createdAt: l.createdAt
})

/** `GET /v1/wallet/transactions` query (spec: Wallet; `accountId` optional as the provider's master variant). */
export const StatementQuery = Schema.Struct({
  accountId: optional(Identifier),
  type: optional(Schema.Literals(["CREDIT", "DEBIT"])),
  category: optional(LedgerCategory),
  dateFrom: optional(Identifier),
  dateTo: optional(Identifier),
  limit: optional(QueryInt),
  nextPageToken: optional(Identifier)
})
export type StatementQuery = typeof StatementQuery.Type

export const StatementView = Schema.Struct({
  accountId: Schema.String,
  transactions: Schema.Array(WalletTransactionView),
  nextPageToken: Schema.NullOr(Schema.String),
  hasMore: Schema.Boolean
}).annotate({ identifier: "WalletStatement" })

/** `PATCH /v1/wallet/transactions/{id}`: the merchant's note on a statement line. */
export const TransactionNoteRequest = Schema.Struct({ note: Text })

/** `POST /v1/wallet/withdraw` body. */
export const WithdrawRequest = Schema.Struct({
  amount: Reais,
  pixKey: Identifier,
  pixKeyType: PixKeyType,
  accountId: optional(Identifier),
  /** The provider's optional holder document; checked against the account's when sent. */
  documentNumber: optional(Identifier),
  description: optional(Text)
})
export type WithdrawRequest = typeof WithdrawRequest.Type

/** `POST /v1/wallet/dict`: the key to look up. */
export const DictRequest = Schema.Struct({ pixKey: Identifier, pixKeyType: PixKeyType })
export type DictRequest = typeof DictRequest.Type

export const DictView = Schema.Struct({
  pixKey: Schema.String,
  pixKeyType: PixKeyType,
  name: Schema.String,
  document: Schema.String,
  bank: Schema.String
}).annotate({ identifier: "PixKeyHolder" })

/**
 * A withdrawal or transfer: the provider's answer (`withdrawalId`, `status`,
 * `amount`, `accountNumber`) and the rest of it; a transfer's `receiver` as
 * the DICT named it.
 */
export const WithdrawalView = Schema.Struct({
  withdrawalId: w.id,
  type: w.kind,
  status: w.status,
  amount: ReaisJson,
  fee: ReaisJson,
  accountNumber: w.accountNumber,
  pixKey: w.pixKey,
  pixKeyType: w.pixKeyType,
  receiver: w.receiver,
  description: w.description,
  endToEndId: w.endToEndId,
  failureReason: w.failureReason,
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "Withdrawal" })

export const toWithdrawalView = (x: WithdrawalType): typeof WithdrawalView.Type => ({
  withdrawalId: x.id,
  type: x.kind,
  status: x.status,
  amount: x.amount,
  fee: x.fee,
  accountNumber: x.accountNumber,
  pixKey: x.pixKey,
  pixKeyType: x.pixKeyType,
  receiver: x.receiver,
  description: x.description,
  endToEndId: x.endToEndId,
  failureReason: x.failureReason,
  createdAt: x.createdAt,
  updatedAt: x.updatedAt
})

/** `GET /v1/wallet/withdrawals` query. */
export const WithdrawalListQuery = Schema.Struct({
  accountId: optional(Identifier),
  limit: optional(QueryInt),
  lastKey: optional(Identifier)
})
export type WithdrawalListQuery = typeof WithdrawalListQuery.Type

export const WithdrawalListView = Schema.Struct({
  items: Schema.Array(WithdrawalView),
  pagination: Schema.Struct({ total: Schema.Int, limit: Schema.Int, hasMore: Schema.Boolean, lastKey: Schema.NullOr(Schema.String) })
}).annotate({ identifier: "WithdrawalList" })

/** `POST /v1/wallet/refunds`: Pix by `endToEndId` with `reason`; card by `chargeId`; `amount` for a partial refund. */
export const RefundRequest = Schema.Struct({
  endToEndId: optional(Identifier),
  chargeId: optional(idInput(ChargeId)),
  amount: optional(Reais),
  reason: optional(RefundReason),
  accountId: optional(Identifier),
  description: optional(Text)
})
export type RefundRequest = typeof RefundRequest.Type

const r = Refund.fields

/** A refund as the API shows it: the provider's answer (`refundId`, `status`, ...) with `success` and the split reversals. */
export const RefundView = Schema.Struct({
  success: Schema.Boolean,
  refundId: r.id,
  status: r.status,
  amount: ReaisJson,
  reason: r.reason,
  chargeId: r.chargeId,
  paymentType: r.paymentType,
  endToEndId: r.endToEndId,
  returnIdentification: r.returnIdentification,
  providerChargeId: r.providerChargeId,
  error: r.error,
  splitReversals: Schema.Array(Schema.Struct({
    accountNumber: Schema.String,
    amount: ReaisJson,
    status: Schema.Literals(["REVERSED", "PENDING"]),
    debtId: Schema.NullOr(Schema.String)
  })),
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "Refund" })

export const toRefundView = (x: RefundType): typeof RefundView.Type => ({
  success: x.status !== "ERROR",
  refundId: x.id,
  status: x.status,
  amount: x.amount,
  reason: x.reason,
  chargeId: x.chargeId,
  paymentType: x.paymentType,
  endToEndId: x.endToEndId,
  returnIdentification: x.returnIdentification,
  providerChargeId: x.providerChargeId,
  error: x.error,
  splitReversals: x.splitReversals.map((s) => ({ accountNumber: s.accountNumber, amount: s.amount, status: s.status, debtId: s.debtId })),
  createdAt: x.createdAt,
  updatedAt: x.updatedAt
})

/** `GET /v1/wallet/refunds`: one refund by `refundId`, or the list (the provider's query). */
export const RefundQuery = Schema.Struct({
  refundId: optional(idInput(RefundId)),
  accountId: optional(Identifier),
  limit: optional(QueryInt),
  lastKey: optional(Identifier),
  startDate: optional(Identifier),
  endDate: optional(Identifier)
})
export type RefundQuery = typeof RefundQuery.Type

export const RefundListView = Schema.Struct({
  items: Schema.Array(RefundView),
  pagination: WithdrawalListView.fields.pagination
}).annotate({ identifier: "RefundList" })

/** `GET /v1/wallet/receivables` query: an account and a range of days (today and the next 400 by default). */
export const ReceivablesQuery = Schema.Struct({
  accountId: optional(Identifier),
  dateFrom: optional(Identifier),
  dateTo: optional(Identifier)
})
export type ReceivablesQuery = typeof ReceivablesQuery.Type

export const ReceivablesView = Schema.Struct({
  accountId: Schema.String,
  dateFrom: Schema.String,
  dateTo: Schema.String,
  total: ReaisJson,
  days: Schema.Array(Schema.Struct({ date: Schema.String, amount: ReaisJson, count: Schema.Int }))
}).annotate({ identifier: "Receivables" })

export const ReceivablesCalendarView = Schema.Struct({
  accountId: Schema.String,
  date: Schema.String,
  total: ReaisJson,
  hasMore: Schema.Boolean,
  items: Schema.Array(Schema.Struct({
    receivableId: Schema.String,
    chargeId: Schema.String,
    installment: Schema.Int,
    paymentMethod: Schema.Literals(["BOLETO", "CREDIT_CARD"]),
    amount: ReaisJson
  }))
}).annotate({ identifier: "ReceivablesCalendar" })

/** A paid charge contested in the sandbox, how much of it (what is left to refund by default) and why: a MED infraction or a card dispute. */
const ChargeContestRequest = Schema.Struct({
  chargeId: idInput(ChargeId),
  amount: optional(Reais),
  reason: optional(Identifier)
})

/** `POST /v1/sandbox/med/infractions`: a paid Pix charge contested. */
export const MedInfractionRequest = ChargeContestRequest
export type MedInfractionRequest = typeof MedInfractionRequest.Type

const med = MedInfraction.fields

export const MedInfractionView = Schema.Struct({
  infractionId: med.id,
  chargeId: med.chargeId,
  endToEndId: med.endToEndId,
  amount: ReaisJson,
  blockedAmount: ReaisJson,
  reason: med.reason,
  status: med.status,
  refundId: med.refundId,
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "MedInfraction" })

export const toMedInfractionView = (m: MedInfractionType): typeof MedInfractionView.Type => ({
  infractionId: m.id,
  chargeId: m.chargeId,
  endToEndId: m.endToEndId,
  amount: m.amount,
  blockedAmount: m.blocked,
  reason: m.reason,
  status: m.status,
  refundId: m.refundId,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt
})

/** `POST /v1/sandbox/disputes`: a paid card charge contested. */
export const DisputeRequest = ChargeContestRequest
export type DisputeRequest = typeof DisputeRequest.Type

const dispute = Dispute.fields

export const DisputeView = Schema.Struct({
  disputeId: dispute.id,
  chargeId: dispute.chargeId,
  amount: ReaisJson,
  reason: dispute.reason,
  status: dispute.status,
  /** The chargeback (a refund of reason `CHARGEBACK`) once lost. */
  refundId: dispute.refundId,
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "Dispute" })

export const toDisputeView = (d: DisputeType): typeof DisputeView.Type => ({
  disputeId: d.id,
  chargeId: d.chargeId,
  amount: d.amount,
  reason: d.reason,
  status: d.status,
  refundId: d.refundId,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt
})

/** `GET /v1/wallet/reconciliation` query: the São Paulo day (today by default) and the account. */
export const ReconciliationQuery = Schema.Struct({
  date: optional(Identifier),
  accountId: optional(Identifier)
})
export type ReconciliationQuery = typeof ReconciliationQuery.Type

const RailMovement = Schema.Struct({
  endToEndId: Schema.String,
  direction: Schema.Literals(["CREDIT", "DEBIT"]),
  amount: ReaisJson,
  at: Instant
})
const RailTotals = Schema.Struct({ count: Schema.Int, credits: ReaisJson, debits: ReaisJson })

export const ReconciliationView = Schema.Struct({
  accountId: Schema.String,
  date: Schema.String,
  ledger: RailTotals,
  provider: RailTotals,
  matched: Schema.Int,
  reconciled: Schema.Boolean,
  missingInProvider: Schema.Array(RailMovement),
  missingInLedger: Schema.Array(RailMovement),
  differing: Schema.Array(Schema.Struct({ endToEndId: Schema.String, ledger: RailMovement, provider: RailMovement }))
}).annotate({ identifier: "Reconciliation" })

/** `POST /v1/wallet/pix-claims` body (spec: `pixKey`, `pixKeyType`). */
export const PixClaimRequest = Schema.Struct({
  pixKey: Identifier,
  pixKeyType: PixKeyType,
  accountId: optional(Identifier)
})
export type PixClaimRequest = typeof PixClaimRequest.Type

const claim = PixClaim.fields

export const PixClaimView = Schema.Struct({
  claimId: claim.id,
  status: claim.status,
  pixKey: claim.pixKey,
  pixKeyType: claim.pixKeyType,
  accountNumber: claim.accountNumber,
  resolutionDeadline: Instant,
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "PixClaim" })

export const toPixClaimView = (c: PixClaimType): typeof PixClaimView.Type => ({
  claimId: c.id,
  status: c.status,
  pixKey: c.pixKey,
  pixKeyType: c.pixKeyType,
  accountNumber: c.accountNumber,
  resolutionDeadline: c.resolutionDeadline,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt
})

export const PixClaimListView = Schema.Struct({ items: Schema.Array(PixClaimView) }).annotate({ identifier: "PixClaimList" })

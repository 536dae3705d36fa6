/** `/v1/wallet`: balance, statement, Pix withdrawals, refunds, and the sandbox payment simulation. */
import {
  BalancesView,
  BalanceView,
  ChargeNotFound,
  ChargeNotPayable,
  ChargeNotRefundable,
  DailyLimitExceeded,
  DictRequest,
  DictView,
  InsufficientBalance,
  InvalidData,
  LedgerLineId,
  MissingChargeId,
  NotFound,
  NotSandboxAccount,
  OwnershipMismatch,
  PixClaimClosed,
  PixClaimId,
  PixClaimInProgress,
  PixClaimListView,
  PixClaimNotFound,
  PixClaimRequest,
  PixClaimView,
  PixKeyNotFound,
  ProviderNotConfigured,
  ProviderUnavailable,
  ReceivablesCalendarView,
  ReceivablesQuery,
  ReceivablesView,
  ReconciliationQuery,
  ReconciliationView,
  RefundAmountExceeded,
  RefundListView,
  RefundNotFound,
  RefundQuery,
  RefundRequest,
  RefundView,
  StatementQuery,
  StatementView,
  SubAccountNotOwned,
  TransactionNoteRequest,
  WalletTransactionView,
  WithdrawalListQuery,
  WithdrawalListView,
  WithdrawalView,
  WithdrawRequest
} from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { chargeErrors } from "./Charges.ts"
import { authenticated, ChargeIdParam, ForeignSubAccountCode, Id, idOf, requires } from "./Common.ts"

/** The refusals of a route that names an account by `accountId`. */
const accountErrors = [enveloped(SubAccountNotOwned), enveloped(NotFound)] as const

export class WalletGroup extends HttpApiGroup.make("wallet")
  .add(
    HttpApiEndpoint.post("pay", "/pay/:chargeId", {
      params: ChargeIdParam,
      success: Schema.Struct({ chargeId: Schema.String, status: Schema.Literal("PROCESSING"), message: Schema.String }),
      // Another master's sub-account in `X-Sub-Account` is 401 OWNERSHIP_MISMATCH on every wallet route.
      error: [...chargeErrors, enveloped(NotSandboxAccount), enveloped(ChargeNotPayable), enveloped(SubAccountNotOwned)]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Pay a charge in the sandbox"),
    HttpApiEndpoint.get("balance", "/balance", {
      query: { accountId: Schema.optionalKey(Id) },
      // Several accounts at once: a header named `accountId`, numbers separated by commas (spec: Wallet).
      headers: { accountid: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(2_000)))) },
      success: [BalanceView, BalancesView],
      error: [enveloped(InvalidData), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "Balance of the account, a sub-account or several"),
    HttpApiEndpoint.get("transactions", "/transactions", {
      query: StatementQuery,
      success: StatementView,
      error: [enveloped(InvalidData), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "Statement"),
    HttpApiEndpoint.patch("noteTransaction", "/transactions/:transactionId", {
      params: { transactionId: idOf(LedgerLineId) },
      query: { accountId: Schema.optionalKey(Id) },
      payload: TransactionNoteRequest,
      success: WalletTransactionView,
      error: [enveloped(InvalidData), ...accountErrors]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Keep a note on a statement line"),
    HttpApiEndpoint.post("withdraw", "/withdraw", {
      payload: WithdrawRequest,
      success: WithdrawalView,
      error: [
        enveloped(InvalidData),
        enveloped(OwnershipMismatch),
        enveloped(InsufficientBalance),
        enveloped(DailyLimitExceeded),
        enveloped(ProviderNotConfigured),
        ...accountErrors
      ]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Pix withdrawal to a key of the same holder"),
    HttpApiEndpoint.post("pixTransfer", "/pix-transfer", {
      payload: WithdrawRequest,
      success: WithdrawalView,
      error: [
        enveloped(InvalidData),
        enveloped(PixKeyNotFound),
        enveloped(InsufficientBalance),
        enveloped(DailyLimitExceeded),
        enveloped(ProviderNotConfigured),
        ...accountErrors
      ]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Pix to a third party's key"),
    HttpApiEndpoint.post("dict", "/dict", {
      payload: DictRequest,
      success: DictView,
      error: [enveloped(InvalidData), enveloped(PixKeyNotFound), enveloped(SubAccountNotOwned), enveloped(ProviderNotConfigured)]
    })
      .annotateMerge(requires("wallet/read", "wallet/write"))
      .annotate(OpenApi.Summary, "Look a Pix key up in the DICT"),
    HttpApiEndpoint.get("withdrawals", "/withdrawals", {
      query: WithdrawalListQuery,
      success: WithdrawalListView,
      error: [enveloped(InvalidData), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "List withdrawals and Pix transfers"),
    HttpApiEndpoint.post("refund", "/refunds", {
      payload: RefundRequest,
      // 201 as the provider answers; a card refund is CONFIRMED at once, a Pix one PROCESSING.
      success: RefundView.pipe(HttpApiSchema.status(201)),
      error: [
        enveloped(InvalidData),
        enveloped(MissingChargeId),
        enveloped(ChargeNotFound),
        enveloped(ChargeNotRefundable),
        enveloped(RefundAmountExceeded),
        enveloped(InsufficientBalance),
        enveloped(ProviderNotConfigured),
        ...accountErrors
      ]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Refund a Pix or card charge, in full or in part"),
    HttpApiEndpoint.get("refunds", "/refunds", {
      query: RefundQuery,
      success: [RefundView, RefundListView],
      error: [enveloped(InvalidData), enveloped(RefundNotFound), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "A refund's status (refundId), or the list of refunds"),
    HttpApiEndpoint.get("receivables", "/receivables", {
      query: ReceivablesQuery,
      success: ReceivablesView,
      error: [enveloped(InvalidData), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "Future credits (boleto, card installments) by settlement day"),
    HttpApiEndpoint.get("receivablesCalendar", "/receivables-calendar/:day", {
      params: { day: Id },
      query: { accountId: Schema.optionalKey(Id) },
      success: ReceivablesCalendarView,
      error: [enveloped(InvalidData), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "The credits settling on one day"),
    HttpApiEndpoint.get("reconciliation", "/reconciliation", {
      query: ReconciliationQuery,
      success: ReconciliationView,
      error: [enveloped(InvalidData), enveloped(ProviderUnavailable), enveloped(ProviderNotConfigured), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "The ledger against the Pix provider's statement for one day"),
    HttpApiEndpoint.post("requestPixClaim", "/pix-claims", {
      payload: PixClaimRequest,
      success: PixClaimView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(OwnershipMismatch), enveloped(PixClaimInProgress), ...accountErrors]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Claim a Pix key registered elsewhere (portability)"),
    HttpApiEndpoint.get("pixClaims", "/pix-claims", {
      query: { accountId: Schema.optionalKey(Id) },
      success: PixClaimListView,
      error: [enveloped(InvalidData), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "List Pix key claims"),
    HttpApiEndpoint.get("pixClaim", "/pix-claims/:claimId", {
      params: { claimId: idOf(PixClaimId) },
      query: { accountId: Schema.optionalKey(Id) },
      success: PixClaimView,
      error: [enveloped(InvalidData), enveloped(PixClaimNotFound), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "Read a Pix key claim"),
    HttpApiEndpoint.post("cancelPixClaim", "/pix-claims/:claimId/cancel", {
      params: { claimId: idOf(PixClaimId) },
      query: { accountId: Schema.optionalKey(Id) },
      success: PixClaimView,
      error: [enveloped(InvalidData), enveloped(PixClaimNotFound), enveloped(PixClaimClosed), ...accountErrors]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Cancel an open Pix key claim")
  )
  .pipe(authenticated({ prefix: "/v1/wallet", title: "Wallet", description: "Balance, statement, withdrawals, refunds and the sandbox payment simulation" }))
  // Another master's sub-account in `X-Sub-Account` is 401 `OWNERSHIP_MISMATCH` here, as the provider answers its wallet routes.
  .annotate(ForeignSubAccountCode, "OWNERSHIP_MISMATCH")
{}

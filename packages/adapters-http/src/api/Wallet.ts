/** `/v1/wallet`: balance, statement, Pix withdrawals, and the sandbox payment simulation. */
import {
  BalancesView,
  BalanceView,
  ChargeNotPayable,
  DailyLimitExceeded,
  InsufficientBalance,
  InvalidData,
  NotFound,
  NotSandboxAccount,
  OwnershipMismatch,
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
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { chargeErrors } from "./Charges.ts"
import { authenticated, ChargeIdParam, Id, requires } from "./Common.ts"

/** The refusals of a route that names an account by `accountId`. */
const accountErrors = [enveloped(SubAccountNotOwned), enveloped(NotFound)] as const

export class WalletGroup extends HttpApiGroup.make("wallet")
  .add(
    HttpApiEndpoint.post("pay", "/pay/:chargeId", {
      params: ChargeIdParam,
      success: Schema.Struct({ chargeId: Schema.String, status: Schema.Literal("PROCESSING"), message: Schema.String }),
      error: [...chargeErrors, enveloped(NotSandboxAccount), enveloped(ChargeNotPayable)]
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
      params: { transactionId: Id },
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
        ...accountErrors
      ]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Pix withdrawal to a key of the same holder"),
    HttpApiEndpoint.get("withdrawals", "/withdrawals", {
      query: WithdrawalListQuery,
      success: WithdrawalListView,
      error: [enveloped(InvalidData), ...accountErrors]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "List withdrawals")
  )
  .pipe(authenticated({ prefix: "/v1/wallet", title: "Wallet", description: "Balance, statement, withdrawals and the sandbox payment simulation" }))
{}

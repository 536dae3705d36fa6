/** Handlers of `/v1/wallet`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const WalletHandlers = HttpApiBuilder.group(BillingApi, "wallet", Effect.fn("Handlers.wallet")(function*(handlers) {
  const provide = yield* capture<
    | Services<ReturnType<typeof Billing.requestSandboxPayment>>
    | Services<ReturnType<typeof Billing.walletBalance>>
    | Services<ReturnType<typeof Billing.walletStatement>>
    | Services<ReturnType<typeof Billing.noteTransaction>>
    | Services<ReturnType<typeof Billing.withdraw>>
    | Services<ReturnType<typeof Billing.listWithdrawals>>
    | Services<ReturnType<typeof Billing.pixTransfer>>
    | Services<ReturnType<typeof Billing.lookupPixKey>>
    | Services<ReturnType<typeof Billing.requestRefund>>
    | Services<ReturnType<typeof Billing.getRefunds>>
    | Services<ReturnType<typeof Billing.receivables>>
    | Services<ReturnType<typeof Billing.receivablesCalendar>>
    | Services<ReturnType<typeof Billing.reconciliation>>
    | Services<ReturnType<typeof Billing.requestPixClaim>>
  >()
  return handlers
    .handle("pay", ({ params }) => provide(Billing.requestSandboxPayment(params.chargeId)))
    .handle("balance", ({ headers, query }) => provide(Billing.walletBalance({ accountId: query.accountId, accounts: headers.accountid })))
    .handle("transactions", ({ query }) => provide(Billing.walletStatement(query)))
    .handle("noteTransaction", ({ params, payload, query }) => provide(Billing.noteTransaction(params.transactionId, payload.note, query.accountId)))
    .handle("withdraw", ({ payload }) => provide(Billing.withdraw(payload)))
    .handle("pixTransfer", ({ payload }) => provide(Billing.pixTransfer(payload)))
    .handle("dict", ({ payload }) => provide(Billing.lookupPixKey(payload)))
    .handle("withdrawals", ({ query }) => provide(Billing.listWithdrawals(query)))
    .handle("refund", ({ payload }) => provide(Billing.requestRefund(payload)))
    .handle("refunds", ({ query }) => provide(Billing.getRefunds(query)))
    .handle("receivables", ({ query }) => provide(Billing.receivables(query)))
    .handle("receivablesCalendar", ({ params, query }) => provide(Billing.receivablesCalendar(params.day, query.accountId)))
    .handle("reconciliation", ({ query }) => provide(Billing.reconciliation(query)))
    .handle("requestPixClaim", ({ payload }) => provide(Billing.requestPixClaim(payload)))
    .handle("pixClaims", ({ query }) => provide(Billing.listPixClaims(query.accountId)))
    .handle("pixClaim", ({ params, query }) => provide(Billing.getPixClaim(params.claimId, query.accountId)))
    .handle("cancelPixClaim", ({ params, query }) => provide(Billing.cancelPixClaim(params.claimId, query.accountId)))
}))

/** Handlers of `/v1/wallet`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const WalletHandlers = HttpApiBuilder.group(BillingApi, "wallet", Effect.fn("Handlers.wallet")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.requestSandboxPayment>>>()
  return handlers.handle("pay", ({ params }) => provide(Billing.requestSandboxPayment(params.chargeId)))
}))

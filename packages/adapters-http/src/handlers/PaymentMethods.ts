/** Handlers of `/v1/payment-methods`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const PaymentMethodsHandlers = HttpApiBuilder.group(
  BillingApi,
  "paymentMethods",
  Effect.fn("Handlers.paymentMethods")(function*(handlers) {
    const provide = yield* capture<Services<ReturnType<typeof Billing.tokenizeCard>>>()
    return handlers
      .handle("tokenize", ({ payload }) => provide(Billing.tokenizeCard(payload)))
      .handle("tokenizeAlias", ({ payload }) => provide(Billing.tokenizeCard(payload)))
  })
)

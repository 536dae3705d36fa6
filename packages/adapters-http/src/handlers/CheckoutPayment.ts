/** Handler of the public payment of checkout links and sessions. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { withPdfUrl } from "./Charges.ts"
import { capture, type Services } from "./Common.ts"

export const CheckoutPaymentHandlers = HttpApiBuilder.group(BillingApi, "checkoutPayment", Effect.fn("Handlers.checkoutPayment")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.payCheckout>>>()
  return handlers.handle("pay", ({ payload }) => Effect.flatMap(provide(Billing.payCheckout(payload)), withPdfUrl))
}))

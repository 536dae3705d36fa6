/** Handlers of `/v1/checkout-sessions`. Session URLs are absolute, on the host the client called. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, origin, type Services } from "./Common.ts"

export const CheckoutSessionsHandlers = HttpApiBuilder.group(
  BillingApi,
  "checkoutSessions",
  Effect.fn("Handlers.checkoutSessions")(function*(handlers) {
    const provide = yield* capture<Services<ReturnType<typeof Billing.createCheckoutSession>>>()
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(origin, (o) => provide(Billing.createCheckoutSession(payload, o))))
      .handle("get", ({ params }) => Effect.flatMap(origin, (o) => provide(Billing.getCheckoutSession(params.id, o))))
  })
)

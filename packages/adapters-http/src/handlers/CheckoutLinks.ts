/** Handlers of `/v1/checkouts`. Link URLs are absolute, on the host the client called. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, origin, type Services } from "./Common.ts"

export const CheckoutLinksHandlers = HttpApiBuilder.group(
  BillingApi,
  "checkoutLinks",
  Effect.fn("Handlers.checkoutLinks")(function*(handlers) {
    const provide = yield* capture<
      Services<ReturnType<typeof Billing.createCheckoutLink>> | Services<ReturnType<typeof Billing.createCheckoutSession>>
    >()
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(origin, (o) => provide(Billing.createCheckoutLink(payload, o))))
      .handle("createSession", ({ payload }) => Effect.flatMap(origin, (o) => provide(Billing.createCheckoutSession(payload, o))))
      .handle("list", ({ query }) => Effect.flatMap(origin, (o) => provide(Billing.listCheckoutLinks(query, o))))
      .handle("get", ({ params }) => Effect.flatMap(origin, (o) => provide(Billing.getCheckoutLink(params.id, o))))
      .handle("update", ({ params, payload }) =>
        Effect.flatMap(origin, (o) => provide(Billing.updateCheckoutLink(params.id, payload, o))))
  })
)

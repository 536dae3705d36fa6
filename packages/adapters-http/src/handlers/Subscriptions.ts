/** Handlers of `/v1/subscriptions`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, origin, type Services } from "./Common.ts"

export const SubscriptionsHandlers = HttpApiBuilder.group(BillingApi, "subscriptions", Effect.fn("Handlers.subscriptions")(function*(handlers) {
  const provide = yield* capture<
    Services<ReturnType<typeof Billing.getSubscription>> | Services<ReturnType<typeof Billing.cancelSubscription>>
  >()
  return handlers
    .handle("list", ({ query }) => provide(Billing.listSubscriptions(query)))
    .handle("get", ({ params }) => Effect.flatMap(origin, (o) => provide(Billing.getSubscription(params.subscriptionId, o))))
    .handle("cancel", ({ params, payload }) => provide(Billing.cancelSubscription(params.subscriptionId, payload ?? {})))
    .handle("archive", ({ params }) => provide(Billing.archiveSubscription(params.subscriptionId)))
}))

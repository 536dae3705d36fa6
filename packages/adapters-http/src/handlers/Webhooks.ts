/** Handlers of `/v1/users/webhooks`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

type Needed =
  | Services<ReturnType<typeof Billing.registerWebhook>>
  | Services<ReturnType<typeof Billing.testWebhook>>
  | Services<ReturnType<typeof Billing.retryDelivery>>

export const WebhooksHandlers = HttpApiBuilder.group(BillingApi, "webhooks", Effect.fn("Handlers.webhooks")(function*(handlers) {
  const provide = yield* capture<Needed>()
  return handlers
    .handle("register", ({ payload }) => provide(Billing.registerWebhook(payload)))
    .handle("list", () => provide(Billing.listWebhooks()))
    .handle("deliveries", ({ query }) => provide(Billing.listDeliveries(query)))
    .handle("test", ({ payload }) => provide(Billing.testWebhook(payload)))
    .handle("get", ({ params }) => provide(Billing.getWebhook(params.webhookId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateWebhook(params.webhookId, payload)))
    .handle("remove", ({ params }) => provide(Billing.removeWebhook(params.webhookId)))
    .handle("retry", ({ params }) => provide(Billing.retryDelivery(params.webhookEventId)))
    .handle("retryEvent", ({ params }) => provide(Billing.retryDelivery(params.webhookEventId)))
}))

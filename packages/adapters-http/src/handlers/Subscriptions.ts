/** Handlers of `/v1/subscriptions`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, origin, type Services } from "./Common.ts"

export const SubscriptionsHandlers = HttpApiBuilder.group(BillingApi, "subscriptions", Effect.fn("Handlers.subscriptions")(function*(handlers) {
  const provide = yield* capture<
    | Services<ReturnType<typeof Billing.getSubscription>>
    | Services<ReturnType<typeof Billing.cancelSubscription>>
    | Services<ReturnType<typeof Billing.updateSubscription>>
  >()
  return handlers
    .handle("list", ({ query }) => provide(Billing.listSubscriptions(query)))
    .handle("get", ({ params }) => Effect.flatMap(origin, (o) => provide(Billing.getSubscription(params.subscriptionId, o))))
    .handle("cancel", ({ params, payload }) => provide(Billing.cancelSubscription(params.subscriptionId, payload ?? {})))
    .handle("archive", ({ params }) => provide(Billing.archiveSubscription(params.subscriptionId)))
    .handle("authorizeRecurrence", ({ params }) => provide(Billing.decideSandboxRecurrence(params.recurrencyId, "AUTHORIZED")))
    .handle("rejectRecurrence", ({ params }) => provide(Billing.decideSandboxRecurrence(params.recurrencyId, "REJECTED")))
    .handle("prorata", ({ params, payload }) => provide(Billing.previewPlanChange(params.subscriptionId, payload)))
    .handle("providerProrata", ({ payload }) => provide(Billing.providerProrata(payload)))
    .handle("changeItem", ({ params, payload }) => provide(Billing.changeItem(params.subscriptionId, { itemId: params.itemId }, payload)))
    .handle("addItem", ({ params, payload }) => provide(Billing.addItem(params.subscriptionId, payload)))
    .handle("retryPayment", ({ params }) => provide(Billing.retrySubscriptionPayment(params.subscriptionId)))
    .handle("approveCycle", ({ params }) => provide(Billing.approveHeldCycle(params.subscriptionId, params.cycleNumber)))
    .handle("update", ({ params, payload }) => provide(Billing.updateSubscription(params.subscriptionId, payload)))
    .handle("providerUpdate", ({ payload }) => provide(Billing.updateSubscription(payload.subscriptionId, payload)))
}))

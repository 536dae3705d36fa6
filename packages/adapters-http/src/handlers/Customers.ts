/** Handlers of `/v1/customers`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const CustomersHandlers = HttpApiBuilder.group(BillingApi, "customers", Effect.fn("Handlers.customers")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.createCustomer>> | Services<ReturnType<typeof Billing.getCustomer>>>()
  return handlers
    .handle("create", ({ payload }) => provide(Billing.createCustomer(payload)))
    .handle("list", ({ query }) => provide(Billing.queryCustomers(query)))
    .handle("get", ({ params }) => provide(Billing.getCustomer(params.customerId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateCustomer(params.customerId, payload)))
    .handle("replace", ({ params, payload }) => provide(Billing.updateCustomer(params.customerId, payload)))
    .handle("remove", ({ params }) => provide(Billing.deleteCustomer(params.customerId)))
}))

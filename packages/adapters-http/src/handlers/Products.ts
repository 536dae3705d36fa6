/** Handlers of `/v1/products`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const ProductsHandlers = HttpApiBuilder.group(BillingApi, "products", Effect.fn("Handlers.products")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.updateProduct>> | Services<ReturnType<typeof Billing.deleteProduct>>>()
  return handlers
    .handle("create", ({ payload }) => provide(Billing.createProduct(payload)))
    .handle("list", ({ query }) => provide(Billing.listProducts(query)))
    .handle("get", ({ params }) => provide(Billing.getProduct(params.productId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateProduct(params.productId, payload)))
    .handle("remove", ({ params }) => provide(Billing.deleteProduct(params.productId)))
    .handle("archive", ({ params }) => provide(Billing.archiveProduct(params.productId)))
}))

/** Handlers of `/v1/invoices/notas/config`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

type Needed = Services<ReturnType<typeof Billing.createNfseConfig>>

export const NfseConfigsHandlers = HttpApiBuilder.group(BillingApi, "nfseConfigs", Effect.fn("Handlers.nfseConfigs")(function*(handlers) {
  const provide = yield* capture<Needed>()
  return handlers
    .handle("create", ({ payload }) => provide(Billing.createNfseConfig(payload)))
    .handle("list", () => provide(Billing.listNfseConfigs()))
    .handle("get", ({ params }) => provide(Billing.getNfseConfig(params.configId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateNfseConfig(params.configId, payload)))
    .handle("remove", ({ params }) => provide(Billing.removeNfseConfig(params.configId)))
}))

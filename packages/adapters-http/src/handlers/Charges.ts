/** Handlers of `/v1/charges`: the transparent checkout and Pix charges. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, origin, type Services } from "./Common.ts"

type Needed =
  | Services<ReturnType<typeof Billing.createPixCharge>>
  | Services<ReturnType<typeof Billing.listCharges>>
  | Services<ReturnType<typeof Billing.cancelCharge>>
  | Services<ReturnType<typeof Billing.createCheckoutCharge>>

export const ChargesHandlers = HttpApiBuilder.group(BillingApi, "charges", Effect.fn("Handlers.charges")(function*(handlers) {
  const provide = yield* capture<Needed>()
  return handlers
    .handle("checkout", ({ payload }) =>
      Effect.gen(function*() {
        const result = yield* provide(Billing.createCheckoutCharge(payload))
        if (result.boleto === undefined) return result
        // The PDF link is absolute, on the host the client called.
        const { pdfPath, ...boleto } = result.boleto
        return { ...result, boleto: { ...boleto, pdfUrl: `${yield* origin}${pdfPath}` } }
      }))
    .handle("createPix", ({ payload }) => provide(Billing.createPixCharge(payload)))
    .handle("list", ({ query }) => provide(Billing.listCharges(query)))
    .handle("get", ({ params, query }) =>
      provide(Effect.map(Billing.getCharge(params.chargeId, query.view ?? "status"), (view) => view.body)))
    .handle("status", ({ params }) => provide(Billing.getChargeStatus(params.chargeId)))
    .handle("cancel", ({ params }) => provide(Billing.cancelCharge(params.chargeId)))
    .handle("archive", ({ params }) => provide(Billing.archiveCharge(params.chargeId)))
}))

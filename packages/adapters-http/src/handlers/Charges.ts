/** Handlers of `/v1/charges`: the transparent checkout and Pix charges. */
import { Billing, type CheckoutResponse, type CheckoutResult, type SubscriptionCheckoutResult } from "@billing/core"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, origin, type Services } from "./Common.ts"

/** The checkout's answer with the boleto's PDF link absolute, on the host the client called. */
export const withPdfUrl = (
  result: CheckoutResult | SubscriptionCheckoutResult
): Effect.Effect<typeof CheckoutResponse.Type, never, HttpServerRequest.HttpServerRequest> => {
  if (!("boleto" in result) || result.boleto === undefined) return Effect.succeed(result)
  const { pdfPath, ...boleto } = result.boleto
  return Effect.map(origin, (o) => ({ ...result, boleto: { ...boleto, pdfUrl: `${o}${pdfPath}` } }))
}

type Needed =
  | Services<ReturnType<typeof Billing.createPixCharge>>
  | Services<ReturnType<typeof Billing.listCharges>>
  | Services<ReturnType<typeof Billing.cancelCharge>>
  | Services<ReturnType<typeof Billing.createCheckoutCharge>>
  | Services<ReturnType<typeof Billing.createSingleCharge>>

export const ChargesHandlers = HttpApiBuilder.group(BillingApi, "charges", Effect.fn("Handlers.charges")(function*(handlers) {
  const provide = yield* capture<Needed>()
  return handlers
    .handle("checkout", ({ payload }) => Effect.flatMap(provide(Billing.createCheckoutCharge(payload)), withPdfUrl))
    .handle("single", ({ payload }) =>
      Effect.gen(function*() {
        const result = yield* provide(Billing.createSingleCharge(payload))
        // The boleto answers as the checkout does; Pix and card in the provider's own shapes.
        return "success" in result ? yield* withPdfUrl(result) : result
      }))
    .handle("createPix", ({ payload }) => provide(Billing.createPixCharge(payload)))
    .handle("list", ({ query }) => provide(Billing.listCharges(query)))
    .handle("get", ({ params, query }) =>
      provide(Effect.map(Billing.getCharge(params.chargeId, query.view ?? "status"), (view) => view.body)))
    .handle("status", ({ params }) => provide(Billing.getChargeStatus(params.chargeId)))
    .handle("cancel", ({ params }) => provide(Billing.cancelCharge(params.chargeId)))
    .handle("archive", ({ params }) => provide(Billing.archiveCharge(params.chargeId)))
}))

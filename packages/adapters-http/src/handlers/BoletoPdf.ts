/** Handlers of the public boleto PDF. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

export const BoletoPdfHandlers = HttpApiBuilder.group(BillingApi, "boletoPdf", Effect.fn("Handlers.boletoPdf")(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.boletoDocument>>>()
  return handlers.handle("pdf", ({ params }) => provide(Billing.boletoDocument(params.chargeId)))
}))

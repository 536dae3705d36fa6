/** Handlers of `/v1/invoices/notas`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"

type Needed = Services<ReturnType<typeof Billing.emitChargeNota>> | Services<ReturnType<typeof Billing.resendNota>>

export const NotasHandlers = HttpApiBuilder.group(BillingApi, "notas", Effect.fn("Handlers.notas")(function*(handlers) {
  const provide = yield* capture<Needed>()
  return handlers
    .handle("list", ({ query }) => provide(Billing.listNotas(query)))
    .handle("summary", () => provide(Billing.summarizeNotas()))
    .handle("get", ({ params }) => provide(Billing.getNota(params.notaId)))
    .handle("pdf", ({ params }) => provide(Effect.map(Billing.notaPdf(params.notaId), ({ pdf }) => pdf)))
    .handle("xml", ({ params }) => provide(Effect.map(Billing.notaXml(params.notaId), ({ xml }) => xml)))
    .handle("emitStandalone", ({ payload }) => provide(Billing.emitStandaloneNota(payload)))
    .handle("emit", ({ params, payload }) => provide(Billing.emitChargeNota(params.notaId, payload)))
    .handle("check", ({ params, payload }) => provide(Billing.checkNotaEmission(params.notaId, payload)))
    .handle("reissue", ({ params, payload }) => provide(Billing.reissueNota(params.notaId, payload)))
    .handle("resend", ({ params, payload }) => provide(Billing.resendNota(params.notaId, payload)))
    .handle("cancel", ({ params, query }) => provide(Billing.cancelNota(params.notaId, query.motivo)))
}))

/** `GET /v1/charges/:chargeId/boleto.pdf`: public, addressed by the unguessable charge id (as the provider's). */
import { ChargeNotBoleto, ChargeNotFound } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { ChargeIdParam } from "./Common.ts"

export class BoletoPdfGroup extends HttpApiGroup.make("boletoPdf")
  .add(
    HttpApiEndpoint.get("pdf", "/v1/charges/:chargeId/boleto.pdf", {
      params: ChargeIdParam,
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [enveloped(ChargeNotFound), enveloped(ChargeNotBoleto)]
    }).annotate(OpenApi.Summary, "Download the boleto PDF (public)")
  )
  .annotateMerge(OpenApi.annotations({ title: "Boleto PDF", description: "Public: no token needed" }))
{}

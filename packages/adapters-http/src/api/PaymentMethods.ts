/** `/v1/payment-methods`: card tokenization (`pm_`). */
import { CardInput, InvalidData, ProviderUnavailable } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, requires } from "./Common.ts"

export class PaymentMethodsGroup extends HttpApiGroup.make("paymentMethods")
  .add(
    HttpApiEndpoint.post("tokenize", "/", {
      payload: Schema.Struct({ card: CardInput }),
      success: Schema.Struct({
        paymentMethodId: Schema.String,
        brand: Schema.String,
        firstSix: Schema.String,
        lastFour: Schema.String,
        expiration: Schema.String
      }).pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(ProviderUnavailable)]
    })
      .annotateMerge(requires("payment.methods/write"))
      .annotate(OpenApi.Summary, "Tokenize a card")
  )
  .pipe(authenticated({ prefix: "/v1/payment-methods", title: "Payment methods", description: "Card tokenization (pm_)" }))
{}

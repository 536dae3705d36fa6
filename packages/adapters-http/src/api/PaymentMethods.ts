/** `/v1/payment-methods`: card tokenization (`pm_`). */
import { CardInput, InvalidData, ProviderNotConfigured, ProviderUnavailable } from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, requires } from "./Common.ts"

/** Card tokenization, at `/v1/payment-methods` and at the provider's `/v1/payment-methods/tokenize`. */
const tokenize = {
  payload: Schema.Struct({ card: CardInput }),
  success: Schema.Struct({
    paymentMethodId: Schema.String,
    brand: Schema.String,
    firstSix: Schema.String,
    lastFour: Schema.String,
    expiration: Schema.String
  }).pipe(HttpApiSchema.status(201)),
  error: [enveloped(InvalidData), enveloped(ProviderUnavailable), enveloped(ProviderNotConfigured)]
} as const

export class PaymentMethodsGroup extends HttpApiGroup.make("paymentMethods")
  .add(
    HttpApiEndpoint.post("tokenize", "/", tokenize)
      .annotateMerge(requires("payment.methods/write"))
      .annotate(OpenApi.Summary, "Tokenize a card"),
    HttpApiEndpoint.post("tokenizeAlias", "/tokenize", tokenize)
      .annotateMerge(requires("payment.methods/write"))
      .annotate(OpenApi.Summary, "Tokenize a card (the provider's path)")
  )
  .pipe(authenticated({ prefix: "/v1/payment-methods", title: "Payment methods", description: "Card tokenization (pm_)" }))
{}

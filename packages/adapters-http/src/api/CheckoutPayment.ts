/**
 * `POST /v1/checkouts/pay`: the payment of a hosted checkout link or
 * session (the provider's route). Public, as the hosted page that calls it:
 * the unguessable link or session id names the merchant.
 */
import {
  AccountNotFound,
  ChargeNotPayable,
  CheckoutNotFound,
  CheckoutResponse,
  PayCheckoutRequest,
  SessionNotFound
} from "@billing/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { checkoutErrors } from "./Charges.ts"
import { InvalidInput } from "./Common.ts"

export class CheckoutPaymentGroup extends HttpApiGroup.make("checkoutPayment")
  .add(
    HttpApiEndpoint.post("pay", "/v1/checkouts/pay", {
      payload: PayCheckoutRequest,
      success: CheckoutResponse,
      error: [
        ...checkoutErrors,
        enveloped(SessionNotFound),
        enveloped(CheckoutNotFound),
        enveloped(ChargeNotPayable),
        enveloped(AccountNotFound)
      ]
    }).annotate(OpenApi.Summary, "Pay a checkout link or session (public; a recurring price starts a subscription)")
  )
  .middleware(InvalidInput)
  .annotateMerge(OpenApi.annotations({ title: "Checkout payment", description: "Public: the link or session id names the merchant" }))
{}

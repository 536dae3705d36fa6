/** `/v1/charges`: the transparent checkout and Pix charges (create, read, list, cancel, archive). */
import {
  ChargeDetailView,
  ChargeLeanStatus,
  ChargeList,
  ChargeListQuery,
  ChargeNotArchivable,
  ChargeNotCancelable,
  ChargeNotFound,
  ChargeStatusView,
  CheckoutRequest,
  CheckoutResponse,
  DuplicateCharge,
  InvalidData,
  MissingCardData,
  MissingChargeId,
  NfConfigNotFound,
  PixAutomaticoPjOnly,
  PixChargeRequest,
  PixChargeResponse,
  PriceNotFound,
  ProviderNotConfigured,
  ProviderUnavailable,
  SingleChargeRequest,
  SingleChargeResponse,
  SplitExceedsNetAmount
} from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { CardRefusedBody } from "../CardRefusedBody.ts"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, ChargeIdParam, requires } from "./Common.ts"

/** The errors of every route addressed by a charge id (also used by the wallet's sandbox payment). */
export const chargeErrors = [enveloped(ChargeNotFound), enveloped(MissingChargeId)] as const

/** The refusals of a checkout, on `POST /v1/charges` and on the provider's `POST /v1/charges/single`. */
export const checkoutErrors = [
  enveloped(InvalidData),
  enveloped(SplitExceedsNetAmount),
  enveloped(ProviderUnavailable),
  enveloped(ProviderNotConfigured),
  enveloped(DuplicateCharge),
  enveloped(MissingCardData),
  enveloped(PriceNotFound),
  enveloped(PixAutomaticoPjOnly),
  enveloped(NfConfigNotFound),
  CardRefusedBody
] as const

export class ChargesGroup extends HttpApiGroup.make("charges")
  .add(
    HttpApiEndpoint.post("checkout", "/", { payload: CheckoutRequest, success: CheckoutResponse, error: checkoutErrors })
      .annotateMerge(requires("checkouts/write"))
      .annotate(OpenApi.Summary, "Create a charge (transparent checkout: Pix, boleto or card)"),
    HttpApiEndpoint.post("single", "/single", { payload: SingleChargeRequest, success: SingleChargeResponse, error: checkoutErrors })
      .annotateMerge(requires("checkouts/write"))
      .annotate(OpenApi.Summary, "Create a one-off charge by amount and title (the provider's route)"),
    HttpApiEndpoint.post("createPix", "/pix", {
      payload: PixChargeRequest,
      success: PixChargeResponse,
      error: [enveloped(InvalidData), enveloped(SplitExceedsNetAmount), enveloped(ProviderUnavailable), enveloped(ProviderNotConfigured)]
    })
      .annotateMerge(requires("pix.cob/write"))
      .annotate(OpenApi.Summary, "Create an immediate Pix charge"),
    HttpApiEndpoint.get("list", "/", {
      query: ChargeListQuery,
      success: ChargeList,
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires("subaccounts/read"))
      .annotate(OpenApi.Summary, "List charges"),
    HttpApiEndpoint.get("get", "/:chargeId", {
      params: ChargeIdParam,
      // `view=detail` asks for the whole charge; the default is the spec's status view.
      query: { view: Schema.optionalKey(Schema.Literals(["status", "detail"])) },
      success: [ChargeDetailView, ChargeStatusView],
      error: chargeErrors
    })
      .annotateMerge(requires("pix.cob/read"))
      .annotate(OpenApi.Summary, "Get a charge"),
    HttpApiEndpoint.get("status", "/:chargeId/status", {
      params: ChargeIdParam,
      success: ChargeLeanStatus,
      error: chargeErrors
    })
      .annotateMerge(requires("pix.cob/read"))
      .annotate(OpenApi.Summary, "Get the status of a charge"),
    HttpApiEndpoint.delete("cancel", "/:chargeId", {
      params: ChargeIdParam,
      success: Schema.Struct({ message: Schema.String, chargeId: Schema.String }),
      // 502: a boleto's bank could not write it off, and the charge was left as it was.
      error: [...chargeErrors, enveloped(ChargeNotCancelable), enveloped(ProviderUnavailable)]
    })
      .annotateMerge(requires("pix.cob/write"))
      .annotate(OpenApi.Summary, "Cancel a charge"),
    HttpApiEndpoint.post("archive", "/:chargeId/archive", {
      params: ChargeIdParam,
      success: Schema.Struct({ chargeId: Schema.String, status: Schema.Literal("ARCHIVED"), archivedAt: Schema.String }),
      error: [...chargeErrors, enveloped(ChargeNotArchivable)]
    })
      .annotateMerge(requires("pix.cob/write"))
      .annotate(OpenApi.Summary, "Archive a charge")
  )
  .pipe(authenticated({
    prefix: "/v1/charges",
    title: "Charges",
    description: "Pix charges: create, read, list, cancel, archive"
  }))
{}

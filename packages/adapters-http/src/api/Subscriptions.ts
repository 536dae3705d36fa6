/** `/v1/subscriptions`: reading, cancelling and archiving subscriptions (they are created by the checkout). */
import {
  AddItemRequest,
  ApproveCycleResponse,
  BillingDayChangeResponse,
  CancelSubscriptionInput,
  CancelSubscriptionResponse,
  ChangeItemRequest,
  ChargeNotCancelable,
  DowngradeResponse,
  EditSubscriptionResponse,
  InvalidData,
  ItemNotFound,
  ManualRetryResponse,
  MissingCardData,
  NewPriceNotFound,
  NotSandboxAccount,
  OldPriceNotFound,
  PaymentDeclined,
  PaymentFailed,
  PixAutomaticoPjOnly,
  PriceNotFound,
  ProrataPreviewRequest,
  ProrataPreviewResponse,
  ProviderNotConfigured,
  ProviderProrataRequest,
  ProviderUnavailable,
  ProviderUpdateRequest,
  RemoveItemResponse,
  SplitExceedsNetAmount,
  SubscriptionAlreadyCanceled,
  SubscriptionDetailView,
  SubscriptionId,
  SubscriptionItemId,
  SubscriptionListResponse,
  SubscriptionNotEligible,
  SubscriptionNotFound,
  SubscriptionStatus,
  UpdateSubscriptionRequest,
  UpgradeResponse
} from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, Id, idOf, KeysetQuery, requires } from "./Common.ts"

const SubscriptionIdParam = { subscriptionId: idOf(SubscriptionId) }

const RecurrenceDecision = Schema.Struct({
  subscriptionId: Schema.String,
  recurrencyId: Schema.String,
  recurrenceStatus: Schema.Literals(["AUTHORIZED", "REJECTED"]),
  status: SubscriptionStatus
}).annotate({ identifier: "RecurrenceDecision" })
const Filter = Schema.optionalKey(Schema.String)

/** What charging a prorata can answer besides the route's own errors. */
const chargeErrors = [
  enveloped(InvalidData),
  enveloped(SubscriptionNotFound),
  enveloped(SubscriptionNotEligible),
  enveloped(PriceNotFound),
  enveloped(PaymentDeclined),
  enveloped(PaymentFailed),
  enveloped(MissingCardData),
  enveloped(SplitExceedsNetAmount),
  enveloped(ProviderUnavailable),
  enveloped(ProviderNotConfigured)
] as const

/** `PATCH /v1/subscriptions/{id}` and the provider's update answer what the body asked for. */
const updateSuccess = [
  UpgradeResponse,
  DowngradeResponse,
  RemoveItemResponse,
  CancelSubscriptionResponse,
  BillingDayChangeResponse,
  EditSubscriptionResponse
] as const
const updateErrors = [...chargeErrors, enveloped(ItemNotFound), enveloped(SubscriptionAlreadyCanceled), enveloped(PixAutomaticoPjOnly), enveloped(ChargeNotCancelable)] as const
const previewErrors = [
  enveloped(InvalidData),
  enveloped(SubscriptionNotFound),
  enveloped(SubscriptionNotEligible),
  enveloped(OldPriceNotFound),
  enveloped(NewPriceNotFound)
] as const

export class SubscriptionsGroup extends HttpApiGroup.make("subscriptions")
  .add(
    HttpApiEndpoint.get("list", "/", {
      query: {
        ...KeysetQuery,
        status: Filter,
        paymentMethod: Filter,
        paymentType: Filter,
        document: Filter,
        search: Filter,
        startDate: Filter,
        endDate: Filter,
        priceId: Filter,
        productId: Filter,
        checkoutId: Filter
      },
      success: SubscriptionListResponse,
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires("subscriptions/read"))
      .annotate(OpenApi.Summary, "List subscriptions"),
    HttpApiEndpoint.get("get", "/:subscriptionId", {
      params: SubscriptionIdParam,
      success: SubscriptionDetailView,
      error: enveloped(SubscriptionNotFound)
    })
      .annotateMerge(requires("subscriptions/read"))
      .annotate(OpenApi.Summary, "Get a subscription with its cycles, invoices and items"),
    HttpApiEndpoint.delete("cancel", "/:subscriptionId", {
      params: SubscriptionIdParam,
      // The body is optional: an empty DELETE cancels now.
      payload: [CancelSubscriptionInput, Schema.Null],
      success: CancelSubscriptionResponse,
      // An open Pix or boleto is closed at its provider first: one that cannot be asked (502) or refuses (400) leaves the subscription as it was.
      error: [
        enveloped(InvalidData),
        enveloped(SubscriptionNotFound),
        enveloped(SubscriptionAlreadyCanceled),
        enveloped(SubscriptionNotEligible),
        enveloped(ChargeNotCancelable),
        enveloped(ProviderUnavailable)
      ]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Cancel a subscription now or at the end of its period"),
    HttpApiEndpoint.post("archive", "/:subscriptionId/archive", {
      params: SubscriptionIdParam,
      success: Schema.Struct({ subscriptionId: Schema.String, status: SubscriptionStatus, archivedAt: Schema.DateFromString }),
      error: [enveloped(SubscriptionNotFound), enveloped(SubscriptionNotEligible)]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Archive a subscription: hidden from the list, history kept"),
    HttpApiEndpoint.post("authorizeRecurrence", "/pix-automatico/:recurrencyId/authorize", {
      params: { recurrencyId: Id },
      success: RecurrenceDecision,
      error: [enveloped(InvalidData), enveloped(SubscriptionNotFound), enveloped(NotSandboxAccount)]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Sandbox: the payer's bank authorizes a Pix Automático recurrence"),
    HttpApiEndpoint.post("rejectRecurrence", "/pix-automatico/:recurrencyId/reject", {
      params: { recurrencyId: Id },
      success: RecurrenceDecision,
      error: [enveloped(InvalidData), enveloped(SubscriptionNotFound), enveloped(NotSandboxAccount)]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Sandbox: the payer's bank rejects a Pix Automático recurrence"),
    HttpApiEndpoint.post("prorata", "/:subscriptionId/prorata", {
      params: SubscriptionIdParam,
      payload: ProrataPreviewRequest,
      success: ProrataPreviewResponse,
      error: previewErrors
    })
      .annotateMerge(requires("subscriptions/read", "subscriptions/write"))
      .annotate(OpenApi.Summary, "Preview what a plan change would charge now (never charges)"),
    HttpApiEndpoint.post("providerProrata", "/prorata", {
      payload: ProviderProrataRequest,
      success: ProrataPreviewResponse,
      error: previewErrors
    })
      .annotateMerge(requires("subscriptions/read", "subscriptions/write"))
      .annotate(OpenApi.Summary, "Preview a plan change (the provider's route, subscription in the body)"),
    HttpApiEndpoint.put("changeItem", "/:subscriptionId/items/:itemId", {
      params: { ...SubscriptionIdParam, itemId: idOf(SubscriptionItemId) },
      payload: ChangeItemRequest,
      success: [UpgradeResponse, DowngradeResponse],
      error: [...chargeErrors, enveloped(ItemNotFound)]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Upgrade (prorata charged now) or downgrade (next cycle) an item"),
    HttpApiEndpoint.post("addItem", "/:subscriptionId/items", {
      params: SubscriptionIdParam,
      payload: AddItemRequest,
      success: UpgradeResponse,
      error: [...chargeErrors, enveloped(ItemNotFound)]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Add an item, charged by prorata (from the second cycle)"),
    HttpApiEndpoint.post("retryPayment", "/:subscriptionId/retry", {
      params: SubscriptionIdParam,
      success: ManualRetryResponse,
      error: chargeErrors
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Charge the card again now for a refused cycle (counted as a manual retry)"),
    HttpApiEndpoint.post("approveCycle", "/:subscriptionId/cycles/:cycleNumber/approve", {
      params: { ...SubscriptionIdParam, cycleNumber: Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100_000 })) },
      success: ApproveCycleResponse,
      error: [enveloped(InvalidData), enveloped(SubscriptionNotFound), enveloped(SubscriptionNotEligible)]
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Approve a cycle the billing run held for review (safety bounds): it is billed as it is"),
    HttpApiEndpoint.patch("update", "/:subscriptionId", {
      params: SubscriptionIdParam,
      payload: UpdateSubscriptionRequest,
      success: updateSuccess,
      error: updateErrors
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Change an item, remove or add one, cancel, or edit a subscription"),
    HttpApiEndpoint.post("providerUpdate", "/update", {
      payload: ProviderUpdateRequest,
      success: updateSuccess,
      error: updateErrors
    })
      .annotateMerge(requires("subscriptions/write"))
      .annotate(OpenApi.Summary, "Change or cancel a subscription (the provider's route, subscription in the body)")
  )
  .pipe(authenticated({ prefix: "/v1/subscriptions", title: "Subscriptions", description: "Subscriptions, their cycles and invoices" }))
{}

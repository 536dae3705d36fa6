/**
 * The HTTP contract of the engine: `/auth/token` and the `/v1` surface, as
 * `effect/http-api` declarations. Handlers live in `Handlers.ts`; the OpenAPI
 * 3.1 document served at `/v1/openapi.json` is derived from this file.
 */
import {
  AccountNotFound,
  CardInput,
  CheckoutLinkInput,
  CheckoutLinkView,
  CheckoutNotFound,
  CheckoutSessionInput,
  ProductNotFound as LinkProductNotFound,
  SessionNotFound,
  ChargeNotBoleto,
  ChargeDetailView,
  CheckoutRequest,
  CheckoutResponse,
  DuplicateCharge,
  MissingCardData,
  PixAutomaticoPjOnly,
  PriceNotFound,
  ChargeLeanStatus,
  ChargeList,
  ChargeNotArchivable,
  ChargeNotCancelable,
  ChargeNotFound,
  ChargeNotPayable,
  ChargeStatusView,
  MissingChargeId,
  NotSandboxAccount,
  PixChargeRequest,
  PixChargeResponse,
  ProviderUnavailable,
  SplitExceedsNetAmount,
  InvalidData,
  InvalidProductData,
  CustomerAlreadyExists,
  CouponCodeAlreadyExists,
  CouponInactiveCannotReactivate,
  CouponInput,
  CouponInUse,
  CouponNotFound,
  CouponView,
  CustomerDetailView,
  CustomerHasActiveSubscriptions,
  CustomerInput,
  CustomerNotFound,
  CustomerView,
  DocumentUpdateNotAllowed,
  ProductHasActiveSubscriptions,
  ProductInput,
  ProductNotFound,
  ProductView,
  NotFound,
  OAuthInvalidClient,
  OAuthInvalidRequest,
  OAuthInvalidScope,
  OAuthUnsupportedGrant,
  type Scope,
  Unauthorized,
  WebhookEventNotFound,
  WebhookNotFound
} from "@billing/core"
import { Context, Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, OpenApi } from "effect/http-api"
import { CardRefusedBody } from "./CardRefusedBody.ts"
import { enveloped } from "./ErrorEnvelope.ts"
import { oauthBody } from "./OAuthBody.ts"
import { Caller } from "@billing/core"

/** The code of a bad-input 400 in a group (default `INVALID_DATA`); products answer `INVALID_PRODUCT_DATA`. */
export class InvalidInputCode extends Context.Service<InvalidInputCode, string>()("@billing/adapters-http/InvalidInputCode") {}

/** The scope a route requires; read by the `Authentication` middleware. */
export class RequiredScope extends Context.Service<RequiredScope, Scope>()("@billing/adapters-http/RequiredScope") {}

/**
 * Authenticates `/v1` requests (bearer token, scope of the route,
 * `X-Sub-Account`) and provides the `Caller` to handlers. Its refusals are
 * answered in the spec's shapes: envelope 401/404, or the bare
 * `{ message }` 401 of a missing scope.
 */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Caller }>()(
  "@billing/adapters-http/Authentication",
  { error: [enveloped(Unauthorized), enveloped(AccountNotFound), enveloped(NotFound)] }
) {}

/** Turns request decoding failures into 400 `INVALID_DATA` with the offending fields. */
export class InvalidInput extends HttpApiMiddleware.Service<InvalidInput>()("@billing/adapters-http/InvalidInput", {
  error: enveloped(InvalidData)
}) {}

/** Turns token-request decoding failures into the OAuth `invalid_request` body. */
export class InvalidTokenRequest extends HttpApiMiddleware.Service<InvalidTokenRequest>()(
  "@billing/adapters-http/InvalidTokenRequest",
  { error: oauthBody(OAuthInvalidRequest, 400) }
) {}

const TokenFields = {
  grant_type: Schema.optionalKey(Schema.String),
  client_id: Schema.optionalKey(Schema.String),
  client_secret: Schema.optionalKey(Schema.String),
  scope: Schema.optionalKey(Schema.String)
}

export const TokenResponse = Schema.Struct({
  access_token: Schema.String,
  expires_in: Schema.Number,
  token_type: Schema.Literal("Bearer")
})

export class AuthGroup extends HttpApiGroup.make("auth", { topLevel: true })
  .add(
    HttpApiEndpoint.post("token", "/auth/token", {
      // Form-urlencoded per the spec; JSON too, because the real provider's
      // published collection sends JSON and its users' clients must work.
      payload: [
        Schema.Struct(TokenFields).pipe(HttpApiSchema.asFormUrlEncoded()),
        Schema.Struct(TokenFields)
      ],
      success: TokenResponse,
      error: [
        oauthBody(OAuthUnsupportedGrant, 400),
        oauthBody(OAuthInvalidRequest, 400),
        oauthBody(OAuthInvalidClient, 401),
        oauthBody(OAuthInvalidScope, 403)
      ]
    })
  )
  .middleware(InvalidTokenRequest)
  .annotateMerge(OpenApi.annotations({ title: "Token", description: "OAuth 2.0 client credentials" }))
{}

export const WebhookView = Schema.Struct({
  webhookId: Schema.String,
  url: Schema.String,
  events: Schema.Array(Schema.String),
  status: Schema.Literals(["active", "inactive"]),
  hasAuthToken: Schema.Boolean,
  secret: Schema.optionalKey(Schema.String),
  createdAt: Schema.String
}).annotate({ identifier: "Webhook" })

export const DeliveryView = Schema.Struct({
  webhookEventId: Schema.String,
  webhookId: Schema.String,
  type: Schema.String,
  status: Schema.String,
  attempt: Schema.Number,
  responseStatusCode: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  deliveredAt: Schema.NullOr(Schema.String)
}).annotate({ identifier: "WebhookDelivery" })

const WebhookId = { webhookId: Schema.String }

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("register", "/", {
      payload: Schema.Struct({
        url: Schema.String,
        events: Schema.optionalKey(Schema.Array(Schema.String)),
        secret: Schema.optionalKey(Schema.String),
        authToken: Schema.optionalKey(Schema.String)
      }),
      success: WebhookView.pipe(HttpApiSchema.status(201)),
      error: enveloped(InvalidData)
    }).annotate(RequiredScope, "webhooks/write"),
    HttpApiEndpoint.get("list", "/", {
      success: Schema.Struct({ items: Schema.Array(WebhookView) })
    }).annotate(RequiredScope, "webhooks/read"),
    HttpApiEndpoint.get("deliveries", "/events", {
      query: {
        limit: Schema.optionalKey(Schema.NumberFromString),
        nextPageToken: Schema.optionalKey(Schema.String),
        type: Schema.optionalKey(Schema.String),
        status: Schema.optionalKey(Schema.String)
      },
      success: Schema.Struct({
        items: Schema.Array(DeliveryView),
        count: Schema.Number,
        hasMore: Schema.Boolean,
        nextPageToken: Schema.NullOr(Schema.String)
      }),
      error: enveloped(InvalidData)
    }).annotate(RequiredScope, "webhooks/read"),
    HttpApiEndpoint.post("test", "/test", {
      payload: Schema.Struct({
        entity: Schema.String,
        webhookId: Schema.optionalKey(Schema.String),
        url: Schema.optionalKey(Schema.String)
      }),
      success: Schema.Struct({
        success: Schema.Boolean,
        url: Schema.String,
        event: Schema.String,
        payload: Schema.Unknown,
        response: Schema.NullOr(Schema.Struct({ statusCode: Schema.Number })),
        error: Schema.optionalKey(Schema.String)
      }),
      error: [enveloped(InvalidData), enveloped(WebhookNotFound)]
    }).annotate(RequiredScope, "webhooks/write"),
    HttpApiEndpoint.get("get", "/:webhookId", {
      params: WebhookId,
      success: WebhookView,
      error: enveloped(WebhookNotFound)
    }).annotate(RequiredScope, "webhooks/read"),
    HttpApiEndpoint.put("update", "/:webhookId", {
      params: WebhookId,
      payload: Schema.Struct({
        url: Schema.optionalKey(Schema.String),
        events: Schema.optionalKey(Schema.Array(Schema.String)),
        status: Schema.optionalKey(Schema.Literals(["active", "inactive"])),
        authToken: Schema.optionalKey(Schema.NullOr(Schema.String))
      }),
      success: WebhookView,
      error: [enveloped(InvalidData), enveloped(WebhookNotFound)]
    }).annotate(RequiredScope, "webhooks/write"),
    HttpApiEndpoint.delete("remove", "/:webhookId", {
      params: WebhookId,
      success: Schema.Struct({ message: Schema.String, webhookId: Schema.String }),
      error: enveloped(WebhookNotFound)
    }).annotate(RequiredScope, "webhooks/write"),
    HttpApiEndpoint.post("retry", "/:webhookEventId/retry", {
      params: { webhookEventId: Schema.String },
      success: Schema.Struct({
        message: Schema.String,
        webhookEventId: Schema.String,
        attempt: Schema.Number,
        status: Schema.String,
        responseStatusCode: Schema.NullOr(Schema.Number),
        error: Schema.NullOr(Schema.String)
      }),
      error: enveloped(WebhookEventNotFound)
    }).annotate(RequiredScope, "webhooks/write")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/users/webhooks")
  .annotateMerge(OpenApi.annotations({ title: "Webhooks", description: "Registrations, deliveries, test and retry" }))
{}

const ChargeId = { chargeId: Schema.String }
const chargeErrors = [enveloped(ChargeNotFound), enveloped(MissingChargeId)] as const

export class ChargesGroup extends HttpApiGroup.make("charges")
  .add(
    HttpApiEndpoint.post("checkout", "/", {
      payload: CheckoutRequest,
      success: CheckoutResponse,
      error: [
        enveloped(InvalidData),
        enveloped(SplitExceedsNetAmount),
        enveloped(ProviderUnavailable),
        enveloped(DuplicateCharge),
        enveloped(MissingCardData),
        enveloped(PriceNotFound),
        enveloped(PixAutomaticoPjOnly),
        CardRefusedBody
      ]
    }).annotate(RequiredScope, "checkouts/write"),
    HttpApiEndpoint.post("createPix", "/pix", {
      payload: PixChargeRequest,
      success: PixChargeResponse,
      error: [enveloped(InvalidData), enveloped(SplitExceedsNetAmount), enveloped(ProviderUnavailable)]
    }).annotate(RequiredScope, "pix.cob/write"),
    HttpApiEndpoint.get("list", "/", {
      query: {
        page: Schema.optionalKey(Schema.NumberFromString),
        perPage: Schema.optionalKey(Schema.NumberFromString),
        dateFrom: Schema.optionalKey(Schema.String),
        dateTo: Schema.optionalKey(Schema.String)
      },
      success: ChargeList,
      error: enveloped(InvalidData)
    }).annotate(RequiredScope, "subaccounts/read"),
    HttpApiEndpoint.get("get", "/:chargeId", {
      params: ChargeId,
      // `view=detail` asks for the whole charge; the default is the spec's status view.
      query: { view: Schema.optionalKey(Schema.Literals(["status", "detail"])) },
      success: [ChargeDetailView, ChargeStatusView],
      error: chargeErrors
    }).annotate(RequiredScope, "pix.cob/read"),
    HttpApiEndpoint.get("status", "/:chargeId/status", {
      params: ChargeId,
      success: ChargeLeanStatus,
      error: chargeErrors
    }).annotate(RequiredScope, "pix.cob/read"),
    HttpApiEndpoint.delete("cancel", "/:chargeId", {
      params: ChargeId,
      success: Schema.Struct({ message: Schema.String, chargeId: Schema.String }),
      error: [...chargeErrors, enveloped(ChargeNotCancelable)]
    }).annotate(RequiredScope, "pix.cob/write"),
    HttpApiEndpoint.post("archive", "/:chargeId/archive", {
      params: ChargeId,
      success: Schema.Struct({ chargeId: Schema.String, status: Schema.Literal("ARCHIVED"), archivedAt: Schema.String }),
      error: [...chargeErrors, enveloped(ChargeNotArchivable)]
    }).annotate(RequiredScope, "pix.cob/write")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/charges")
  .annotateMerge(OpenApi.annotations({ title: "Charges", description: "Pix charges: create, read, list, cancel, archive" }))
{}

export class WalletGroup extends HttpApiGroup.make("wallet")
  .add(
    HttpApiEndpoint.post("pay", "/pay/:chargeId", {
      params: ChargeId,
      success: Schema.Struct({ chargeId: Schema.String, status: Schema.Literal("PROCESSING"), message: Schema.String }),
      error: [...chargeErrors, enveloped(NotSandboxAccount), enveloped(ChargeNotPayable)]
    }).annotate(RequiredScope, "wallet/write")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/wallet")
  .annotateMerge(OpenApi.annotations({ title: "Wallet", description: "Sandbox payment simulation" }))
{}

const ProductId = { productId: Schema.String }

export class ProductsGroup extends HttpApiGroup.make("products")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: ProductInput,
      success: ProductView.pipe(HttpApiSchema.status(201)),
      error: enveloped(InvalidProductData)
    }).annotate(RequiredScope, "products/write"),
    HttpApiEndpoint.get("list", "/", {
      query: {
        limit: Schema.optionalKey(Schema.NumberFromString),
        lastKey: Schema.optionalKey(Schema.String),
        status: Schema.optionalKey(Schema.String),
        search: Schema.optionalKey(Schema.String)
      },
      success: Schema.Struct({
        items: Schema.Array(ProductView),
        pagination: Schema.Struct({ total: Schema.Number, limit: Schema.Number, hasMore: Schema.Boolean, lastKey: Schema.NullOr(Schema.String) })
      }),
      error: enveloped(InvalidProductData)
    }).annotate(RequiredScope, "products/read"),
    HttpApiEndpoint.get("get", "/:productId", {
      params: ProductId,
      success: ProductView,
      error: enveloped(ProductNotFound)
    }).annotate(RequiredScope, "products/read"),
    HttpApiEndpoint.put("update", "/:productId", {
      params: ProductId,
      payload: ProductInput,
      success: ProductView,
      error: [enveloped(InvalidProductData), enveloped(ProductNotFound)]
    }).annotate(RequiredScope, "products/write"),
    HttpApiEndpoint.delete("remove", "/:productId", {
      params: ProductId,
      success: Schema.Struct({ message: Schema.String, productId: Schema.String }),
      error: [enveloped(ProductNotFound), enveloped(ProductHasActiveSubscriptions)]
    }).annotate(RequiredScope, "products/write"),
    HttpApiEndpoint.post("archive", "/:productId/archive", {
      params: ProductId,
      success: Schema.Struct({ productId: Schema.String, status: Schema.Literal("archived"), archivedAt: Schema.String }),
      error: enveloped(ProductNotFound)
    }).annotate(RequiredScope, "products/write")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/products")
  .annotate(InvalidInputCode, "INVALID_PRODUCT_DATA")
  .annotateMerge(OpenApi.annotations({ title: "Products", description: "Products and prices" }))
{}

const CustomerId = { customerId: Schema.String }
const CustomerAddressView = CustomerView.fields.address

export class CustomersGroup extends HttpApiGroup.make("customers")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CustomerInput,
      success: CustomerView,
      error: [enveloped(InvalidData), enveloped(CustomerAlreadyExists)]
    }).annotate(RequiredScope, "customers/write"),
    HttpApiEndpoint.get("list", "/", {
      query: {
        limit: Schema.optionalKey(Schema.NumberFromString),
        lastKey: Schema.optionalKey(Schema.String),
        search: Schema.optionalKey(Schema.String),
        document: Schema.optionalKey(Schema.String),
        status: Schema.optionalKey(Schema.String),
        startDate: Schema.optionalKey(Schema.String),
        endDate: Schema.optionalKey(Schema.String),
        lookupDocument: Schema.optionalKey(Schema.String)
      },
      // `?lookupDocument=` answers one customer by exact document instead of a page.
      success: [
        Schema.Struct({ customer: Schema.NullOr(CustomerView), address: CustomerAddressView }),
        Schema.Struct({
          items: Schema.Array(CustomerView),
          pagination: Schema.Struct({ lastKey: Schema.NullOr(Schema.String), hasMore: Schema.Boolean, limit: Schema.Number })
        })
      ],
      error: enveloped(InvalidData)
    }).annotate(RequiredScope, "customers/read"),
    HttpApiEndpoint.get("get", "/:customerId", {
      params: CustomerId,
      success: CustomerDetailView,
      error: enveloped(CustomerNotFound)
    }).annotate(RequiredScope, "customers/read"),
    HttpApiEndpoint.patch("update", "/:customerId", {
      params: CustomerId,
      payload: CustomerInput,
      success: CustomerView,
      error: [enveloped(InvalidData), enveloped(DocumentUpdateNotAllowed), enveloped(CustomerNotFound)]
    }).annotate(RequiredScope, "customers/write"),
    HttpApiEndpoint.delete("remove", "/:customerId", {
      params: CustomerId,
      success: Schema.Struct({ message: Schema.String, customerId: Schema.String }),
      error: [enveloped(CustomerNotFound), enveloped(CustomerHasActiveSubscriptions)]
    }).annotate(RequiredScope, "customers/delete")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/customers")
  .annotateMerge(OpenApi.annotations({ title: "Customers", description: "Customers identified by CPF or CNPJ" }))
{}

const CouponId = { couponId: Schema.String }

export class CouponsGroup extends HttpApiGroup.make("coupons")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CouponInput,
      success: CouponView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(CouponCodeAlreadyExists)]
    }).annotate(RequiredScope, "coupons/write"),
    HttpApiEndpoint.get("list", "/", {
      query: {
        limit: Schema.optionalKey(Schema.NumberFromString),
        lastKey: Schema.optionalKey(Schema.String),
        status: Schema.optionalKey(Schema.String),
        search: Schema.optionalKey(Schema.String)
      },
      success: Schema.Struct({
        items: Schema.Array(CouponView),
        pagination: Schema.Struct({
          total: Schema.Number,
          totalPages: Schema.Number,
          limit: Schema.Number,
          hasMore: Schema.Boolean,
          lastKey: Schema.NullOr(Schema.String)
        })
      }),
      error: enveloped(InvalidData)
    }).annotate(RequiredScope, "products/read"),
    HttpApiEndpoint.get("get", "/:couponId", {
      params: CouponId,
      success: CouponView,
      error: enveloped(CouponNotFound)
    }).annotate(RequiredScope, "coupons/read"),
    HttpApiEndpoint.put("update", "/:couponId", {
      params: CouponId,
      payload: CouponInput,
      success: CouponView,
      error: [enveloped(InvalidData), enveloped(CouponNotFound), enveloped(CouponCodeAlreadyExists), enveloped(CouponInactiveCannotReactivate)]
    }).annotate(RequiredScope, "coupons/write"),
    HttpApiEndpoint.patch("status", "/:couponId/status", {
      params: CouponId,
      payload: Schema.Struct({ status: Schema.Literals(["ACTIVE", "PAUSED", "INACTIVE"]) }),
      success: CouponView,
      error: [enveloped(InvalidData), enveloped(CouponNotFound), enveloped(CouponCodeAlreadyExists), enveloped(CouponInactiveCannotReactivate)]
    }).annotate(RequiredScope, "coupons/write"),
    HttpApiEndpoint.delete("remove", "/:couponId", {
      params: CouponId,
      success: Schema.Struct({ message: Schema.String, couponId: Schema.String }),
      error: [enveloped(CouponNotFound), enveloped(CouponInUse)]
    }).annotate(RequiredScope, "coupons/write")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/coupons")
  .annotateMerge(OpenApi.annotations({ title: "Coupons", description: "Coupon management" }))
{}

/** `POST /v1/coupons/validate`: public, and always 200 with a verdict (even for a malformed body). */
export class CouponValidationGroup extends HttpApiGroup.make("couponValidation")
  .add(
    HttpApiEndpoint.post("validate", "/v1/coupons/validate", {
      payload: Schema.Unknown,
      success: Schema.Struct({
        valid: Schema.Boolean,
        reason: Schema.optionalKey(Schema.String),
        coupon: Schema.optionalKey(Schema.Unknown),
        discountAmount: Schema.optionalKey(Schema.Unknown),
        finalAmount: Schema.optionalKey(Schema.Unknown)
      })
    })
  )
  .annotateMerge(OpenApi.annotations({ title: "Coupon validation", description: "Public: no token needed" }))
{}

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
    }).annotate(RequiredScope, "payment.methods/write")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/payment-methods")
  .annotateMerge(OpenApi.annotations({ title: "Payment methods", description: "Card tokenization (pm_)" }))
{}

/** The boleto PDF: public, addressed by the unguessable charge id (as the provider's). */
export class BoletoPdfGroup extends HttpApiGroup.make("boletoPdf")
  .add(
    HttpApiEndpoint.get("pdf", "/v1/charges/:chargeId/boleto.pdf", {
      params: ChargeId,
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [enveloped(ChargeNotFound), enveloped(ChargeNotBoleto)]
    })
  )
  .annotateMerge(OpenApi.annotations({ title: "Boleto PDF", description: "Public: no token needed" }))
{}

const LinkId = { id: Schema.String }

export class CheckoutLinksGroup extends HttpApiGroup.make("checkoutLinks")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CheckoutLinkInput,
      success: CheckoutLinkView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(PriceNotFound), enveloped(LinkProductNotFound)]
    }).annotate(RequiredScope, "checkouts/write"),
    HttpApiEndpoint.get("list", "/", {
      query: { limit: Schema.optionalKey(Schema.NumberFromString), lastKey: Schema.optionalKey(Schema.String) },
      success: Schema.Struct({
        items: Schema.Array(CheckoutLinkView),
        pagination: Schema.Struct({ total: Schema.Number, limit: Schema.Number, hasMore: Schema.Boolean, lastKey: Schema.NullOr(Schema.String) })
      }),
      error: enveloped(InvalidData)
    }).annotate(RequiredScope, "checkouts/read"),
    HttpApiEndpoint.get("get", "/:id", { params: LinkId, success: CheckoutLinkView, error: enveloped(CheckoutNotFound) })
      .annotate(RequiredScope, "checkouts/read"),
    HttpApiEndpoint.put("update", "/:id", {
      params: LinkId,
      payload: CheckoutLinkInput,
      success: CheckoutLinkView,
      error: [enveloped(InvalidData), enveloped(CheckoutNotFound), enveloped(PriceNotFound)]
    }).annotate(RequiredScope, "checkouts/write")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/checkouts")
  .annotateMerge(OpenApi.annotations({ title: "Checkout links", description: "Reusable hosted checkout links (pl_)" }))
{}

export class CheckoutSessionsGroup extends HttpApiGroup.make("checkoutSessions")
  .add(
    HttpApiEndpoint.post("create", "/", {
      payload: CheckoutSessionInput,
      success: CheckoutLinkView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(PriceNotFound)]
    }).annotate(RequiredScope, "checkouts/write"),
    HttpApiEndpoint.get("get", "/:id", { params: LinkId, success: CheckoutLinkView, error: enveloped(SessionNotFound) })
      .annotate(RequiredScope, "checkouts/read")
  )
  .middleware(InvalidInput)
  .middleware(Authentication)
  .prefix("/v1/checkout-sessions")
  .annotateMerge(OpenApi.annotations({ title: "Checkout sessions", description: "Single-use hosted checkouts (cs_)" }))
{}

export class BillingApi extends HttpApi.make("billing")
  .add(AuthGroup)
  .add(WebhooksGroup)
  .add(ChargesGroup)
  .add(WalletGroup)
  .add(ProductsGroup)
  .add(CustomersGroup)
  .add(CouponsGroup)
  .add(CouponValidationGroup)
  .add(PaymentMethodsGroup)
  .add(BoletoPdfGroup)
  .add(CheckoutLinksGroup)
  .add(CheckoutSessionsGroup)
  .annotateMerge(OpenApi.annotations({
    title: "Billing engine",
    version: "1.0.0",
    description: "Pix, boleto and card charges, subscriptions, split, wallet, NFS-e and signed webhooks."
  }))
{}

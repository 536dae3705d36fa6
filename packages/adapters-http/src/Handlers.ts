import { Billing, type Caller } from "@billing/core"
import { Effect, Layer, Predicate } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "./Api.ts"
import { AuthenticationLive, InvalidInputLive, InvalidTokenRequestLive } from "./Middleware.ts"

// Handlers capture the engine's services once and provide them per request;
// the `Caller` comes from the Authentication middleware.
type Services<A> = A extends Effect.Effect<any, any, infer R> ? Exclude<R, Caller> : never

/** `scheme://host` of the request, honouring the proxy headers a load balancer sets. */
const origin = Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
  const proto = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() || "http"
  const host = request.headers["x-forwarded-host"] ?? request.headers["host"] ?? "localhost"
  return `${proto}://${host}`
})

/** Captures the services `R` when the handlers are built; returns a function that provides them to a request. */
const capture = <R>() =>
  Effect.map(Effect.context<R>(), (services) => <A, E, In extends Caller | R>(effect: Effect.Effect<A, E, In>) => Effect.provideContext(effect, services))

const AuthHandlers = HttpApiBuilder.group(BillingApi, "auth", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.issueToken>>>()
  return handlers.handle("token", ({ payload }) => provide(Billing.issueToken(payload)))
}))

const WebhooksHandlers = HttpApiBuilder.group(BillingApi, "webhooks", Effect.fn(function*(handlers) {
  type Needed =
    | Services<ReturnType<typeof Billing.registerWebhook>>
    | Services<ReturnType<typeof Billing.testWebhook>>
    | Services<ReturnType<typeof Billing.retryDelivery>>
  const provide = yield* capture<Needed>()
  return handlers
    .handle("register", ({ payload }) => provide(Billing.registerWebhook(payload)))
    .handle("list", () => provide(Billing.listWebhooks()))
    .handle("deliveries", ({ query }) => provide(Billing.listDeliveries(query)))
    .handle("test", ({ payload }) => provide(Billing.testWebhook(payload)))
    .handle("get", ({ params }) => provide(Billing.getWebhook(params.webhookId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateWebhook(params.webhookId, payload)))
    .handle("remove", ({ params }) => provide(Billing.removeWebhook(params.webhookId)))
    .handle("retry", ({ params }) => provide(Billing.retryDelivery(params.webhookEventId)))
}))

const ChargesHandlers = HttpApiBuilder.group(BillingApi, "charges", Effect.fn(function*(handlers) {
  type Needed =
    | Services<ReturnType<typeof Billing.createPixCharge>>
    | Services<ReturnType<typeof Billing.listCharges>>
    | Services<ReturnType<typeof Billing.cancelCharge>>
    | Services<ReturnType<typeof Billing.createCheckoutCharge>>
  const provide = yield* capture<Needed>()
  return handlers
    .handle("checkout", ({ payload }) =>
      Effect.gen(function*() {
        const result = yield* provide(Billing.createCheckoutCharge(payload))
        if (result.boleto === undefined) return result
        // The PDF link is absolute, on the host the client called.
        const { pdfPath, ...boleto } = result.boleto
        return { ...result, boleto: { ...boleto, pdfUrl: `${yield* origin}${pdfPath}` } }
      }))
    .handle("createPix", ({ payload }) => provide(Billing.createPixCharge(payload)))
    .handle("list", ({ query }) => provide(Billing.listCharges(query)))
    .handle("get", ({ params, query }) =>
      provide(Effect.map(Billing.getCharge(params.chargeId, query.view ?? "status"), (view) => view.body)))
    .handle("status", ({ params }) => provide(Billing.getChargeStatus(params.chargeId)))
    .handle("cancel", ({ params }) => provide(Billing.cancelCharge(params.chargeId)))
    .handle("archive", ({ params }) => provide(Billing.archiveCharge(params.chargeId)))
}))

const WalletHandlers = HttpApiBuilder.group(BillingApi, "wallet", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.requestSandboxPayment>>>()
  return handlers.handle("pay", ({ params }) => provide(Billing.requestSandboxPayment(params.chargeId)))
}))

const ProductsHandlers = HttpApiBuilder.group(BillingApi, "products", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.updateProduct>>>()
  return handlers
    .handle("create", ({ payload }) => provide(Billing.createProduct(payload)))
    .handle("list", ({ query }) => provide(Billing.listProducts(query)))
    .handle("get", ({ params }) => provide(Billing.getProduct(params.productId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateProduct(params.productId, payload)))
    .handle("remove", ({ params }) => provide(Billing.deleteProduct(params.productId)))
    .handle("archive", ({ params }) => provide(Billing.archiveProduct(params.productId)))
}))

const CustomersHandlers = HttpApiBuilder.group(BillingApi, "customers", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.createCustomer>>>()
  return handlers
    .handle("create", ({ payload }) => provide(Billing.createCustomer(payload)))
    .handle("list", ({ query }) => provide(Billing.queryCustomers(query)))
    .handle("get", ({ params }) => provide(Billing.getCustomer(params.customerId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateCustomer(params.customerId, payload)))
    .handle("remove", ({ params }) => provide(Billing.deleteCustomer(params.customerId)))
}))

const CouponsHandlers = HttpApiBuilder.group(BillingApi, "coupons", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.createCoupon>> | Services<ReturnType<typeof Billing.updateCoupon>>>()
  return handlers
    .handle("create", ({ payload }) => provide(Billing.createCoupon(payload)))
    .handle("list", ({ query }) => provide(Billing.listCoupons(query)))
    .handle("get", ({ params }) => provide(Billing.getCoupon(params.couponId)))
    .handle("update", ({ params, payload }) => provide(Billing.updateCoupon(params.couponId, payload)))
    .handle("status", ({ params, payload }) => provide(Billing.changeCouponStatus(params.couponId, payload.status)))
    .handle("remove", ({ params }) => provide(Billing.deleteCoupon(params.couponId)))
}))

const CouponValidationHandlers = HttpApiBuilder.group(BillingApi, "couponValidation", Effect.fn(function*(handlers) {
  const provide = yield* capture<
    Services<ReturnType<typeof Billing.validateCouponCode>> | Services<ReturnType<typeof Billing.couponValidationAccount>>
  >()
  return handlers.handle("validate", ({ payload }) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const body = Predicate.isObject(payload) ? (payload as Record<string, unknown>) : {}
      const bearer = request.headers["authorization"]?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim()
      return yield* provide(Effect.flatMap(
        Billing.couponValidationAccount({ bearer, accountNumber: body.accountNumber }),
        (accountId) => Billing.validateCouponCode(body, accountId)
      ))
    }))
}))

const PaymentMethodsHandlers = HttpApiBuilder.group(BillingApi, "paymentMethods", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.tokenizeCard>>>()
  return handlers.handle("tokenize", ({ payload }) => provide(Billing.tokenizeCard(payload)))
}))

const BoletoPdfHandlers = HttpApiBuilder.group(BillingApi, "boletoPdf", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.boletoDocument>>>()
  return handlers.handle("pdf", ({ params }) => provide(Billing.boletoDocument(params.chargeId)))
}))

const CheckoutLinksHandlers = HttpApiBuilder.group(BillingApi, "checkoutLinks", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.createCheckoutLink>>>()
  return handlers
    .handle("create", ({ payload }) => Effect.flatMap(origin, (o) => provide(Billing.createCheckoutLink(payload, o))))
    .handle("list", ({ query }) => Effect.flatMap(origin, (o) => provide(Billing.listCheckoutLinks(query, o))))
    .handle("get", ({ params }) => Effect.flatMap(origin, (o) => provide(Billing.getCheckoutLink(params.id, o))))
    .handle("update", ({ params, payload }) => Effect.flatMap(origin, (o) => provide(Billing.updateCheckoutLink(params.id, payload, o))))
}))

const CheckoutSessionsHandlers = HttpApiBuilder.group(BillingApi, "checkoutSessions", Effect.fn(function*(handlers) {
  const provide = yield* capture<Services<ReturnType<typeof Billing.createCheckoutSession>>>()
  return handlers
    .handle("create", ({ payload }) => Effect.flatMap(origin, (o) => provide(Billing.createCheckoutSession(payload, o))))
    .handle("get", ({ params }) => Effect.flatMap(origin, (o) => provide(Billing.getCheckoutSession(params.id, o))))
}))

/** Every route of the API with its middleware, needing only the engine's services. */
export const ApiLive = HttpApiBuilder.layer(BillingApi, { openapiPath: "/v1/openapi.json" }).pipe(
  Layer.provide([AuthHandlers, WebhooksHandlers, ChargesHandlers, WalletHandlers, ProductsHandlers, CustomersHandlers, CouponsHandlers, CouponValidationHandlers, PaymentMethodsHandlers, BoletoPdfHandlers, CheckoutLinksHandlers, CheckoutSessionsHandlers]),
  Layer.provide([AuthenticationLive, InvalidInputLive, InvalidTokenRequestLive])
)

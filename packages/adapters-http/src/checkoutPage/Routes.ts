/**
 * The hosted checkout page's routes, at the URLs the API hands out
 * (`/pay/{id}` of links, sessions and a subscription's `checkoutUrl`):
 *
 * - `GET /pay/{id}`: the page (HTML); a charge's as `/pay/{chargeId}?from={linkId}`
 *   after a payment on the link, so its confirmation can say what the link says;
 * - `POST /pay/{id}`: the form's payment, through the use case of
 *   `POST /v1/checkouts/pay`; then 303 to the charge's page, or the form
 *   again with what was wrong;
 * - `POST /pay/{id}/tokenize`: the card of that link or session (JSON), the
 *   only route that ever receives a card number;
 * - `GET /pay/{id}/quote`: the total and installments of a link with the
 *   order bumps ticked and a coupon's discount (JSON), as the script shows them;
 * - `GET /pay/{chargeId}/status`: that charge's status (JSON), polled;
 * - `GET /pay/assets/{file}`: the stylesheet, the script and the merchants' color themes.
 *
 * Every route is public and throttled per client address. A failure never
 * shows a stack trace or JSON to the buyer: unknown ids are a 404 page,
 * what can no longer be paid a 410 page, anything unexpected a 500 page
 * (logged).
 */
import { Billing, CardInput, type HostedCheckout, hostedKindOf, type HostedPage, Money } from "@billing/core"
import { Cause, Effect, Redacted, Result, Schema } from "effect"
import { HttpRouter, HttpServerError, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { throttleAddress } from "../ClientAddress.ts"
import { envelopeResponse, statusOf } from "../ErrorEnvelope.ts"
import { capture, type Services } from "../handlers/Common.ts"
import { assetAt, ASSETS_PATH } from "./Assets.ts"
import { chargeDocument } from "./ChargeView.ts"
import { checkoutDocument, emptyForm, type FormState, installmentOptions, subtotalOf, tickedBumps } from "./CheckoutView.ts"
import { formValues, readForm } from "./Form.ts"
import { htmlResponse, securityHeaders } from "./Html.ts"
import { noticeDocument } from "./NoticeView.ts"
import { type PageTexts, textsFor } from "./Texts.ts"
import { themeStylesheetAt } from "./Theme.ts"

type PageServices =
  | Services<ReturnType<typeof Billing.hostedPage>>
  | Services<ReturnType<typeof Billing.payHostedCheckout>>
  | Services<ReturnType<typeof Billing.tokenizeHostedCard>>
  | Services<ReturnType<typeof Billing.hostedChargeStatus>>
  | Services<ReturnType<typeof Billing.admitHostedRequest>>

const NOT_FOUND = new Set(["CHECKOUT_NOT_FOUND", "SESSION_NOT_FOUND", "CHARGE_NOT_FOUND"])

const GONE_STATUS = 410

/** The HTML of a page state, with its status. */
const pageResponse = (t: PageTexts, page: HostedPage, state: FormState = emptyForm, status = 200) =>
  page._tag === "Checkout"
    ? htmlResponse(status, checkoutDocument(t, page, state))
    : page._tag === "Charge"
    ? htmlResponse(200, chargeDocument(t, page))
    : htmlResponse(GONE_STATUS, noticeDocument(t, t.gone[page.reason]))

const notFoundPage = (t: PageTexts) => htmlResponse(404, noticeDocument(t, t.notFound))

const tooManyPage = (t: PageTexts, retryAfter: number) =>
  htmlResponse(429, noticeDocument(t, { title: t.tooMany.title, detail: t.tooMany.detail(retryAfter) }), { "retry-after": String(retryAfter) })

/** Any failure left as a page: never a trace, never JSON. */
const orFailurePage = (t: PageTexts) => <E, R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.catchCause(effect, (cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
    const error = cause.reasons.find(Cause.isFailReason)?.error as { readonly _tag?: string; readonly retryAfter?: number } | undefined
    if (error?._tag === "HostedTooManyRequests") return Effect.succeed(tooManyPage(t, error.retryAfter ?? 60))
    if (error?._tag !== undefined && NOT_FOUND.has(error._tag)) return Effect.succeed(notFoundPage(t))
    return Effect.as(Effect.logError("checkout page failed", cause), htmlResponse(500, noticeDocument(t, t.failure)))
  })

/** What the form shows after a payment that did not go through. */
const failedAttempt = (t: PageTexts, values: Record<string, string>, error: { readonly _tag: string; readonly message?: string; readonly details?: unknown; readonly error?: string }): { readonly state: FormState; readonly status: number } => {
  if (error._tag === "CardRefused") {
    const reason = t.declineReasons[error.error ?? ""] ?? error.error ?? ""
    return { state: { values, errors: {}, alert: t.refused(reason) }, status: 402 }
  }
  const { errors, rest } = fieldErrors(t, error)
  return { state: { values, errors, alert: rest ?? (Object.keys(errors).length === 0 ? error.message : undefined) }, status: statusOfError(error) }
}

/** The status the error's class declares, as the API answers it. */
const statusOfError = (error: object) => (Schema.isSchema(error.constructor) ? statusOf(error.constructor) : 500)

/** The problems of `error` under the form's fields, and those of fields the form does not show (`cardToken`) as one text. */
const fieldErrors = (t: PageTexts, error: { readonly message?: string; readonly details?: unknown }) => {
  const errors: Record<string, string> = {}
  const rest: Array<string> = []
  for (const detail of Array.isArray(error.details) ? error.details : [error.details]) {
    const field = (detail as { field?: unknown } | null)?.field
    if (typeof field !== "string") continue
    const message = (detail as { message?: string }).message ?? error.message ?? ""
    if (field in t.fields) errors[field] ??= message
    else rest.push(message)
  }
  return { errors, rest: rest.length === 0 ? undefined : rest.join(" ") }
}

const textsOf = (request: HttpServerRequest.HttpServerRequest) => textsFor(request.headers["accept-language"])

const pathId = Effect.map(HttpRouter.params, (params) => params.id ?? "")

const readBody = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(request.urlParamsBody, (params) => formValues(params.params.map(([key, value]) => [key, typeof value === "string" ? value : Redacted.value(value)] as const)))

const jsonResponse = (body: unknown, status = 200) => HttpServerResponse.jsonUnsafe(body, { status, headers: securityHeaders })

const queryOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://page").searchParams

/**
 * The total of `checkout` with the bumps ticked in `query` (the form's own
 * fields) less `discount` centavos (a coupon's, as the public validation
 * answered it), and the installments of that total: for display only, the
 * payment prices itself.
 */
const quote = (t: PageTexts, checkout: HostedCheckout, query: URLSearchParams) => {
  const subtotal = subtotalOf(checkout, tickedBumps(checkout, formValues(query.entries())))
  const asked = Number(query.get("discount") ?? "0")
  const discount = Money.cents(Number.isSafeInteger(asked) ? Math.min(Math.max(asked, 0), subtotal) : 0)
  const total = Money.cents(subtotal - discount)
  return {
    subtotal,
    total: Money.formatReais(total),
    discount: discount > 0 ? `-${Money.formatReais(discount)}` : null,
    couponApplied: discount > 0 ? t.couponApplied(Money.formatReais(discount)) : null,
    installments: checkout.methods.includes("creditcard") ? installmentOptions(t, checkout.installments, total) : []
  }
}

/** The routes of the page, with the engine's services captured when the server starts. */
export const CheckoutPageLive = HttpRouter.use(Effect.fn("CheckoutPage.routes")(function*(router) {
  const provide = yield* capture<PageServices>()
  const admit = (budget: "read" | "act", request: HttpServerRequest.HttpServerRequest) =>
    provide(Billing.admitHostedRequest(budget, throttleAddress(request)))

  yield* router.add("GET", `${ASSETS_PATH}/:file`, (request) => {
    const path = new URL(request.url, "http://page").pathname
    const asset = assetAt(path)
    const theme = themeStylesheetAt(path)
    // Both are named by their content: cached for good.
    const cached = { "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" }
    return Effect.succeed(asset !== undefined
      ? HttpServerResponse.uint8Array(asset.body, { contentType: asset.contentType, headers: cached })
      : theme !== undefined
      ? HttpServerResponse.text(theme, { contentType: "text/css; charset=utf-8", headers: cached })
      : HttpServerResponse.empty({ status: 404 }))
  })

  yield* router.add("GET", "/pay/:id", (request) => {
    const t = textsOf(request)
    return Effect.gen(function*() {
      yield* admit("read", request)
      return pageResponse(t, yield* provide(Billing.hostedPage(yield* pathId, queryOf(request).get("from") ?? undefined)))
    }).pipe(orFailurePage(t))
  })

  yield* router.add("GET", "/pay/:id/quote", (request) =>
    Effect.gen(function*() {
      yield* admit("read", request)
      const id = yield* pathId
      const page = hostedKindOf(id) === "charge" ? undefined : yield* provide(Billing.hostedPage(id))
      if (page?._tag !== "Checkout") return yield* envelopeResponse(404, "CHECKOUT_NOT_FOUND", `Checkout ${id} não encontrado`)
      return jsonResponse(quote(textsOf(request), page, queryOf(request)))
    }).pipe(orEnvelope))

  yield* router.add("POST", "/pay/:id", (request) => {
    const t = textsOf(request)
    return Effect.gen(function*() {
      yield* admit("act", request)
      const id = yield* pathId
      const page = yield* provide(Billing.hostedPage(id))
      if (page._tag !== "Checkout") return pageResponse(t, page)
      const values = yield* readBody(request)
      const choices = readForm(values, page)
      const paid = Result.isFailure(choices) ? Result.fail(choices.failure) : yield* Effect.result(provide(Billing.payHostedCheckout(page.id, page.kind, choices.success)))
      return yield* afterPayment(t, page, values, paid)
    }).pipe(orFailurePage(t))
  })

  yield* router.add("POST", "/pay/:id/tokenize", (request) =>
    Effect.gen(function*() {
      yield* admit("act", request)
      const id = yield* pathId
      const kind = hostedKindOf(id)
      if (kind !== "link" && kind !== "session") return yield* envelopeResponse(404, "CHECKOUT_NOT_FOUND", `Checkout ${id} não encontrado`)
      const card = yield* Effect.flatMap(request.json, Schema.decodeUnknownEffect(Schema.Struct({ card: CardInput })))
      return jsonResponse(yield* provide(Billing.tokenizeHostedCard(id, kind, card.card)))
    }).pipe(orEnvelope))

  yield* router.add("GET", "/pay/:id/status", (request) =>
    Effect.gen(function*() {
      yield* admit("read", request)
      return jsonResponse(yield* provide(Billing.hostedChargeStatus(yield* pathId)))
    }).pipe(orEnvelope))
}))

type PaymentOutcome = Result.Result<Effect.Success<ReturnType<typeof Billing.payHostedCheckout>>, Effect.Error<ReturnType<typeof Billing.payHostedCheckout>>>

/** The answer to a posted form's payment: 303 to the charge's page, or the form again with its problems. */
const afterPayment = (t: PageTexts, checkout: HostedCheckout, values: Record<string, string>, paid: PaymentOutcome) => {
  if (Result.isSuccess(paid)) {
    const chargeId = "chargeId" in paid.success ? paid.success.chargeId : undefined
    // A trial charges nothing today: there is no charge to show.
    return Effect.succeed(chargeId === undefined
      ? htmlResponse(200, noticeDocument(t, { title: t.paid, detail: t.trialStarted }))
      : HttpServerResponse.redirect(`/pay/${encodeURIComponent(chargeId)}?from=${encodeURIComponent(checkout.id)}`, { status: 303, headers: securityHeaders }))
  }
  const error = paid.failure
  if (NOT_FOUND.has(error._tag)) return Effect.fail(error)
  if (error._tag === "CHARGE_NOT_PAYABLE") {
    return Effect.succeed(htmlResponse(GONE_STATUS, noticeDocument(t, t.gone[checkout.kind === "session" ? "paid" : "inactive"])))
  }
  const { state, status } = failedAttempt(t, values, error)
  return Effect.succeed(pageResponse(t, checkout, state, status))
}

/** The JSON routes' failures in the API's envelope (the script reads `details.field`). */
const orEnvelope = <E, R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.catchCause(effect, (cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
    const error = cause.reasons.find(Cause.isFailReason)?.error as { readonly _tag?: string; readonly message?: string; readonly details?: unknown; readonly retryAfter?: number } | undefined
    if (error?._tag === "HostedTooManyRequests") {
      return Effect.map(envelopeResponse(429, "TOO_MANY_REQUESTS", "Muitas tentativas"), HttpServerResponse.setHeader("retry-after", String(error.retryAfter)))
    }
    if (error?._tag !== undefined && NOT_FOUND.has(error._tag)) return envelopeResponse(404, error._tag, error.message ?? "")
    // A body that is not JSON, or not a card.
    if (error?._tag === "SchemaError" || HttpServerError.isHttpServerError(error)) {
      return envelopeResponse(400, "INVALID_DATA", "Dados do cartão inválidos", { field: "card" })
    }
    // The core's errors, as the API answers them.
    if (error?._tag !== undefined && error.message !== undefined && /^[A-Z_]+$/.test(error._tag)) {
      return envelopeResponse(statusOfError(error), error._tag, error.message, error.details ?? null)
    }
    return Effect.flatMap(Effect.logError("checkout page failed", cause), () => envelopeResponse(500, "INTERNAL_ERROR", "Erro interno"))
  })

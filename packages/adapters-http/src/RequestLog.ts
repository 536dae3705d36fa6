/**
 * One log line per request, and the request id that ties it to the client.
 *
 * The line is written once the response is sent (or the client went away):
 * method, path without the query string (queries may carry documents, e-mail
 * addresses or tokens), status, duration in milliseconds, the account when
 * the request was authenticated, and the request id. Never a body, a header
 * value or a token: card data and credentials only ever travel in those.
 *
 * The request id is the client's `x-request-id` when it sends a sane one (at
 * most 100 characters of `[A-Za-z0-9._-]`, so it cannot forge log lines or
 * bloat them), else a fresh `req_` id; it is echoed on every response,
 * errors included, and annotates every log line written while the request
 * runs (an unhandled error's cause, say).
 *
 * The middleware wraps the whole server chain (`HttpRouter.serve`'s
 * `middleware`), outside the router's error handling, so the status logged is
 * the one sent. It runs inside the server span Effect opens for the request
 * (the caller's trace when it sent a `traceparent`): the line carries that
 * span's trace id (`Logging.ts` of the CLI), and the span the request id and
 * the account.
 */
import { Ids, RequestIds } from "@billing/core"
import { Clock, Context, Effect, Exit } from "effect"
import { HttpEffect, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { recordRequest, UNMATCHED_ROUTE } from "./Metrics.ts"

/** The header that carries the request id, both ways. */
export const REQUEST_ID_HEADER = "x-request-id"

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/

/** The client's request id when it is one we can echo and log as is. */
export const saneRequestId = (value: string | undefined): string | undefined =>
  value !== undefined && SANE_REQUEST_ID.test(value) ? value : undefined

/** What the request log learns while the request runs: the account (written by `Authentication`) and the route matched (`RouteOfRequest`). */
export interface RequestFacts {
  accountId: string | undefined
  route: string | undefined
}

/**
 * The facts of the request in flight, when it runs under the request log.
 * Mutable by design, like Effect's own per-request state: the authentication
 * middleware runs deep inside the request and only it knows the account.
 */
export const CurrentRequestFacts = Context.Reference<RequestFacts | undefined>(
  "@billing/adapters-http/RequestLog/CurrentRequestFacts",
  { defaultValue: () => undefined }
)

/**
 * Records the template of the route that matched (`/v1/charges/:chargeId`),
 * for the metrics: a route middleware, provided to every route layer of the
 * server, since only inside a route is it known.
 */
export const RouteOfRequest = HttpRouter.middleware((httpEffect) =>
  Effect.gen(function*() {
    const { route } = yield* HttpRouter.RouteContext
    const facts = yield* CurrentRequestFacts
    if (facts !== undefined) facts.route = route.path
    return yield* httpEffect
  })
).layer

/** Records the account the request acts for, when a request log is listening. */
export const recordAccount = (accountId: string) =>
  Effect.map(CurrentRequestFacts, (facts) => {
    if (facts !== undefined) facts.accountId = accountId
  })

// A path is logged whole up to this length: enough for every route, bounded
// for the request that sends a 16 kB one.
const MAX_LOGGED_PATH = 200

const pathOf = (url: string) => {
  const end = url.search(/[?#]/)
  const path = end === -1 ? url : url.slice(0, end)
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path
}

// A failure here is what the router's error handling let through: the
// client going away (499) or the server stopping (503), as Effect answers them.
const statusOf = <E>(exit: Exit.Exit<HttpServerResponse.HttpServerResponse, E>) =>
  Exit.isSuccess(exit)
    ? Effect.succeed(exit.value.status)
    : Effect.map(HttpServerError.causeResponse(exit.cause), ([response]) => response.status)

/**
 * The request log middleware, for `HttpRouter.serve(app, { middleware })`.
 * Its line is at `Info`; a 5xx at `Error`, so that it survives a
 * `BILLING_LOG_LEVEL` of `warn` or `error`.
 *
 * Untraced: it runs inside the server span Effect opens for the request, and
 * a span of its own would come between them, taking the `http.route` the
 * router writes on its parent, and the line's span id.
 */
export const requestLog = Effect.fnUntraced(
  function*<E, R>(httpApp: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) {
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = yield* Clock.currentTimeNanos
    const requestId = saneRequestId(request.headers[REQUEST_ID_HEADER]) ?? (yield* (yield* Ids).make(RequestIds))
    yield* HttpEffect.appendPreResponseHandler((_, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, REQUEST_ID_HEADER, requestId))
    )
    const facts: RequestFacts = { accountId: undefined, route: undefined }
    const exit = yield* httpApp.pipe(
      Effect.provideService(CurrentRequestFacts, facts),
      Effect.annotateLogs({ requestId }),
      Effect.exit
    )
    const durationMs = Math.round(Number((yield* Clock.currentTimeNanos) - started) / 1e5) / 10
    const status = yield* statusOf(exit)
    const path = pathOf(request.url)
    const annotations = {
      method: request.method,
      path,
      status,
      durationMs,
      ...(facts.accountId === undefined ? {} : { accountId: facts.accountId }),
      requestId
    }
    const message = `${request.method} ${path} ${status} ${durationMs}ms`
    yield* (status >= 500 ? Effect.logError(message) : Effect.logInfo(message)).pipe(Effect.annotateLogs(annotations))
    // On the request's span too, for the operator who starts from the trace.
    yield* Effect.annotateCurrentSpan({
      "billing.request_id": requestId,
      ...(facts.accountId === undefined ? {} : { "billing.account_id": facts.accountId })
    })
    yield* recordRequest({ route: facts.route ?? UNMATCHED_ROUTE, method: request.method, status, seconds: durationMs / 1000 })
    return yield* exit
  }
)

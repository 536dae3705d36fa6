/**
 * The server's metrics, in Effect's `Metric` registry, served at `GET
 * /metrics` in the Prometheus text format by Effect's own exporter
 * (`PrometheusMetrics`). Requests are counted by route template (the
 * router's `/v1/charges/:chargeId`, never the raw path: an id per series
 * would grow without end), method and status class, and timed by route
 * template and method.
 *
 * `/metrics` tells a reader the business's volume, so it is meant for the
 * operator's network; `BILLING_METRICS_TOKEN` (the `token` option) makes it
 * answer only `Authorization: Bearer <token>` (Prometheus' `authorization`
 * setting), compared in constant time.
 */
import { Billing, constantTimeEqual } from "@billing/core"
import { Clock, type Context, Effect, Layer, Metric } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"

/** The route of a request no route matched (404s, probes of paths that do not exist). */
export const UNMATCHED_ROUTE = "unmatched"

const requests = Metric.counter("http_server_requests_total", {
  description: "HTTP requests answered, by route template, method and status class",
  incremental: true
})

const duration = Metric.histogram("http_server_request_duration_seconds", {
  description: "Time to answer an HTTP request, by route template and method",
  // 2.5 ms to about 10 s: a token check is a few milliseconds, a billing run's slowest request seconds.
  boundaries: Metric.exponentialBoundaries({ start: 0.0025, factor: 2, count: 13 })
})

/** Counts and times one answered request. */
export const recordRequest = (request: { readonly route: string; readonly method: string; readonly status: number; readonly seconds: number }) =>
  Effect.all([
    Metric.update(Metric.withAttributes(requests, { route: request.route, method: request.method, status: `${Math.floor(request.status / 100)}xx` }), 1),
    Metric.update(Metric.withAttributes(duration, { route: request.route, method: request.method }), request.seconds)
  ], { discard: true })

/** The services a scrape's backlog reading needs (the database's ports). */
type BacklogServices = Effect.Services<ReturnType<typeof Billing.recordBacklog>>

/**
 * Reads the queues' backlogs into their gauges before a scrape is written;
 * a database slower than 2 s (or down) costs the gauges' freshness, not the
 * scrape: the rest is still served, and `/readyz` tells the database's state.
 */
const readBacklog = (services: Context.Context<BacklogServices>) =>
  Billing.recordBacklog().pipe(
    Effect.provideContext(services),
    Effect.timeout("2 seconds"),
    Effect.catchCause((cause) => Effect.logWarning("metrics: the backlog could not be read", cause))
  )

/**
 * How long one reading of the backlogs serves by default: scrapes come
 * every 15 s or more, and `/metrics` may answer anyone on the operator's
 * network, so a burst of requests costs the database one reading, not one
 * each.
 */
const BACKLOG_READING_MILLIS = 10_000

/** The backlog reading, at most once per `everyMillis` (scrapes in between see the last one). */
const backlogReader = (services: Context.Context<BacklogServices>, everyMillis: number) => {
  let readAt = Number.NEGATIVE_INFINITY
  return Effect.flatMap(Clock.currentTimeMillis, (now) => {
    if (now - readAt < everyMillis) return Effect.void
    readAt = now
    return readBacklog(services)
  })
}

/** `GET /metrics`; with `token`, only for `Authorization: Bearer <token>` (else 401). */
export const MetricsLive = (options: { readonly token?: string | undefined; readonly backlogReadingMillis?: number | undefined } = {}) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const router = yield* HttpRouter.HttpRouter
    const refreshBacklog = backlogReader(yield* Effect.context<BacklogServices>(), options.backlogReadingMillis ?? BACKLOG_READING_MILLIS)
    const expected = options.token === undefined || options.token === "" ? undefined : `Bearer ${options.token}`
    yield* router.add("GET", "/metrics", Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (expected !== undefined && !constantTimeEqual(request.headers.authorization ?? "", expected)) return HttpServerResponse.empty({ status: 401 })
      yield* refreshBacklog
      return HttpServerResponse.text(yield* PrometheusMetrics.format(), { contentType: "text/plain; version=0.0.4; charset=utf-8" })
    }))
  }))

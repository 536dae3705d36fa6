// A module of its own, not the package index, which loads every adapter (Redis, sockets, workers): 27 MB of RSS.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, type Duration, Effect, Layer, Tracer } from "effect"
import { HttpMiddleware, HttpRouter } from "effect/http"
import type { IpNetwork } from "effect/net"
import { CheckoutPageLive } from "./checkoutPage/Routes.ts"
import { DocsLive } from "./Docs.ts"
import { ErrorHandlingLive } from "./ErrorHandling.ts"
import { HealthLive } from "./Health.ts"
import { gracefulServer } from "./GracefulStop.ts"
import { ApiLive } from "./handlers/index.ts"
import { MetricsLive } from "./Metrics.ts"
import { requestLog, RouteOfRequest } from "./RequestLog.ts"

/**
 * Builds `layer` outside any span. The handler groups capture the context
 * they are built in and provide it to every request (Effect's
 * `HttpApiBuilder.group` does so too), and each request runs in the context
 * the server was started in: built inside the command's span (`Cli.serve`,
 * which lasts as long as the process), that span would be the parent of every
 * request's spans in place of the request's own, and every request would
 * share its trace id.
 */
const outsideSpans = <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.fromBuild((memoMap, scope) =>
    Effect.updateContext(
      Layer.buildWithMemoMap(layer, memoMap, scope),
      // No layer here requires a span: what is left still meets `R`.
      (context: Context.Context<R>) => Context.omit(Tracer.ParentSpan)(context) as Context.Context<R>
    )
  )

/**
 * The HTTP server on `port` (0 picks a free one), serving every route of the
 * API, its reference at `/docs`, the hosted checkout page at `/pay/{id}`
 * (the `url` of links and sessions, a subscription's `checkoutUrl`) and the
 * probes `/healthz` and `/readyz` (`Health.ts`), with one log line per request
 * (`RequestLog.ts`; Effect's own response logger is off in its favour).
 *
 * `trustedProxies`: the networks of the reverse proxies in front of the
 * server. Only a request arriving from one of them has its client address
 * taken from `X-Forwarded-For` (the token route throttles by it), and its
 * scheme and host from `X-Forwarded-Proto` and `-Host` (the links we hand
 * out); from anywhere else those headers are ignored, since a client could
 * write any address there and escape the throttle, or any host. None by
 * default.
 */
export const HttpServerLive = <E = never, R = never>(options: {
  readonly port: number
  readonly host?: string
  readonly trustedProxies?: ReadonlyArray<IpNetwork.IpNetwork> | undefined
  /** How long a stop waits for the requests in flight before interrupting them (`GracefulStop.ts`); 20 s by default. */
  readonly stopDeadline?: Duration.Input | undefined
  /** With a token, `/metrics` answers only `Authorization: Bearer <token>` (`Metrics.ts`). */
  readonly metricsToken?: string | undefined
  /** How long one reading of the backlogs serves `/metrics` (10 s by default; 0 reads at every scrape). */
  readonly backlogReadingMillis?: number | undefined
  /** Routes of other adapters served beside the API (the PSPs' callbacks). */
  readonly routes?: Layer.Layer<never, E, R> | undefined
}) =>
  outsideSpans(Layer.unwrap(Effect.sync(() => {
    const graceful = gracefulServer()
    const routes = Layer.mergeAll(ApiLive, DocsLive, CheckoutPageLive, HealthLive, MetricsLive({ token: options.metricsToken, backlogReadingMillis: options.backlogReadingMillis }), options.routes ?? Layer.empty).pipe(
      Layer.provide(RouteOfRequest)
    )
    const served = HttpRouter.serve(Layer.mergeAll(routes, ErrorHandlingLive), {
      disableLogger: true,
      middleware: options.trustedProxies === undefined || options.trustedProxies.length === 0
        ? requestLog
        : (app) => requestLog(HttpMiddleware.xForwardedHeaders({ trustedProxies: options.trustedProxies! })(app))
    })
    // Built after the server and its routes, so its finalizer runs first: the requests in flight are answered
    // before Effect's own shutdown closes the server and interrupts what is left.
    const drainOnStop = Layer.effectDiscard(Effect.addFinalizer(() => graceful.drain(options.stopDeadline ?? "20 seconds")))
    return drainOnStop.pipe(
      Layer.provideMerge(served),
      Layer.provideMerge(NodeHttpServer.layer(() => graceful.server, { port: options.port, host: options.host ?? "0.0.0.0" }))
    )
  })))

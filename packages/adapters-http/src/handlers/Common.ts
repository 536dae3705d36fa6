/**
 * What the handler groups share. Handlers capture the engine's services once,
 * when their layer is built, and provide them per request; the `Caller` comes
 * from the `Authentication` middleware.
 */
import type { Caller } from "@billing/core"
import { Context, Effect, Option, Redacted, Tracer } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Bearer } from "../api/Common.ts"

/** The services a use case needs besides the `Caller`: `Services<ReturnType<typeof Billing.useCase>>`. */
export type Services<A> = A extends Effect.Effect<any, any, infer R> ? Exclude<R, Caller> : never

/**
 * Captures the services `R` when the handlers are built; returns a function
 * that provides them to a request. Without the span the handlers were built
 * in: a use case's spans are children of its request's span, in its trace.
 */
export const capture = <R>() =>
  Effect.map(
    Effect.map(Effect.context<R>(), Context.omit(Tracer.ParentSpan)),
    (services) => <A, E, In extends Caller | R>(effect: Effect.Effect<A, E, In>) => Effect.provideContext(effect, services)
  )

/**
 * `scheme://host` of the request. `X-Forwarded-Host` and `-Proto` count only
 * from a trusted proxy: `HttpServerLive` applies them then (`trustedProxies`),
 * so a client cannot choose the host of the links we hand out.
 */
export const origin = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => Option.match(HttpServerRequest.toURL(request), { onNone: () => "http://localhost", onSome: (url) => url.origin })
)

/**
 * The bearer token of a request, read as the `Authentication` middleware
 * reads it (the same `Bearer` scheme, decoded by the builder); `undefined`
 * when there is none. For public routes that a token only refines.
 */
export const bearerToken = Effect.map(
  HttpApiBuilder.securityDecode(Bearer),
  (credential) => Redacted.value(credential) || undefined
)

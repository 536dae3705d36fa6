import { Cause, Effect } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { envelopeResponse } from "./ErrorEnvelope.ts"
import { issueDetails } from "./Middleware.ts"

/**
 * The last line of defence, around every route: an unknown route answers 404
 * `NOT_FOUND`, a body that is not JSON answers 400 `INVALID_DATA`, and any
 * defect answers 500 `INTERNAL_ERROR` in the envelope (logged with its
 * cause, never shown to the client).
 */
export const ErrorHandlingLive = HttpRouter.middleware(
  (httpEffect) =>
    httpEffect.pipe(
      Effect.flatMap(unsupportedMediaType),
      Effect.catchCause((cause) => {
      const failure = cause.reasons.find(Cause.isFailReason)?.error
      const defect = cause.reasons.find(Cause.isDieReason)?.defect
      const error = failure ?? defect
      if (HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound") {
        return envelopeResponse(404, "NOT_FOUND", "Rota não encontrada")
      }
      if (HttpApiError.HttpApiSchemaError.is(error) && error.kind !== "Body" && error.kind !== "ResponseHeaders") {
        const details = issueDetails(error)
        return envelopeResponse(400, "INVALID_DATA", "Dados inválidos", details)
      }
      if (HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError") {
        return envelopeResponse(400, "INVALID_DATA", "Corpo da requisição inválido")
      }
      if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
      return Effect.logError("unhandled error", cause).pipe(
        Effect.andThen(envelopeResponse(500, "INTERNAL_ERROR", "Erro interno"))
      )
    })),
  { global: true }
)

/**
 * The API answers a body of an unsupported media type with a bare text 415
 * before any handler runs; clients expect the spec's shapes for bad input.
 */
const unsupportedMediaType = (response: HttpServerResponse.HttpServerResponse) =>
  response.status !== 415
    ? Effect.succeed(response)
    : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const contentType = request.headers["content-type"] ?? ""
      return request.url.startsWith("/auth/")
        ? Effect.succeed(HttpServerResponse.jsonUnsafe({
          error: "invalid_request",
          error_description: `unsupported content-type ${contentType}: send application/x-www-form-urlencoded or application/json`
        }, { status: 400 }))
        : envelopeResponse(400, "INVALID_DATA", `Content-Type não suportado: ${contentType}; envie application/json`, {
          field: "content-type"
        })
    })

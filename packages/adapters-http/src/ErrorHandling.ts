import { Cause, Effect } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse, Multipart } from "effect/http"
import { HttpApiError } from "effect/http-api"
import { envelopeResponse, refusalResponse } from "./ErrorEnvelope.ts"
import { guardInput, MAX_BODY_BYTES } from "./InputGuard.ts"
import { issueDetails } from "./Middleware.ts"

/**
 * The last line of defence, around every route: input beyond the bounds of
 * `InputGuard` is refused first; an unknown route answers 404 `NOT_FOUND`, a
 * body that is not JSON (or multipart that does not parse) answers 400
 * `INVALID_DATA`, a body above 1 MiB (or an upload beyond its limits) 413
 * `PAYLOAD_TOO_LARGE`, and any defect answers 500 `INTERNAL_ERROR` in the
 * envelope (logged with its cause, never shown to the client).
 */
export const ErrorHandlingLive = HttpRouter.middleware(
  (httpEffect) =>
    guardInput(httpEffect).pipe(
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
        return error.reason.reason === "BodyTooLarge" ? tooLarge : envelopeResponse(400, "INVALID_DATA", "Corpo da requisição inválido")
      }
      // A multipart upload (the documents-copy page) that breaks its limits, or does not parse.
      if (Multipart.isMultipartError(error) && error.reason._tag !== "InternalError") {
        return error.reason._tag === "Parse" ? envelopeResponse(400, "INVALID_DATA", "Corpo multipart inválido") : tooLarge
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
      return refusalResponse(request.url, 400, {
        oauthDescription: `unsupported content-type ${contentType}: send application/x-www-form-urlencoded or application/json`,
        code: "INVALID_DATA",
        message: `Content-Type não suportado: ${contentType}; envie application/json`,
        details: { field: "content-type" }
      })
    })

/** 413 for a body above `MAX_BODY_BYTES`: the OAuth body on the token route, the envelope elsewhere. */
const tooLarge = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  refusalResponse(request.url, 413, {
    oauthDescription: `body larger than ${MAX_BODY_BYTES} bytes`,
    code: "PAYLOAD_TOO_LARGE",
    message: "Corpo da requisição maior que 1 MiB",
    details: { maxBytes: Number(MAX_BODY_BYTES) }
  }))

/**
 * The spec's error shapes, written once. Core errors are tagged with their
 * wire code and annotated with their HTTP status; `enveloped` turns such a
 * class into the schema of `{ error: { message, code, details, timestamp } }`
 * for endpoint declarations (and so for the OpenAPI document), and
 * `envelopeResponse` builds the same body for the errors that are answered
 * outside an endpoint (authentication, bad input, unknown routes, defects).
 */
import { Schema, SchemaGetter } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiSchema } from "effect/http-api"

export const EnvelopeBody = Schema.Struct({
  error: Schema.Struct({
    message: Schema.String,
    code: Schema.String,
    details: Schema.NullOr(Schema.Unknown),
    timestamp: Schema.String
  })
}).annotate({ identifier: "ErrorEnvelope" })

export const envelopeBody = (code: string, message: string, details: unknown = null) => ({
  error: { message, code, details: details ?? null, timestamp: new Date().toISOString() }
})

/** A JSON response with the envelope body. */
export const envelopeResponse = (status: number, code: string, message: string, details: unknown = null) =>
  HttpServerResponse.jsonUnsafe(envelopeBody(code, message, details), { status })

type EnvelopedError = Schema.Top & {
  readonly fields: { readonly _tag: Schema.tag<string> }
  readonly Type: { readonly _tag: string; readonly message: string; readonly details?: unknown }
  readonly Encoded: { readonly _tag: string; readonly message: string; readonly details?: unknown }
}

const statusOf = (schema: Schema.Top): number => {
  const status = (schema.ast.annotations as { httpApiStatus?: number } | undefined)?.httpApiStatus
  return typeof status === "number" ? status : 500
}

/** The envelope schema of a core error class, with the class's status. */
export const enveloped = <E extends EnvelopedError>(error: E) => {
  const tag = error.fields._tag.schema.literal as string
  return EnvelopeBody.pipe(
    Schema.decodeTo(error, {
      decode: SchemaGetter.transform((body: typeof EnvelopeBody.Type) =>
        ({ _tag: tag, message: body.error.message, details: body.error.details }) as unknown as E["Encoded"]
      ),
      encode: SchemaGetter.transform((e: E["Encoded"]) => envelopeBody(tag, e.message, e.details))
    }),
    HttpApiSchema.status(statusOf(error))
  ).annotate({ identifier: tag })
}

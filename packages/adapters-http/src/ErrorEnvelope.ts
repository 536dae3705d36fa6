/**
 * The spec's error shapes, written once. Core errors are tagged with their
 * wire code and annotated with their HTTP status; `enveloped` turns such a
 * class into the schema of `{ error: { message, code, details, timestamp } }`
 * for endpoint declarations (and so for the OpenAPI document), and
 * `envelopeResponse` builds the same body for the errors that are answered
 * outside an endpoint (authentication, bad input, unknown routes, defects).
 */
import { Clock, Effect, Schema, SchemaGetter } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiSchema } from "effect/http-api"

/**
 * The fields of the envelope with `code` as given. `details` is `null`, an
 * object or an array depending on the code; `Unknown` states exactly that
 * much (a JSON Schema of `{}`), and accepts `null` like any other value.
 */
const envelopeFields = <Code extends Schema.Top>(code: Code) => ({
  error: Schema.Struct({
    message: Schema.String,
    code,
    details: Schema.Unknown,
    timestamp: Schema.String
  })
})

export const EnvelopeBody = Schema.Struct(envelopeFields(Schema.String)).annotate({ identifier: "ErrorEnvelope" })

/** The envelope of an error answered at `at` (the instant of the Clock). */
export const envelopeBody = (code: string, message: string, details: unknown = null, at: Date) => ({
  error: { message, code, details: details ?? null, timestamp: at.toISOString() }
})

/** The envelope stamped with the Clock's instant. */
const stampedEnvelope = (code: string, message: string, details: unknown) =>
  Effect.map(Clock.currentTimeMillis, (now) => envelopeBody(code, message, details, new Date(now)))

/** A JSON response with the envelope body, stamped with the Clock's instant. */
export const envelopeResponse = (status: number, code: string, message: string, details: unknown = null) =>
  Effect.map(stampedEnvelope(code, message, details), (body) => HttpServerResponse.jsonUnsafe(body, { status }))

/**
 * A refusal answered before any handler runs, in the shape the route's
 * clients read: OAuth's `{ error: "invalid_request", error_description }` on
 * the token route (`/auth/*`), the envelope everywhere else.
 */
export const refusalResponse = (url: string, status: number, refusal: {
  readonly oauthDescription: string
  readonly code: string
  readonly message: string
  readonly details?: unknown
}) =>
  url.startsWith("/auth/")
    ? Effect.succeed(HttpServerResponse.jsonUnsafe({ error: "invalid_request", error_description: refusal.oauthDescription }, { status }))
    : envelopeResponse(status, refusal.code, refusal.message, refusal.details)

type EnvelopedError = Schema.Top & {
  readonly fields: { readonly _tag: Schema.tag<string> }
  readonly Type: { readonly _tag: string; readonly message: string; readonly details?: unknown }
  readonly Encoded: { readonly _tag: string; readonly message: string; readonly details?: unknown }
}

/** The status a core error class declares (`httpApiStatus`); 500 when none. */
export const statusOf = (schema: Schema.Top): number => {
  const status = (schema.ast.annotations as { httpApiStatus?: number } | undefined)?.httpApiStatus
  return typeof status === "number" ? status : 500
}

// One envelope schema per error class: endpoints and middleware that declare
// the same error share it, so each response lists a code once.
const envelopes = new WeakMap<Schema.Top, Schema.Top>()

/**
 * The envelope schema of a core error class, with the class's status. Its
 * `code` is the class's literal code, so the OpenAPI document lists the codes
 * each response can carry (one component per code, named after it).
 */
export const enveloped = <E extends EnvelopedError>(error: E) => {
  const known = envelopes.get(error)
  if (known !== undefined) return known as ReturnType<typeof envelopeOf<E>>
  const schema = envelopeOf(error)
  envelopes.set(error, schema)
  return schema
}

/**
 * The OpenAPI component of an error class: its code, or the class's own
 * `envelopeIdentifier` when two classes share a code with different statuses.
 */
const identifierOf = (error: Schema.Top, tag: string): string => {
  const named = (error.ast.annotations as { envelopeIdentifier?: unknown } | undefined)?.envelopeIdentifier
  return typeof named === "string" ? named : tag
}

const envelopeOf = <E extends EnvelopedError>(error: E) => {
  const tag = error.fields._tag.schema.literal as string
  const identifier = identifierOf(error, tag)
  const body = Schema.Struct(envelopeFields(Schema.Literal(tag))).annotate({ identifier })
  return body.pipe(
    Schema.decodeTo(error, {
      decode: SchemaGetter.transform((encoded: typeof body.Type) =>
        ({ _tag: tag, message: encoded.error.message, details: encoded.error.details }) as unknown as E["Encoded"]
      ),
      encode: SchemaGetter.transformEffect((e: E["Encoded"]) => stampedEnvelope(tag, e.message, e.details))
    }),
    HttpApiSchema.status(statusOf(error))
  ).annotate({ identifier })
}

type BareError = Schema.Top & {
  readonly fields: { readonly _tag: Schema.tag<string> }
  readonly Type: { readonly _tag: string; readonly message: string }
  readonly Encoded: { readonly _tag: string; readonly message: string }
}

/**
 * The schema of a refusal answered without the envelope, `{ message, code }`
 * (spec: Errors, the proposal route's refusals), with the class's status.
 */
const bareSchemas = new WeakMap<Schema.Top, Schema.Top>()

export const bare = <E extends BareError>(error: E) => {
  const known = bareSchemas.get(error)
  if (known !== undefined) return known as ReturnType<typeof bareOf<E>>
  const schema = bareOf(error)
  bareSchemas.set(error, schema)
  return schema
}

const bareOf = <E extends BareError>(error: E) => {
  const tag = error.fields._tag.schema.literal as string
  const body = Schema.Struct({ message: Schema.String, code: Schema.Literal(tag) }).annotate({ identifier: `${tag}_BARE` })
  return body.pipe(
    Schema.decodeTo(error, {
      decode: SchemaGetter.transform((encoded: typeof body.Type) => ({ _tag: tag, message: encoded.message }) as unknown as E["Encoded"]),
      encode: SchemaGetter.transform((e: E["Encoded"]) => ({ message: e.message, code: tag }))
    }),
    HttpApiSchema.status(statusOf(error))
  ).annotate({ identifier: `${tag}_BARE` })
}

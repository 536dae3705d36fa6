import { Schema, SchemaGetter } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** The bare RFC 6749 body of the token route: `{ error, error_description? }`. */
const oauthFields = <Code extends Schema.Top>(error: Code) => ({
  error,
  error_description: Schema.optionalKey(Schema.String)
})

type OAuthError = Schema.Top & {
  readonly fields: { readonly _tag: Schema.tag<string> }
  readonly Encoded: { readonly _tag: string; readonly error: string; readonly error_description?: string }
}

// One body schema per error class: the endpoint and the middleware that both
// answer `invalid_request` share it, so the response lists it once.
const bodies = new WeakMap<Schema.Top, Schema.Top>()

/**
 * The OAuth body schema of a core OAuth error class, with its status and its
 * RFC 6749 `error` code (a literal, so the OpenAPI document lists the codes
 * of each response).
 */
export const oauthBody = <E extends OAuthError>(error: E, status: number, code: string) => {
  const known = bodies.get(error)
  if (known !== undefined) return known as ReturnType<typeof bodyOf<E>>
  const schema = bodyOf(error, status, code)
  bodies.set(error, schema)
  return schema
}

const bodyOf = <E extends OAuthError>(error: E, status: number, code: string) => {
  const tag = error.fields._tag.schema.literal as string
  const body = Schema.Struct(oauthFields(Schema.Literal(code))).annotate({ identifier: tag })
  return body.pipe(
    Schema.decodeTo(error, {
      decode: SchemaGetter.transform((encoded: typeof body.Type) => ({ _tag: tag, ...encoded }) as unknown as E["Encoded"]),
      encode: SchemaGetter.transform((e: E["Encoded"]) => ({
        error: e.error,
        ...(e.error_description === undefined ? {} : { error_description: e.error_description })
      }))
    }),
    HttpApiSchema.status(status)
  ).annotate({ identifier: tag })
}

import { Schema, SchemaGetter } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** The bare RFC 6749 body of the token route: `{ error, error_description? }`. */
export const OAuthErrorBody = Schema.Struct({
  error: Schema.String,
  error_description: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "OAuthError" })

type OAuthError = Schema.Top & {
  readonly fields: { readonly _tag: Schema.tag<string> }
  readonly Encoded: { readonly _tag: string; readonly error: string; readonly error_description?: string }
}

/** The OAuth body schema of a core OAuth error class, with the class's status. */
export const oauthBody = <E extends OAuthError>(error: E, status: number) => {
  const tag = error.fields._tag.schema.literal as string
  return OAuthErrorBody.pipe(
    Schema.decodeTo(error, {
      decode: SchemaGetter.transform((body: typeof OAuthErrorBody.Type) => ({ _tag: tag, ...body }) as unknown as E["Encoded"]),
      encode: SchemaGetter.transform((e: E["Encoded"]) => ({
        error: e.error,
        ...(e.error_description === undefined ? {} : { error_description: e.error_description })
      }))
    }),
    HttpApiSchema.status(status)
  ).annotate({ identifier: tag })
}

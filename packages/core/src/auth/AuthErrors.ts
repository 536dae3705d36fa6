/**
 * Errors of authentication. The OAuth ones answer the token route with the
 * bare `{ error }` body of RFC 6749; `MissingScope` answers a business route
 * with the bare `{ message: "TOKEN EXPIRADO OU INVALIDO" }` the spec documents.
 */
import { Schema } from "effect"

const OAuthFields = { error: Schema.String, error_description: Schema.optionalKey(Schema.String) }

/** 400: a grant type other than `client_credentials`. */
export class OAuthUnsupportedGrant extends Schema.TaggedError<OAuthUnsupportedGrant>()("OAuthUnsupportedGrant", OAuthFields, {
  httpApiStatus: 400
}) {}

/** 400: a required field is missing or malformed. */
export class OAuthInvalidRequest extends Schema.TaggedError<OAuthInvalidRequest>()("OAuthInvalidRequest", OAuthFields, {
  httpApiStatus: 400
}) {}

/** 401: unknown client id or wrong secret (never says which). */
export class OAuthInvalidClient extends Schema.TaggedError<OAuthInvalidClient>()("OAuthInvalidClient", OAuthFields, {
  httpApiStatus: 401
}) {}

/** 403: a requested scope is not released to these credentials. */
export class OAuthInvalidScope extends Schema.TaggedError<OAuthInvalidScope>()("OAuthInvalidScope", OAuthFields, {
  httpApiStatus: 403
}) {}

/**
 * 429: too many failed attempts for this client id or from this address;
 * answered before the secret is checked. `retryAfter` (seconds) becomes the
 * `Retry-After` header.
 */
export class OAuthTooManyRequests extends Schema.TaggedError<OAuthTooManyRequests>()("OAuthTooManyRequests", {
  ...OAuthFields,
  retryAfter: Schema.Int
}, { httpApiStatus: 429 }) {}

/** The bare 401 body of a valid token that lacks the route's scope. */
export const MISSING_SCOPE_MESSAGE = "TOKEN EXPIRADO OU INVALIDO"

export class MissingScope extends Schema.TaggedError<MissingScope>()("MissingScope", {
  message: Schema.String
}, { httpApiStatus: 401 }) {}

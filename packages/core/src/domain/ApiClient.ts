import { Schema } from "effect"
import { AccountId } from "./Ids.ts"

/** OAuth client credentials; the secret is kept only as a slow salted hash. */
export const ApiClient = Schema.Struct({
  clientId: Schema.String,
  accountId: AccountId,
  secretHash: Schema.String,
  /** The scopes released to the client (names of `Scope`, kept as given). */
  scopes: Schema.Array(Schema.String),
  createdAt: Schema.Date
}).annotate({ identifier: "ApiClient" })
export type ApiClient = typeof ApiClient.Type

/**
 * An issued access token, kept so that a repeated request reuses it. Only its
 * SHA-256 is stored, never the token: reuse signs the same claims again
 * (HS256 is deterministic, so it is the same token) and checks the hash.
 */
export const IssuedToken = Schema.Struct({
  /** SHA-256 of the compact JWT, lowercase hex. */
  tokenHash: Schema.String,
  clientId: Schema.String,
  /** The granted scopes, sorted and space separated: the JWT's `scope` claim. */
  scopeKey: Schema.String,
  /** The JWT's `jti`, `iat` and `exp` claims. */
  jti: Schema.String,
  issuedAt: Schema.Date,
  expiresAt: Schema.Date
}).annotate({ identifier: "IssuedToken" })
export type IssuedToken = typeof IssuedToken.Type

import { Schema } from "effect"

/** OAuth client credentials; the secret is kept only as a slow salted hash. */
export const ApiClient = Schema.Struct({
  clientId: Schema.String,
  accountId: Schema.String,
  secretHash: Schema.String,
  /** The scopes released to the client (names of `Scope`, kept as given). */
  scopes: Schema.Array(Schema.String),
  createdAt: Schema.Date
}).annotate({ identifier: "ApiClient" })
export type ApiClient = typeof ApiClient.Type

/** An issued access token, kept so that a repeated request reuses it. */
export const IssuedToken = Schema.Struct({
  clientId: Schema.String,
  scopeKey: Schema.String,
  token: Schema.String,
  expiresAt: Schema.Date
}).annotate({ identifier: "IssuedToken" })
export type IssuedToken = typeof IssuedToken.Type

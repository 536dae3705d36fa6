/** Token failures of a provider. */
import { Schema } from "effect"

/** No token could be obtained from the provider's token endpoint: the message says why (status and OAuth error, or the connection's failure). */
export class TokenRequestFailed extends Schema.TaggedError<TokenRequestFailed>()("TokenRequestFailed", {
  provider: Schema.String,
  message: Schema.String
}) {}

/**
 * The provider answered 401 to a call made with a token: the adapter fails
 * with this so that `TokenClient.withToken` fetches a new token and retries
 * once (a token revoked or expired early on the provider's side).
 */
export class TokenRejected extends Schema.TaggedError<TokenRejected>()("TokenRejected", {
  provider: Schema.String
}) {}

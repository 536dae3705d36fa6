/**
 * `POST /auth/token`: OAuth 2.0 client credentials. A token still valid for
 * the same client and scope set is handed out again with the time it has
 * left (spec: `expires_in` is not fixed), so clients that re-authenticate on
 * every call do not multiply tokens.
 */
import { Clock, Effect, Option } from "effect"
import { AccessTokens } from "../ports/AccessTokens.ts"
import { ApiClients } from "../ports/ApiClients.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Ids } from "../ports/Ids.ts"
import { isScope, parseScopeParam } from "../domain/Scope.ts"
import {
  OAuthInvalidClient,
  OAuthInvalidRequest,
  OAuthInvalidScope,
  OAuthUnsupportedGrant
} from "./AuthErrors.ts"
import { signJwt } from "./Jwt.ts"
import { verifySecret } from "./SecretHash.ts"
import { SigningKey } from "./SigningKey.ts"

/** Lifetime of a new token. */
export const TOKEN_LIFETIME_SECONDS = 3600
/** A token with less than this left is not reused, so a client never gets one about to expire. */
export const REUSE_MARGIN_SECONDS = 60

export interface TokenRequest {
  readonly grant_type?: string | undefined
  readonly client_id?: string | undefined
  readonly client_secret?: string | undefined
  readonly scope?: string | undefined
}

export interface TokenResponse {
  readonly access_token: string
  readonly expires_in: number
  readonly token_type: "Bearer"
}

export const issueToken = Effect.fn("Tokens.issue")(function*(request: TokenRequest) {
  if (request.grant_type !== "client_credentials") {
    return yield* new OAuthUnsupportedGrant({
      error: "unsupported_grant_type",
      error_description: "grant_type must be client_credentials"
    })
  }
  if (!request.client_id || !request.client_secret) {
    return yield* new OAuthInvalidRequest({
      error: "invalid_request",
      error_description: "client_id and client_secret are required"
    })
  }
  const clients = yield* ApiClients
  const client = yield* clients.findByClientId(request.client_id)
  const valid = Option.isSome(client) && (yield* verifySecret(request.client_secret, client.value.secretHash))
  if (!valid || Option.isNone(client)) {
    return yield* new OAuthInvalidClient({ error: "invalid_client", error_description: "Client authentication failed" })
  }
  const released = new Set(client.value.scopes)
  const asked = parseScopeParam(request.scope)
  const refused = asked.filter((s) => !isScope(s) || !released.has(s))
  if (refused.length > 0) {
    return yield* new OAuthInvalidScope({
      error: "invalid_scope",
      error_description: `scope not released for these credentials: ${refused.join(" ")}`
    })
  }
  // No scope asked: every scope released to the client, as RFC 6749 3.3 allows.
  const granted = (asked.length > 0 ? asked : client.value.scopes).slice().sort()
  const scopeKey = granted.join(" ")

  const nowMillis = yield* Clock.currentTimeMillis
  const nowSeconds = Math.floor(nowMillis / 1000)
  const tokens = yield* AccessTokens
  const reusable = yield* tokens.findReusable(client.value.clientId, scopeKey, new Date((nowSeconds + REUSE_MARGIN_SECONDS) * 1000))
  if (Option.isSome(reusable)) {
    return {
      access_token: reusable.value.token,
      expires_in: Math.floor(reusable.value.expiresAt.getTime() / 1000) - nowSeconds,
      token_type: "Bearer"
    } satisfies TokenResponse
  }

  const { key } = yield* SigningKey
  const ids = yield* Ids
  const exp = nowSeconds + TOKEN_LIFETIME_SECONDS
  const token = yield* signJwt({
    sub: client.value.accountId,
    cid: client.value.clientId,
    scope: scopeKey,
    iat: nowSeconds,
    exp,
    jti: yield* ids.randomHex(8)
  }, key)
  const transactor = yield* Transactor
  yield* transactor.withTransaction(
    tokens.insert({ clientId: client.value.clientId, scopeKey, token, expiresAt: new Date(exp * 1000) })
  )
  return { access_token: token, expires_in: TOKEN_LIFETIME_SECONDS, token_type: "Bearer" } satisfies TokenResponse
})

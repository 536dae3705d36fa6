/**
 * `POST /auth/token`: OAuth 2.0 client credentials. A token still valid for
 * the same client and scope set is handed out again with the time it has
 * left (spec: `expires_in` is not fixed), so clients that re-authenticate on
 * every call do not multiply tokens. Failed attempts are throttled per client
 * id at an address, per address and per client id (`Throttle.ts`), and an
 * unknown client id costs the same hashing as a wrong secret, so timing does
 * not reveal which ids exist.
 */
import { Clock, Effect, Option } from "effect"
import { AccessTokens } from "../ports/AccessTokens.ts"
import { ApiClients } from "../ports/ApiClients.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Ids, toHex } from "../ports/Ids.ts"
import { isScope, parseScopeParam } from "../domain/Scope.ts"
import type { ApiClient } from "../domain/ApiClient.ts"
import {
  OAuthInvalidClient,
  OAuthInvalidRequest,
  OAuthInvalidScope,
  OAuthUnsupportedGrant
} from "./AuthErrors.ts"
import { type AccessClaims, type JwtKey, signJwt } from "./Jwt.ts"
import { DUMMY_SECRET_HASH, SecretHasher } from "./SecretHash.ts"
import { SigningKey } from "./SigningKey.ts"
import { admitAttempt, forgiveAttempt, recordFailure } from "./Throttle.ts"

/** Longest client id or secret looked at; longer ones are malformed, and never reach the counters or the hash. */
const MAX_CREDENTIAL_LENGTH = 256

/** Lifetime of a new token. */
export const TOKEN_LIFETIME_SECONDS = 3600
/** A token with less than this left is not reused, so a client never gets one about to expire. */
export const REUSE_MARGIN_SECONDS = 60

export interface TokenRequest {
  readonly grant_type?: string | undefined
  readonly client_id?: string | undefined
  readonly client_secret?: string | undefined
  readonly scope?: string | undefined
  /**
   * Where the request came from (an IP address or network, as the edge
   * chooses to group them), for the per-address throttle. Absent when the
   * engine is called without a network in between.
   */
  readonly clientAddress?: string | undefined
}

export interface TokenResponse {
  readonly access_token: string
  readonly expires_in: number
  readonly token_type: "Bearer"
}

/**
 * Issues (or reuses) an access token for client credentials. Fails with the
 * OAuth errors of the spec, and with 429 `too_many_requests` past the
 * throttle's limits.
 */
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
  if (request.client_id.length > MAX_CREDENTIAL_LENGTH || request.client_secret.length > MAX_CREDENTIAL_LENGTH) {
    return yield* new OAuthInvalidRequest({
      error: "invalid_request",
      error_description: `client_id and client_secret are at most ${MAX_CREDENTIAL_LENGTH} characters`
    })
  }
  // Counted before anything is checked, so that past a limit even the right
  // secret answers 429 and a guess costs the guesser, not the server.
  const admission = yield* admitAttempt(request.client_id, request.clientAddress)
  const clients = yield* ApiClients
  const client = yield* clients.findByClientId(request.client_id)
  const hasher = yield* SecretHasher
  // An unknown client is checked against a hash no secret matches: the same
  // work as a wrong secret, so the answer time does not tell ids apart.
  const valid = yield* hasher.verify(request.client_secret, Option.isSome(client) ? client.value.secretHash : DUMMY_SECRET_HASH)
  if (!valid || Option.isNone(client)) {
    yield* recordFailure(admission)
    return yield* new OAuthInvalidClient({ error: "invalid_client", error_description: "Client authentication failed" })
  }
  yield* forgiveAttempt(admission)
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
  const { key } = yield* SigningKey
  const reusable = yield* tokens.findReusable(client.value.clientId, scopeKey, new Date((nowSeconds + REUSE_MARGIN_SECONDS) * 1000))
  if (Option.isSome(reusable)) {
    const issued = reusable.value
    const exp = Math.floor(issued.expiresAt.getTime() / 1000)
    const token = yield* signClaims(client.value, scopeKey, Math.floor(issued.issuedAt.getTime() / 1000), exp, issued.jti, key)
    // The same claims under the same key give the same token; a different
    // hash means the signing key changed since, and a new token is issued.
    if ((yield* sha256Hex(token)) === issued.tokenHash) {
      return { access_token: token, expires_in: exp - nowSeconds, token_type: "Bearer" } satisfies TokenResponse
    }
  }

  const ids = yield* Ids
  const exp = nowSeconds + TOKEN_LIFETIME_SECONDS
  const jti = yield* ids.randomHex(8)
  const token = yield* signClaims(client.value, scopeKey, nowSeconds, exp, jti, key)
  const transactor = yield* Transactor
  yield* transactor.withTransaction(tokens.insert({
    tokenHash: yield* sha256Hex(token),
    clientId: client.value.clientId,
    scopeKey,
    jti,
    issuedAt: new Date(nowSeconds * 1000),
    expiresAt: new Date(exp * 1000)
  }))
  return { access_token: token, expires_in: TOKEN_LIFETIME_SECONDS, token_type: "Bearer" } satisfies TokenResponse
})

// One place builds the claims, so a reused token is signed over exactly the
// bytes it was first signed over (the key order of the JSON included).
const signClaims = (client: ApiClient, scopeKey: string, iat: number, exp: number, jti: string, key: JwtKey) => {
  const claims: AccessClaims = { sub: client.accountId, cid: client.clientId, scope: scopeKey, iat, exp, jti }
  return signJwt(claims, key)
}

const encoder = new TextEncoder()

const sha256Hex = (text: string) =>
  Effect.promise(() => crypto.subtle.digest("SHA-256", encoder.encode(text))).pipe(
    Effect.map((digest) => toHex(new Uint8Array(digest)))
  )

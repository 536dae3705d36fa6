/**
 * OAuth2 client credentials over mutual TLS, for one provider: the token is
 * cached until `expires_in` minus a margin, concurrent callers share one
 * request, and a 401 on use (the token revoked or expired early on the
 * provider's side) refreshes it once.
 */
import { Clock, Effect, Option, Redacted, Ref, Schema, Semaphore } from "effect"
import { type Dispatcher, request } from "undici"
import { clip, connectionFailure } from "../tls/ConnectionFailure.ts"
import { TokenRejected, TokenRequestFailed } from "./TokenErrors.ts"
import { type TokenCredentials, tokenRequest } from "./TokenRequest.ts"
import type { TokenStyle } from "./TokenStyle.ts"

export interface TokenClientOptions extends TokenCredentials {
  /** The provider's name, carried by errors. */
  readonly provider: string
  readonly tokenUrl: string
  readonly style: TokenStyle
  /** The provider's mutual TLS agent (`mutualTlsAgent`). */
  readonly dispatcher: Dispatcher
}

export interface AccessToken {
  readonly value: Redacted.Redacted<string>
  /** The lifetime the provider gave (`expires_in`, or the default when it gave none). */
  readonly expiresInSeconds: number
  /** When the provider said it expires (`expires_in` after it was received). */
  readonly expiresAtMs: number
}

/** A token is renewed this long before it expires, so a request never leaves with one about to lapse. */
const MARGIN_MS = 60_000
/** When the endpoint omits `expires_in` (RFC 6749 only recommends it): short, so a wrong guess costs little. */
const DEFAULT_LIFETIME_S = 300
const TOKEN_TIMEOUT = "15 seconds"

/** The token is usable until its expiry minus the margin, or half its life when that is shorter than the margin. */
const usableUntil = (token: AccessToken, receivedAtMs: number) =>
  token.expiresAtMs - Math.min(MARGIN_MS, (token.expiresAtMs - receivedAtMs) / 2)

/** An RFC 6749 §5.2 error body, or a gateway's `message`; other fields are ignored. */
const decodeErrorBody = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Struct({
  error: Schema.optional(Schema.Unknown),
  error_description: Schema.optional(Schema.Unknown),
  message: Schema.optional(Schema.Unknown)
})))

/** `invalid_client: Client authentication failed`, from an RFC 6749 §5.2 error body when there is one. */
const oauthError = (text: string) =>
  Option.getOrUndefined(Option.flatMap(decodeErrorBody(text), (body) => {
    const parts = [body.error, body.error_description ?? body.message].filter((part) => typeof part === "string" && part !== "")
    return parts.length > 0 ? Option.some(parts.join(": ")) : Option.none()
  }))

const decodeJson = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))

/** The fields of a token answer that are read, each of any type until checked. */
const decodeTokenBody = Schema.decodeUnknownOption(Schema.Struct({
  access_token: Schema.optional(Schema.Unknown),
  expires_in: Schema.optional(Schema.Unknown)
}))

const parseToken = (text: string, nowMs: number): AccessToken | string => {
  const json = decodeJson(text)
  if (Option.isNone(json)) return "the token endpoint's answer is not JSON"
  const body = Option.getOrElse(decodeTokenBody(json.value), () => ({ access_token: undefined, expires_in: undefined }))
  if (typeof body.access_token !== "string" || body.access_token === "") return "the token endpoint's answer has no access_token"
  // Some gateways send expires_in as a string ("3600").
  const lifetime = typeof body.expires_in === "string" ? Number(body.expires_in) : body.expires_in
  const seconds = typeof lifetime === "number" && Number.isFinite(lifetime) && lifetime > 0 ? lifetime : DEFAULT_LIFETIME_S
  return { value: Redacted.make(body.access_token), expiresInSeconds: seconds, expiresAtMs: nowMs + seconds * 1000 }
}

/** One token request, no cache. */
export const requestToken = Effect.fn("TokenClient.request")(function*(options: TokenClientOptions) {
  const fail = (message: string) => new TokenRequestFailed({ provider: options.provider, message })
  const { body, headers } = tokenRequest(options.style, options)
  const response = yield* Effect.tryPromise({
    try: async (signal) => {
      const answer = await request(options.tokenUrl, { method: "POST", headers, body, dispatcher: options.dispatcher, signal })
      return { status: answer.statusCode, text: await answer.body.text() }
    },
    catch: (error) => fail(connectionFailure(error))
  }).pipe(
    Effect.timeoutOrElse({ duration: TOKEN_TIMEOUT, orElse: () => Effect.fail(fail(`the token endpoint did not answer within ${TOKEN_TIMEOUT}`)) })
  )
  if (response.status < 200 || response.status > 299) {
    const why = oauthError(response.text)
    return yield* fail(`the token endpoint answered ${response.status}${why === undefined ? "" : ` (${clip(why)})`}`)
  }
  const token = parseToken(response.text, yield* Clock.currentTimeMillis)
  return typeof token === "string" ? yield* fail(token) : token
})

export interface TokenClient {
  /** A token usable now: the cached one, or a new one. */
  readonly token: Effect.Effect<AccessToken, TokenRequestFailed>
  /**
   * Runs `use` with a token; when it fails with `TokenRejected` (the
   * provider answered 401), drops that token, gets a new one and runs `use`
   * once more. A second 401 is the caller's to report.
   */
  readonly withToken: <A, E, R>(
    use: (token: Redacted.Redacted<string>) => Effect.Effect<A, E | TokenRejected, R>
  ) => Effect.Effect<A, E | TokenRejected | TokenRequestFailed, R>
}

/** A token client with its cache; one per provider, living as long as its agent. */
export const makeTokenClient = Effect.fn("TokenClient.make")(function*(options: TokenClientOptions) {
  const cache = yield* Ref.make(Option.none<{ readonly token: AccessToken; readonly usableUntilMs: number }>())
  // One request at a time: callers arriving while a token is being fetched wait for it instead of asking again.
  const lock = yield* Semaphore.make(1)
  const token: TokenClient["token"] = lock.withPermit(Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const cached = yield* Ref.get(cache)
    if (Option.isSome(cached) && now < cached.value.usableUntilMs) return cached.value.token
    const fresh = yield* requestToken(options)
    yield* Ref.set(cache, Option.some({ token: fresh, usableUntilMs: usableUntil(fresh, now) }))
    return fresh
  }))
  // Only the rejected token is dropped: another fiber may already have replaced it.
  const drop = (rejected: AccessToken) => Ref.update(cache, Option.filter((entry) => entry.token !== rejected))
  const withToken: TokenClient["withToken"] = (use) =>
    Effect.flatMap(token, (first) =>
      use(first.value).pipe(
        Effect.catchTag("TokenRejected", () =>
          drop(first).pipe(Effect.andThen(token), Effect.flatMap((second) => use(second.value))))
      ))
  return { token, withToken } satisfies TokenClient
})

/**
 * Compact HS256 JSON Web Tokens with Web Crypto. The access token of
 * `POST /auth/token` is one of these: it carries the account, the client and
 * the granted scopes, so the HTTP edge checks a request without a query.
 */
import { Effect, Option, Result } from "effect"
import { Base64Url } from "effect/encoding"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export interface AccessClaims {
  /** Account id the credentials belong to. */
  readonly sub: string
  /** OAuth client id. */
  readonly cid: string
  /** Granted scopes, space separated (the OAuth convention). */
  readonly scope: string
  /** Issued at and expiry, in seconds since the epoch. */
  readonly iat: number
  readonly exp: number
  /** Unique token id, so two tokens issued in the same second differ. */
  readonly jti: string
}

// Web-standard base64url (Effect's, no Node Buffer); a malformed part decodes to nothing.
const base64url = (bytes: Uint8Array): string => Base64Url.encode(bytes)
const fromBase64url = (text: string): Uint8Array | undefined => Result.getOrUndefined(Base64Url.decode(text))

/** An imported Web Crypto HMAC key. */
export type JwtKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>

/**
 * Imports an HMAC key once; sign and verify take the imported key so the hot
 * path of every request does not import it again.
 */
export const importJwtKey = (secret: string) =>
  Effect.promise(() =>
    crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify"
    ])
  )

const header = base64url(encoder.encode(JSON.stringify({ alg: "HS256", typ: "JWT" })))

/** Signs claims into a compact JWT. */
export const signJwt = Effect.fn("Jwt.sign")(function*(claims: AccessClaims, key: JwtKey) {
  const payload = base64url(encoder.encode(JSON.stringify(claims)))
  const input = `${header}.${payload}`
  const signature = yield* Effect.promise(() => crypto.subtle.sign("HMAC", key, encoder.encode(input)))
  return `${input}.${base64url(new Uint8Array(signature))}`
})

/**
 * Verifies signature and expiry. `None` for anything malformed, forged or
 * expired: the caller answers all of them with the same 401.
 */
export const verifyJwt = Effect.fn("Jwt.verify")(function*(token: string, key: JwtKey, nowSeconds: number) {
  const parts = token.split(".")
  if (parts.length !== 3 || parts[0] !== header) return Option.none<AccessClaims>()
  const signature = fromBase64url(parts[2]!)
  if (signature === undefined) return Option.none<AccessClaims>()
  // subtle.verify compares in constant time.
  const valid = yield* Effect.promise(() =>
    crypto.subtle.verify("HMAC", key, signature as Uint8Array<ArrayBuffer>, encoder.encode(`${parts[0]}.${parts[1]}`))
  )
  if (!valid) return Option.none<AccessClaims>()
  const payloadBytes = fromBase64url(parts[1]!)
  if (payloadBytes === undefined) return Option.none<AccessClaims>()
  let claims: AccessClaims
  try {
    claims = JSON.parse(decoder.decode(payloadBytes)) as AccessClaims
  } catch {
    return Option.none<AccessClaims>()
  }
  if (typeof claims.exp !== "number" || claims.exp <= nowSeconds) return Option.none<AccessClaims>()
  return Option.some(claims)
})

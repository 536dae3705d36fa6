/**
 * Slow salted hashing of client secrets with PBKDF2-HMAC-SHA-256 from Web
 * Crypto: no Node API in the core, and the same code runs anywhere the engine
 * is embedded. The stored form is self-describing so the cost can be raised
 * later without invalidating old secrets: `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`.
 */
import { Context, Effect, Result } from "effect"
import { Hex } from "effect/encoding"
import { toHex } from "../ports/Ids.ts"
import { constantTimeEqual } from "./ConstantTime.ts"

const ITERATIONS = 210_000 // OWASP 2023 recommendation for PBKDF2-HMAC-SHA256
const encoder = new TextEncoder()

const derive = (secret: string, salt: Uint8Array, iterations: number) =>
  Effect.promise(async () => {
    const key = await crypto.subtle.importKey("raw", encoder.encode(secret), "PBKDF2", false, ["deriveBits"])
    const bits = await crypto.subtle.deriveBits(
      { name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations },
      key,
      256
    )
    return new Uint8Array(bits)
  })

/** Hashes a secret for storage. */
export const hashSecret = Effect.fn("SecretHash.hash")(function*(secret: string) {
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const hash = yield* derive(secret, salt, ITERATIONS)
  return `pbkdf2-sha256$${ITERATIONS}$${toHex(salt)}$${toHex(hash)}`
})

/** Checks a presented secret against its stored hash in constant time. */
export const verifySecret = Effect.fn("SecretHash.verify")(function*(secret: string, stored: string) {
  const [scheme, iterations, saltHex, hashHex] = stored.split("$")
  const salt = saltHex === undefined ? undefined : Result.getOrUndefined(Hex.decode(saltHex))
  if (scheme !== "pbkdf2-sha256" || iterations === undefined || salt === undefined || hashHex === undefined) {
    return false
  }
  const hash = yield* derive(secret, salt, Number(iterations))
  return constantTimeEqual(toHex(hash), hashHex)
})

/**
 * A stored hash no secret matches, at the current cost: an unknown client id
 * is checked against it, so it takes as long to refuse as a wrong secret of a
 * known client and the timing does not tell which client ids exist.
 */
export const DUMMY_SECRET_HASH = `pbkdf2-sha256$${ITERATIONS}$${"00".repeat(16)}$${"00".repeat(32)}`

/**
 * The secret hashing the token route uses, as a service with the PBKDF2
 * functions above as its default, so that a test can count the hashes a
 * request costs instead of timing it.
 */
export const SecretHasher = Context.Reference<{
  readonly hash: (secret: string) => Effect.Effect<string>
  readonly verify: (secret: string, stored: string) => Effect.Effect<boolean>
}>("@billing/core/auth/SecretHasher", { defaultValue: () => ({ hash: hashSecret, verify: verifySecret }) })


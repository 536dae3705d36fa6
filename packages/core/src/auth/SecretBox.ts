/**
 * Secrets the engine must keep at rest (the JWT signing key) are sealed with
 * AES-256-GCM under a key derived from the installation's `SecretKey`, so a
 * database dump alone reveals nothing it could sign with. Web Crypto only:
 * the core runs wherever it is embedded.
 *
 * Sealed text is self-describing, `sealed:v1:<iv>:<ciphertext>` (base64url),
 * so a clear value left by an older version is told apart and sealed in place.
 */
import { Effect, Option, Result } from "effect"
import { Base64, Base64Url, Hex } from "effect/encoding"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const PREFIX = "sealed:v1:"

/** An imported Web Crypto AES-GCM key. */
export type SealingKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>

/** Length in bytes of the installation's secret key (AES-256). */
export const SECRET_KEY_BYTES = 32

const base64url = (bytes: Uint8Array): string => Base64Url.encode(bytes)

/** Standard or URL-safe base64, with or without padding (a key pasted from `openssl rand -base64 32` is standard). */
const fromBase64 = (text: string): Uint8Array | undefined =>
  Result.getOrUndefined(Base64Url.decode(text.replace(/\+/g, "-").replace(/\//g, "_")))

/**
 * Reads a secret key written as 64 hexadecimal digits or as base64 (standard
 * or URL-safe, padded or not) of 32 bytes. `None` for anything else, so the
 * caller can refuse to start with one clear line. 64 characters that are
 * all hex digits are read as hex, never as base64.
 */
export const parseSecretKeyText = (text: string): Option.Option<Uint8Array> => {
  const trimmed = text.trim()
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Result.getOrUndefined(Hex.decode(trimmed)) : fromBase64(trimmed)
  return bytes !== undefined && bytes.length === SECRET_KEY_BYTES ? Option.some(bytes) : Option.none()
}

/** A fresh random secret key as base64, the form `BILLING_SECRET_KEY` documents. */
export const generateSecretKeyText = (): string => {
  return Base64.encode(crypto.getRandomValues(new Uint8Array(SECRET_KEY_BYTES)))
}

/**
 * Derives the AES-GCM key of one purpose from the installation's key with
 * HKDF-SHA-256: each kind of sealed data gets its own key, so a future use
 * of the secret key can never open (or forge) another's ciphertexts.
 */
export const deriveSealingKey = Effect.fn("SecretBox.deriveKey")(function*(material: Uint8Array, purpose: string) {
  return yield* Effect.promise(async () => {
    const base = await crypto.subtle.importKey("raw", material as Uint8Array<ArrayBuffer>, "HKDF", false, ["deriveKey"])
    return crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(`billing-engine/${purpose}`) },
      base,
      { name: "AES-GCM", length: 256 },
      false,
      ["encrypt", "decrypt"]
    )
  })
})

/** True when `value` is sealed text (as opposed to a clear value of an older version). */
export const isSealed = (value: string): boolean => value.startsWith(PREFIX)

/**
 * Seals `plaintext`. `context` is bound as additional authenticated data
 * (say, the settings key it is stored under): a sealed value moved to
 * another place no longer opens.
 */
export const seal = Effect.fn("SecretBox.seal")(function*(key: SealingKey, plaintext: string, context: string) {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const ciphertext = yield* Effect.promise(() =>
    crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(context) }, key, encoder.encode(plaintext))
  )
  return `${PREFIX}${base64url(iv)}:${base64url(new Uint8Array(ciphertext))}`
})

/**
 * Opens sealed text. `None` when it is not sealed text, was sealed under
 * another key or context, or was altered: GCM authenticates all of them.
 */
export const open = Effect.fn("SecretBox.open")(function*(key: SealingKey, sealed: string, context: string) {
  if (!isSealed(sealed)) return Option.none<string>()
  const [ivText, ciphertextText] = sealed.slice(PREFIX.length).split(":")
  const iv = ivText === undefined ? undefined : fromBase64(ivText)
  const ciphertext = ciphertextText === undefined ? undefined : fromBase64(ciphertextText)
  if (iv === undefined || ciphertext === undefined || iv.length !== 12) return Option.none<string>()
  return yield* Effect.promise(() =>
    crypto.subtle.decrypt(
      { name: "AES-GCM", iv: iv as Uint8Array<ArrayBuffer>, additionalData: encoder.encode(context) },
      key,
      ciphertext as Uint8Array<ArrayBuffer>
    ).then((plain) => Option.some(decoder.decode(plain)), () => Option.none<string>())
  )
})

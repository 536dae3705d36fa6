/**
 * `X-Webhook-Signature: t=<timestamp_ms>,v1=<hex HMAC-SHA-256(secret, "<t>.<raw body>")>`
 * (spec: Authentication 5). Signing is used by delivery; verification is the
 * receiver helper that merchants call in their own endpoint. Both use Web
 * Crypto so they run in Node, Deno, Bun, browsers and edge workers alike;
 * where Node's own `crypto` is there, it computes the HMAC instead (the
 * same bytes, synchronously: a sender signing thousands of deliveries a
 * second spent a seventh of its time on Web Crypto's per-call job).
 */
import { Effect } from "effect"
import { constantTimeEqual } from "../auth/ConstantTime.ts"
import { boundedMemo } from "../BoundedMemo.ts"
import { toHex } from "../ports/Ids.ts"

const encoder = new TextEncoder()

/** Default tolerance of receivers: signatures older (or newer) than 5 minutes are refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300

/** Registrations' keys seen lately, imported once each: a sender signs thousands of bodies with one secret. */
const hmacKey = boundedMemo(10_000, (secret) =>
  crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]))

/** Node's `crypto`, found at run time without importing it, so the core still loads where there is none. */
const nodeCrypto = (globalThis as {
  readonly process?: {
    readonly getBuiltinModule?: (id: "node:crypto") => {
      readonly createHmac: (algorithm: string, key: string) => { update: (data: string) => { digest: (encoding: "hex") => string } }
    } | undefined
  }
}).process?.getBuiltinModule?.("node:crypto")

/** Node's HMAC, at once; only where `nodeCrypto` is there. */
const nodeHmacHex = (node: NonNullable<typeof nodeCrypto>, secret: string, message: string) =>
  node.createHmac("sha256", secret).update(message).digest("hex")

const hmacHex = async (secret: string, message: string): Promise<string> =>
  nodeCrypto !== undefined
    ? nodeHmacHex(nodeCrypto, secret, message)
    : toHex(new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message))))

const headerOf = (timestampMillis: number, hex: string) => `t=${timestampMillis},v1=${hex}`

/** The header value for `body` signed at `timestampMillis`. */
export const signWebhook = async (secret: string, body: string, timestampMillis: number): Promise<string> =>
  headerOf(timestampMillis, await hmacHex(secret, `${timestampMillis}.${body}`))

/** `signWebhook` as an effect: at once where Node's `crypto` is there (no promise to wait for), through Web Crypto elsewhere. */
export const signWebhookEffect = (secret: string, body: string, timestampMillis: number): Effect.Effect<string> =>
  nodeCrypto !== undefined
    ? Effect.sync(() => headerOf(timestampMillis, nodeHmacHex(nodeCrypto, secret, `${timestampMillis}.${body}`)))
    : Effect.promise(() => signWebhook(secret, body, timestampMillis))

export type VerifyResult =
  | { readonly valid: true; readonly timestampMillis: number }
  | { readonly valid: false; readonly reason: "missing_header" | "malformed_header" | "stale" | "bad_signature" }

/**
 * Verifies a webhook in a receiver. Pass the raw body exactly as received
 * (the bytes, or their UTF-8 text), never a re-serialized object: any change
 * of spacing or key order breaks the signature.
 *
 * @example
 * const result = await verifyWebhookSignature({ header: req.headers["x-webhook-signature"], body: raw, secret })
 * if (!result.valid) return res.writeHead(400).end()
 */
export const verifyWebhookSignature = async (options: {
  readonly header: string | null | undefined
  readonly body: string | Uint8Array
  readonly secret: string
  readonly toleranceSeconds?: number
  readonly nowMillis?: number
}): Promise<VerifyResult> => {
  if (!options.header) return { valid: false, reason: "missing_header" }
  let t: string | undefined
  const signatures: Array<string> = []
  for (const part of options.header.split(",")) {
    const eq = part.indexOf("=")
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (name === "t") t = value
    else if (name === "v1") signatures.push(value)
  }
  if (t === undefined || !/^\d{1,16}$/.test(t) || signatures.length === 0) {
    return { valid: false, reason: "malformed_header" }
  }
  const timestampMillis = Number(t)
  const tolerance = (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS) * 1000
  const now = options.nowMillis ?? Date.now()
  if (Math.abs(now - timestampMillis) > tolerance) return { valid: false, reason: "stale" }
  const body = typeof options.body === "string" ? options.body : new TextDecoder().decode(options.body)
  const expected = await hmacHex(options.secret, `${t}.${body}`)
  // Several v1 values may be present while a secret is being rotated.
  let matched = false
  for (const candidate of signatures) matched = constantTimeEqual(candidate, expected) || matched
  return matched ? { valid: true, timestampMillis } : { valid: false, reason: "bad_signature" }
}

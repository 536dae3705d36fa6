import { Context, Effect, Layer } from "effect"

/**
 * Generates opaque identifiers: `<prefix>_<random>`, with `SANDBOX_` in front
 * on sandbox accounts (spec, General rule 5). A port so that tests can make
 * ids deterministic.
 */
export class Ids extends Context.Service<Ids, {
  readonly make: (prefix: string, options?: { readonly sandbox?: boolean }) => Effect.Effect<string>
  /** `bytes` random bytes as lowercase hex, for secrets and client ids. */
  readonly randomHex: (bytes: number) => Effect.Effect<string>
}>()("@billing/core/ports/Ids") {
  /** Random ids from Web Crypto (available in Node, browsers and workers alike). */
  static readonly layer = Layer.succeed(Ids, {
    make: (prefix, options) =>
      Effect.sync(() => `${options?.sandbox ? "SANDBOX_" : ""}${prefix}_${base36(16)}`),
    randomHex: (bytes) => Effect.sync(() => toHex(crypto.getRandomValues(new Uint8Array(bytes))))
  })
}

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

// 16 characters of base 36 carry about 82 bits: collisions are not a concern,
// and the id stays short enough to read over the phone.
const base36 = (length: number): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(length))
  let out = ""
  for (const b of bytes) out += alphabet[b % 36]
  return out
}

export const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

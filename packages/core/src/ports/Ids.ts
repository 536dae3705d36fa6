import { Clock, Context, Effect, Layer } from "effect"
import type { IdKind } from "../domain/Ids.ts"

/**
 * Generates opaque identifiers: `<prefix>_<time><random>`, with `SANDBOX_` in
 * front on sandbox accounts (spec, General rule 5), branded as the kind's
 * entity (`ids.make(ChargeIds)` answers a `ChargeId`). A port so that tests
 * can make ids deterministic.
 */
export class Ids extends Context.Service<Ids, {
  readonly make: <A extends string>(kind: IdKind<A>, options?: { readonly sandbox?: boolean }) => Effect.Effect<A>
  /** `bytes` random bytes as lowercase hex, for secrets and client ids. */
  readonly randomHex: (bytes: number) => Effect.Effect<string>
}>()("@billing/core/ports/Ids") {
  /** Time-ordered random ids from the clock and Web Crypto (available in Node, browsers and workers alike). */
  static readonly layer = Layer.succeed(Ids, {
    make: (kind, options) =>
      Effect.map(Clock.currentTimeMillis, (now) => kind.schema.make(prefixed(kind, timeOrdered(now), options?.sandbox))),
    randomHex: (bytes) => Effect.sync(() => toHex(randomBytes(bytes)))
  })
}

/** `<prefix>_<rest>`, with `SANDBOX_` in front for a sandbox account (spec, General rule 5). */
const prefixed = (kind: IdKind<string>, rest: string, sandbox: boolean | undefined): string =>
  `${sandbox ? "SANDBOX_" : ""}${kind.prefix}_${rest}`

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

// Random bytes are drawn from Web Crypto a page at a time: a charge takes two
// ids, and a call into the CSPRNG per id cost more than the rest of making it
// (Node's own `crypto.randomBytes` pools the same way).
const POOL_SIZE = 4096
const pool = new Uint8Array(POOL_SIZE)
let poolOffset = POOL_SIZE

/** `n` fresh random bytes, never handed out twice. */
const randomBytes = (n: number): Uint8Array => {
  if (n > POOL_SIZE) return crypto.getRandomValues(new Uint8Array(n))
  if (poolOffset + n > POOL_SIZE) {
    crypto.getRandomValues(pool)
    poolOffset = 0
  }
  const bytes = pool.slice(poolOffset, poolOffset + n)
  poolOffset += n
  return bytes
}

/** Base 36 digits of the millisecond: nine of them last until the year 5188. */
const TIME_DIGITS = 9
const TIME_LIMIT = 36 ** TIME_DIGITS

/**
 * The millisecond in nine base 36 digits, then twelve random ones (62 bits:
 * two ids of one millisecond practically never meet). Ids made later sort
 * after, byte by byte as in the `C` collation and in the usual locales (digits
 * before letters), so a primary key grows at its right edge. Random keys put
 * each insert on a random page of an index larger than memory, which made a
 * billing run's database time per cycle grow with its tables
 * (docs/decisions.md, "Time-ordered ids").
 */
export const timeOrdered = (millis: number): string =>
  Math.min(Math.max(0, Math.floor(millis)), TIME_LIMIT - 1).toString(36).padStart(TIME_DIGITS, "0") + base36(12)

// Base 36 characters for the random part; `length` of them carry about 5.2 bits each.
const base36 = (length: number): string => {
  const bytes = randomBytes(length)
  let out = ""
  for (const b of bytes) out += alphabet[b % 36]
  return out
}

export const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

/** A random UUID of version 4 (the provider's `formId` and `onboardingId`): 16 random bytes with its version and variant set. */
export const randomUuid = Effect.flatMap(Ids, (ids) =>
  Effect.map(ids.randomHex(16), (h) => {
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
  }))

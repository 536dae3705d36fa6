import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { deriveSealingKey, generateSecretKeyText, isSealed, open, parseSecretKeyText, seal } from "../../src/auth/SecretBox.ts"

const run = Effect.runPromise
const keyBytes = (fill: number) => new Uint8Array(32).fill(fill)

describe("secret key text", () => {
  it("reads 32 bytes as 64 hex digits or as base64 (standard or URL-safe, padded or not)", () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 250)
    const hex = Buffer.from(bytes).toString("hex")
    for (const text of [hex, hex.toUpperCase(), Buffer.from(bytes).toString("base64"), Buffer.from(bytes).toString("base64url"), ` ${hex}\n`]) {
      expect(Option.getOrUndefined(parseSecretKeyText(text)), text).toEqual(bytes)
    }
  })

  it("refuses any other length or alphabet", () => {
    for (const text of ["", "abc", "00".repeat(31), "00".repeat(33), Buffer.alloc(16).toString("base64"), Buffer.alloc(48, 255).toString("base64"), "é".repeat(44)]) {
      expect(Option.isNone(parseSecretKeyText(text)), text).toBe(true)
    }
  })

  it("generates base64 of 32 random bytes that it reads back", () => {
    const a = generateSecretKeyText()
    expect(Option.getOrUndefined(parseSecretKeyText(a))).toHaveLength(32)
    expect(generateSecretKeyText()).not.toBe(a)
  })
})

describe("sealed values (AES-256-GCM)", () => {
  it("open what they sealed, and only with the same key, purpose and context", async () => {
    const key = await run(deriveSealingKey(keyBytes(1), "settings"))
    const sealed = await run(seal(key, "the secret", "jwt_signing_key"))
    expect(isSealed(sealed)).toBe(true)
    expect(sealed).not.toContain("the secret")
    expect(await run(seal(key, "the secret", "jwt_signing_key"))).not.toBe(sealed) // a fresh IV each time
    expect(Option.getOrUndefined(await run(open(key, sealed, "jwt_signing_key")))).toBe("the secret")

    expect(Option.isNone(await run(open(key, sealed, "another_setting")))).toBe(true)
    const otherKey = await run(deriveSealingKey(keyBytes(2), "settings"))
    expect(Option.isNone(await run(open(otherKey, sealed, "jwt_signing_key")))).toBe(true)
    const otherPurpose = await run(deriveSealingKey(keyBytes(1), "tokens"))
    expect(Option.isNone(await run(open(otherPurpose, sealed, "jwt_signing_key")))).toBe(true)
  })

  it("refuse altered or malformed text", async () => {
    const key = await run(deriveSealingKey(keyBytes(1), "settings"))
    const sealed = await run(seal(key, "the secret", "k"))
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === "A" ? "B" : "A") + sealed.at(-1)
    for (const text of [flipped, "sealed:v1:", "sealed:v1:abc", "sealed:v1:!!:??", "clear-value"]) {
      expect(Option.isNone(await run(open(key, text, "k"))), text).toBe(true)
    }
  })
})

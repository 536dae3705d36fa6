import { createHmac } from "node:crypto"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { constantTimeEqual } from "../../src/auth/ConstantTime.ts"
import { importJwtKey, signJwt, verifyJwt } from "../../src/auth/Jwt.ts"
import { hashSecret, verifySecret } from "../../src/auth/SecretHash.ts"

const claims = { sub: "acc_1", cid: "cli_1", scope: "pix.cob/read", iat: 1000, exp: 4600, jti: "abc" }

const key = (secret: string) => Effect.runPromise(importJwtKey(secret))

describe("access tokens (HS256 JWT)", () => {
  it("signs a standard compact JWT that an independent HMAC check accepts", async () => {
    const token = await Effect.runPromise(signJwt(claims, await key("key")))
    const [header, payload, signature] = token.split(".")
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" })
    expect(JSON.parse(Buffer.from(payload!, "base64url").toString())).toEqual(claims)
    expect(signature).toBe(createHmac("sha256", "key").update(`${header}.${payload}`).digest("base64url"))
  })

  it("verifies before expiry and refuses after it, with another key, or when altered", async () => {
    const token = await Effect.runPromise(signJwt(claims, await key("key")))
    expect(Option.getOrUndefined(await Effect.runPromise(verifyJwt(token, await key("key"), 4599)))).toEqual(claims)
    expect(Option.isNone(await Effect.runPromise(verifyJwt(token, await key("key"), 4600)))).toBe(true)
    expect(Option.isNone(await Effect.runPromise(verifyJwt(token, await key("other"), 2000)))).toBe(true)
    const [h, , s] = token.split(".")
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, scope: "wallet/write" })).toString("base64url")
    expect(Option.isNone(await Effect.runPromise(verifyJwt(`${h}.${forgedPayload}.${s}`, await key("key"), 2000)))).toBe(true)
    expect(Option.isNone(await Effect.runPromise(verifyJwt("not.a.jwt", await key("key"), 2000)))).toBe(true)
    expect(Option.isNone(await Effect.runPromise(verifyJwt("garbage", await key("key"), 2000)))).toBe(true)
  })
})

describe("client secret hashing", () => {
  it("stores a salted PBKDF2 hash, never the secret, and verifies only the right secret", async () => {
    const stored = await Effect.runPromise(hashSecret("s3cret"))
    expect(stored).not.toContain("s3cret")
    expect(stored).toMatch(/^pbkdf2-sha256\$210000\$[0-9a-f]{32}\$[0-9a-f]{64}$/)
    expect(await Effect.runPromise(hashSecret("s3cret"))).not.toBe(stored) // a new salt each time
    expect(await Effect.runPromise(verifySecret("s3cret", stored))).toBe(true)
    expect(await Effect.runPromise(verifySecret("s3cres", stored))).toBe(false)
    expect(await Effect.runPromise(verifySecret("s3cret", "plain"))).toBe(false)
  })
})

describe("constantTimeEqual", () => {
  it("is equality of strings", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true)
    expect(constantTimeEqual("abc", "abd")).toBe(false)
    expect(constantTimeEqual("abc", "ab")).toBe(false)
    expect(constantTimeEqual("", "")).toBe(true)
  })
})

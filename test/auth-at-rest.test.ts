/**
 * Nothing in a database dump acts as a merchant: access tokens are kept as
 * hashes, the JWT signing key is sealed under `BILLING_SECRET_KEY`, and
 * reuse of issued tokens still works. Plus where that key comes from, and
 * the one-line refusals when it is missing or wrong. Real HTTP on PostgreSQL.
 */
import { HttpServerLive } from "@billing/adapters-http"
import { Billing, SecretKey } from "@billing/core"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { type AccessClaims, importJwtKey, signJwt, verifyJwt } from "../packages/core/src/auth/Jwt.ts"
import { deriveSealingKey, isSealed, open, parseSecretKeyText } from "../packages/core/src/auth/SecretBox.ts"
import { EngineLive } from "../packages/cli/src/Engine.ts"
import { SecretKeyLive } from "../packages/cli/src/SecretKeyLive.ts"
import { engineConfig, serverBaseUrl, startEngine, TEST_SECRET_KEY, type TestEngine } from "./support/Engine.ts"

const nowSeconds = () => Math.floor(Date.now() / 1000)

const claimsFor = (account: Billing.CreatedAccount, scope: string): AccessClaims => ({
  sub: account.accountId,
  cid: account.clientId,
  scope,
  iat: nowSeconds(),
  exp: nowSeconds() + 3600,
  jti: "forged"
})

const sign = async (claims: AccessClaims, secret: string) =>
  Effect.runPromise(Effect.flatMap(importJwtKey(secret), (key) => signJwt(claims, key)))

/** The clear signing key, opened with the installation's key (which a dump does not hold). */
const openSigningKey = async (sealed: string) => {
  const material = Option.getOrThrow(parseSecretKeyText(TEST_SECRET_KEY))
  return Effect.runPromise(Effect.flatMap(deriveSealingKey(material, "settings"), (key) => open(key, sealed, "jwt_signing_key")))
}

/** Every string a dump of these rows holds, and the parts of sealed ones. */
const stringsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  rows.flatMap((row) => Object.values(row)).flatMap((value) =>
    typeof value !== "string" ? [] : isSealed(value) ? [value, ...value.split(":")] : [value]
  )

describe("a database dump on postgres", () => {
  let engine: TestEngine
  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  it("holds neither an issued token nor the signing key, and nothing in it signs a token the API accepts", async () => {
    const account = await engine.createAccount({ scopes: ["webhooks/read", "pix.cob/read"] })
    const issued = [await engine.token(account, "webhooks/read"), await engine.token(account, "pix.cob/read"), await engine.token(account)]
    // Reuse still hands out the same tokens.
    expect(await engine.token(account, "webhooks/read")).toBe(issued[0])
    expect(await engine.token(account)).toBe(issued[2])

    const dump = await engine.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return {
        accessTokens: yield* sql<Record<string, unknown>>`SELECT * FROM access_tokens`,
        settings: yield* sql<Record<string, unknown>>`SELECT * FROM settings`
      }
    }))
    const text = JSON.stringify(dump)
    expect(dump.accessTokens).toHaveLength(3)
    for (const token of issued) {
      expect(text).not.toContain(token)
      expect(text).not.toContain(token.split(".")[2])
    }
    const sealed = dump.settings.find((row) => row.key === "jwt_signing_key")!.value as string
    expect(isSealed(sealed)).toBe(true)
    const signingKey = Option.getOrThrow(await openSigningKey(sealed))
    expect(text).not.toContain(signingKey)
    // That is the key the tokens are signed with: the check above looked for the right thing.
    const real = await Effect.runPromise(Effect.flatMap(importJwtKey(signingKey), (key) => verifyJwt(issued[0]!, key, nowSeconds())))
    expect(Option.isSome(real)).toBe(true)

    const webhooks = (token: string) =>
      fetch(`${engine.baseUrl}/v1/users/webhooks`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status)
    expect(await webhooks(issued[0]!)).toBe(200)
    const candidates = stringsOf([...dump.accessTokens, ...dump.settings])
    expect(candidates.length).toBeGreaterThan(10)
    for (const candidate of candidates) {
      const forged = await sign(claimsFor(account, "webhooks/read"), candidate)
      expect(await webhooks(forged), candidate).toBe(401)
    }
  })
})

describe("the signing key across versions and keys on postgres", () => {
  it("seals a clear key left by an older version at the next start, and the tokens it signed stay valid", async () => {
    const { config, drop } = await engineConfig("postgres")
    try {
      const first = ManagedRuntime.make(EngineLive(config))
      const account = await first.runPromise(Billing.createAccount({ name: "Loja antiga", document: "11444777000161", sandbox: true, scopes: ["webhooks/read"] }))
      // An installation of the previous version kept the key in clear.
      const clearKey = "5e".repeat(32)
      await first.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE settings SET value = ${clearKey} WHERE key = 'jwt_signing_key'`
      }))
      await first.dispose()
      const oldToken = await sign({ ...claimsFor(account, "webhooks/read"), jti: "old" }, clearKey)

      const second = ManagedRuntime.make(HttpServerLive({ port: 0, host: "127.0.0.1" }).pipe(Layer.provideMerge(EngineLive(config))))
      try {
        const baseUrl = await serverBaseUrl(second)
        const response = await fetch(`${baseUrl}/v1/users/webhooks`, { headers: { authorization: `Bearer ${oldToken}` } })
        expect(response.status).toBe(200)
        const stored = await second.runPromise(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ value: string }>`SELECT value FROM settings WHERE key = 'jwt_signing_key'`
        }))
        expect(isSealed(stored[0]!.value)).toBe(true)
        expect(stored[0]!.value).not.toContain(clearKey)
        expect(Option.getOrUndefined(await openSigningKey(stored[0]!.value))).toBe(clearKey)
      } finally {
        await second.dispose()
      }

      // Another secret key cannot open it: the engine refuses to start rather than sign with a key of its own.
      const other = ManagedRuntime.make(EngineLive({ ...config, secretKey: Buffer.alloc(32, 7).toString("base64") }))
      await expect(other.runPromise(Effect.void)).rejects.toThrow(/does not open with BILLING_SECRET_KEY/)
      await other.dispose()
    } finally {
      await drop()
    }
  })
})

describe("where the secret key comes from", () => {
  const main = "packages/cli/src/main.ts"
  const billing = (args: Array<string>, env: Record<string, string>) =>
    spawnSync(process.execPath, [main, ...args], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 })

  it("refuses to start on a PostgreSQL server without BILLING_SECRET_KEY, or with a malformed one, in one line", () => {
    // Nothing listens there: the refusal comes before any connection.
    const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" }
    for (const [key, message] of [["", "BILLING_SECRET_KEY is required with DATABASE_URL"], ["short", "BILLING_SECRET_KEY must be 32 bytes"]] as const) {
      const result = billing(["worker"], { ...env, BILLING_SECRET_KEY: key })
      expect(result.status, result.stderr).toBe(1)
      expect(result.stderr.trim().split("\n")).toEqual([expect.stringContaining(message)])
    }
  })

  it("refuses in one line to start with a key that does not open the database's signing key", async () => {
    const { config, drop } = await engineConfig("postgres")
    try {
      const runtime = ManagedRuntime.make(EngineLive(config))
      await runtime.runPromise(Effect.void)
      await runtime.dispose()
      const result = billing(["accounts", "create", "--name", "x", "--document", "11444777000161"], {
        DATABASE_URL: config.databaseUrl!,
        BILLING_SECRET_KEY: "ab".repeat(32)
      })
      expect(result.status, result.stderr).toBe(1)
      expect(result.stderr.trim().split("\n")).toEqual([expect.stringContaining("does not open with BILLING_SECRET_KEY")])
      expect(result.stdout).toBe("")
    } finally {
      await drop()
    }
  })

  it("on embedded PGlite, generates secret.key (mode 600) into the data folder once, says so in one line, then reuses it", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "billing-key-")), "pglite")
    const said = vi.spyOn(console, "error").mockImplementation(() => {})
    try {
      const material = (layer: Layer.Layer<SecretKey, unknown>) =>
        Effect.runPromise(Effect.gen(function*() {
          const key = yield* SecretKey
          return Buffer.from(Redacted.value(key.material)).toString("hex")
        }).pipe(Effect.provide(layer)))
      const first = await material(SecretKeyLive({ dataDir }))
      const file = join(dataDir, "secret.key")
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(Buffer.from(readFileSync(file, "utf8").trim(), "base64").toString("hex")).toBe(first)
      expect(said.mock.calls).toEqual([[expect.stringContaining(`generated a secret key into ${file}`)]])
      expect(await material(SecretKeyLive({ dataDir }))).toBe(first)
      expect(said).toHaveBeenCalledTimes(1)
      // The environment wins over the file.
      expect(await material(SecretKeyLive({ dataDir, secretKey: "cd".repeat(32) }))).toBe("cd".repeat(32))
    } finally {
      said.mockRestore()
      rmSync(join(dataDir, ".."), { recursive: true, force: true })
    }
  })
})

describe("webhook secrets in a database dump on postgres", () => {
  let engine: TestEngine
  beforeAll(async () => {
    engine = await startEngine("postgres")
  })
  afterAll(() => engine?.dispose())

  it("holds no webhook secret nor receiver token in clear, reads them back through the API, and seals clear rows at the next start", async () => {
    const account = await engine.createAccount({ name: "Loja Ganchos" })
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const secret = "s".repeat(12) + "-receiver-secret"
    const registered = await (await fetch(`${engine.baseUrl}/v1/users/webhooks`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: "http://127.0.0.1:9/hooks", secret, authToken: "token-of-the-receiver" })
    })).json()
    expect(registered.secret).toBe(secret)
    const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
    const dump = await sql((s) => s<Record<string, unknown>>`SELECT * FROM webhooks WHERE id = ${registered.webhookId}`)
    const strings = stringsOf(dump)
    expect(strings.some((v) => v.includes(secret) || v.includes("token-of-the-receiver"))).toBe(false)
    expect(isSealed(dump[0]!.secret as string) && isSealed(dump[0]!.auth_token as string)).toBe(true)
    // The registration still reads back whole through the API.
    const read = await (await fetch(`${engine.baseUrl}/v1/users/webhooks/${registered.webhookId}`, { headers })).json()
    expect(read).toMatchObject({ webhookId: registered.webhookId, hasAuthToken: true })

    // A row of an earlier version, in clear: sealed when the next process starts on this database.
    await sql((s) => s`UPDATE webhooks SET secret = 'clear-secret-of-old', auth_token = 'clear-token-of-old' WHERE id = ${registered.webhookId}`)
    const worker = ManagedRuntime.make(EngineLive(engine.config))
    try {
      await worker.runPromise(Effect.void)
    } finally {
      await worker.dispose()
    }
    const after = await sql((s) => s<{ secret: string; auth_token: string }>`SELECT secret, auth_token FROM webhooks WHERE id = ${registered.webhookId}`)
    expect(isSealed(after[0]!.secret) && isSealed(after[0]!.auth_token)).toBe(true)
    expect(stringsOf(after).some((v) => v.includes("clear-"))).toBe(false)
  })
})

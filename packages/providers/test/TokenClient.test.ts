/**
 * The OAuth2 client-credentials token over mutual TLS, against a fake token
 * endpoint that requires a client certificate: each profile's request as
 * the endpoint receives it, the cache (the fake counts requests), the one
 * refresh after a 401, and a client without a certificate refused.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { Agent, request } from "undici"
import { afterAll, beforeAll } from "vitest"
import { Result } from "effect"
import { Certificates } from "@billing/core"
import { makeTokenClient, requestToken, type TokenClientOptions } from "../src/oauth/TokenClient.ts"
import { TokenRejected } from "../src/oauth/TokenErrors.ts"
import { PspProfiles } from "../src/pix/PixProfiles.ts"
import { mutualTlsAgent } from "../src/tls/MutualTlsAgent.ts"
import { type FakeTokenEndpoint, startFakeTokenEndpoint } from "./support/FakeTokenEndpoint.ts"
import { makeTestPki, MERCHANT_CNPJ } from "./support/TestCertificates.ts"

const pki = makeTestPki()
const certificate = Result.getOrThrow(Certificates.fromPem(pki.client.certPem, pki.client.keyPem))
let fake: FakeTokenEndpoint
beforeAll(async () => {
  fake = await startFakeTokenEndpoint(pki)
})
afterAll(() => fake.close())

/** A token client of `profile` on a fresh agent; the fake's log starts empty. */
const clientOf = (profile: keyof typeof PspProfiles, extra: Partial<TokenClientOptions> = {}) =>
  Effect.gen(function*() {
    fake.requests.length = 0
    const dispatcher = yield* mutualTlsAgent({ certificate, ca: pki.caPem })
    const options: TokenClientOptions = {
      provider: `fake-${profile}`,
      tokenUrl: fake.tokenUrl,
      clientId: "client-1",
      clientSecret: Redacted.make("secret-1"),
      scopes: [],
      style: PspProfiles[profile].token,
      dispatcher,
      ...extra
    }
    return { client: yield* makeTokenClient(options), dispatcher, options }
  })

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`

describe("token requests per profile, as the token endpoint receives them", () => {
  it.effect("bcb: Basic credentials, form body, over the client certificate", () =>
    Effect.gen(function*() {
      const { client } = yield* clientOf("bcb")
      const token = yield* client.token
      assert.strictEqual(Redacted.value(token.value), fake.issued.at(-1))
      const [seen] = fake.requests
      assert.strictEqual(seen!.headers.authorization, basic("client-1", "secret-1"))
      assert.strictEqual(seen!.headers["content-type"], "application/x-www-form-urlencoded")
      assert.strictEqual(seen!.body, "grant_type=client_credentials")
      assert.strictEqual(seen!.clientCn, `LOJA EXEMPLO LTDA:${MERCHANT_CNPJ}`)
    }).pipe(Effect.scoped))

  it.effect("efi: Basic credentials, JSON body", () =>
    Effect.gen(function*() {
      const { client } = yield* clientOf("efi", { scopes: ["cob.write"] })
      yield* client.token
      const [seen] = fake.requests
      assert.strictEqual(seen!.headers.authorization, basic("client-1", "secret-1"))
      assert.strictEqual(seen!.headers["content-type"], "application/json")
      assert.strictEqual(seen!.body, `{"grant_type":"client_credentials"}`)
    }).pipe(Effect.scoped))

  it.effect("inter: credentials and scopes in a form body, no Authorization header", () =>
    Effect.gen(function*() {
      const { client } = yield* clientOf("inter", { scopes: ["cob.write", "cob.read"] })
      yield* client.token
      const [seen] = fake.requests
      assert.strictEqual(seen!.headers.authorization, undefined)
      assert.strictEqual(seen!.body, "grant_type=client_credentials&client_id=client-1&client_secret=secret-1&scope=cob.write+cob.read")
    }).pipe(Effect.scoped))

  it.effect("sicoob: the client id without a secret", () =>
    Effect.gen(function*() {
      const { client } = yield* clientOf("sicoob", { clientSecret: undefined, scopes: ["cob.read"] })
      yield* client.token
      const [seen] = fake.requests
      assert.strictEqual(seen!.headers.authorization, undefined)
      assert.strictEqual(seen!.body, "grant_type=client_credentials&client_id=client-1&scope=cob.read")
    }).pipe(Effect.scoped))
})

describe("the token cache", () => {
  it.effect("serves one token until expires_in minus 60 s, concurrent callers included", () =>
    Effect.gen(function*() {
      const { client } = yield* clientOf("bcb")
      const tokens = yield* Effect.all([client.token, client.token, client.token, client.token], { concurrency: "unbounded" })
      assert.strictEqual(fake.requests.length, 1)
      assert.deepStrictEqual(new Set(tokens.map((token) => Redacted.value(token.value))).size, 1)
      // expires_in 3600: usable until 3540 s after it was obtained.
      yield* TestClock.adjust("3539 seconds")
      yield* client.token
      assert.strictEqual(fake.requests.length, 1)
      yield* TestClock.adjust("1 second")
      const renewed = yield* client.token
      assert.strictEqual(fake.requests.length, 2)
      assert.strictEqual(Redacted.value(renewed.value), fake.issued.at(-1))
    }).pipe(Effect.scoped))
})

describe("a 401 on use", () => {
  /** The fake's protected route with `token`; its 401 becomes `TokenRejected`, as the PSP adapter will map it. */
  const callWith = (dispatcher: Agent) => (token: Redacted.Redacted<string>) =>
    Effect.tryPromise({
      try: async () => {
        const answer = await request(`${fake.origin}/v2/cob`, { dispatcher, headers: { authorization: `Bearer ${Redacted.value(token)}` } })
        await answer.body.dump()
        return answer.statusCode
      },
      catch: (error) => new Error(String(error))
    }).pipe(Effect.flatMap((status) => (status === 401 ? Effect.fail(new TokenRejected({ provider: "fake" })) : Effect.succeed(status))))

  it.effect("fetches a new token and retries once", () =>
    Effect.gen(function*() {
      const { client, dispatcher } = yield* clientOf("bcb")
      const first = Redacted.value((yield* client.token).value)
      fake.revoke(first)
      const status = yield* client.withToken(callWith(dispatcher))
      assert.strictEqual(status, 200)
      assert.strictEqual(fake.requests.length, 2)
    }).pipe(Effect.scoped))

  it.effect("a second 401 is the caller's: no third token", () =>
    Effect.gen(function*() {
      const { client, dispatcher } = yield* clientOf("bcb")
      const first = Redacted.value((yield* client.token).value)
      fake.revoke(first)
      // The refreshed token is the next one the fake issues; revoke it in advance.
      fake.revoke(`token-${fake.issued.length + 1}`)
      const error = yield* client.withToken(callWith(dispatcher)).pipe(Effect.flip)
      assert.instanceOf(error, TokenRejected)
      assert.strictEqual(fake.requests.length, 2)
    }).pipe(Effect.scoped))
})

describe("refusals", () => {
  it.effect("a client without a certificate gets no token: the endpoint refuses the connection", () =>
    Effect.gen(function*() {
      fake.requests.length = 0
      const refusedBefore = fake.refusedHandshakes()
      const bare = new Agent({ connect: { ca: pki.caPem, rejectUnauthorized: true } })
      yield* Effect.addFinalizer(() => Effect.promise(() => bare.close()))
      const error = yield* requestToken({
        provider: "fake",
        tokenUrl: fake.tokenUrl,
        clientId: "client-1",
        clientSecret: Redacted.make("secret-1"),
        scopes: [],
        style: PspProfiles.bcb.token,
        dispatcher: bare
      }).pipe(Effect.flip)
      assert.strictEqual(error._tag, "TokenRequestFailed")
      assert.match(error.message, /TLS failed|connection closed by the provider/)
      assert.strictEqual(fake.requests.length, 0)
      assert.isAbove(fake.refusedHandshakes(), refusedBefore)
    }).pipe(Effect.scoped))

  it.effect("the endpoint's refusal is said with its status and OAuth error", () =>
    Effect.gen(function*() {
      const { client } = yield* clientOf("bcb")
      fake.answerNext(401, { error: "invalid_client", error_description: "Client authentication failed" })
      const error = yield* client.token.pipe(Effect.flip)
      assert.strictEqual(error.message, "the token endpoint answered 401 (invalid_client: Client authentication failed)")
      // Nothing cached from a failure: the next call asks again.
      yield* client.token
      assert.strictEqual(fake.requests.length, 2)
    }).pipe(Effect.scoped))
})

/**
 * The token use case on in-memory ports, with the secret hasher replaced by a
 * spy: what a request costs is counted in hashes, never timed.
 */
import { Effect, Layer, Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import { importJwtKey } from "../../src/auth/Jwt.ts"
import { DUMMY_SECRET_HASH, hashSecret, SecretHasher, verifySecret } from "../../src/auth/SecretHash.ts"
import { SigningKey } from "../../src/auth/SigningKey.ts"
import { issueToken } from "../../src/auth/Tokens.ts"
import type { ApiClient, IssuedToken } from "../../src/domain/ApiClient.ts"
import { AccountId } from "../../src/domain/Ids.ts"
import { AccessTokens } from "../../src/ports/AccessTokens.ts"
import { ApiClients } from "../../src/ports/ApiClients.ts"
import { AttemptCounters } from "../../src/ports/AttemptCounters.ts"
import { Ids } from "../../src/ports/Ids.ts"
import { Transactor } from "../../src/ports/Transactor.ts"

const ports = async () => {
  const client: ApiClient = {
    clientId: "cli_known",
    accountId: AccountId.make("acc_1"),
    secretHash: await Effect.runPromise(hashSecret("right")),
    scopes: ["pix.cob/read"],
    createdAt: new Date(0)
  }
  const issued: Array<IssuedToken> = []
  const layer = Layer.mergeAll(
    Layer.succeed(ApiClients, {
      insert: () => Effect.void,
      findByClientId: (id) => Effect.succeed(id === client.clientId ? Option.some(client) : Option.none()),
      updateCredentials: () => Effect.void
    }),
    Layer.succeed(AccessTokens, {
      findReusable: () => Effect.succeed(Option.none()),
      insert: (t) => Effect.sync(() => void issued.push(t))
    }),
    Layer.succeed(AttemptCounters, {
      hit: (keys, at) => Effect.succeed(keys.map((key) => ({ key, attempts: 1, windowStart: at }))),
      peek: () => Effect.succeed([]),
      forgive: () => Effect.void
    }),
    Layer.succeed(Transactor, { withTransaction: (effect) => effect }),
    Layer.effect(SigningKey, Effect.map(importJwtKey("test-key"), (key) => SigningKey.of({ key }))),
    Ids.layer
  )
  return { client, layer }
}

/** Runs a token request with a hasher that records every stored hash it is asked to check. */
const attempt = async (clientId: string, secret: string) => {
  const { client, layer } = await ports()
  const checked: Array<string> = []
  const spy = {
    hash: hashSecret,
    verify: (s: string, stored: string) => Effect.tap(verifySecret(s, stored), () => Effect.sync(() => void checked.push(stored)))
  }
  const outcome = await Effect.runPromise(
    issueToken({ grant_type: "client_credentials", client_id: clientId, client_secret: secret }).pipe(
      Effect.provideService(SecretHasher, spy),
      Effect.provide(layer),
      Effect.result
    )
  )
  return { outcome, checked, client }
}

const iterationsOf = (stored: string) => Number(stored.split("$")[1])

describe("token requests cost one hash whether the client exists or not", () => {
  it("checks an unknown client id against the dummy hash, at the iteration count of real secrets", async () => {
    const unknown = await attempt("cli_nobody", "whatever")
    const wrong = await attempt("cli_known", "wrong")
    expect(Result.isFailure(unknown.outcome)).toBe(true)
    expect(Result.isFailure(wrong.outcome)).toBe(true)
    // One PBKDF2 derivation each, with the same cost parameters.
    expect(unknown.checked).toEqual([DUMMY_SECRET_HASH])
    expect(wrong.checked).toEqual([wrong.client.secretHash])
    expect(iterationsOf(DUMMY_SECRET_HASH)).toBe(iterationsOf(wrong.client.secretHash))
    expect(DUMMY_SECRET_HASH.split("$").map((part) => part.length)).toEqual(wrong.client.secretHash.split("$").map((part) => part.length))
    // The dummy hash matches no secret, the empty one included.
    expect(await Effect.runPromise(verifySecret("", DUMMY_SECRET_HASH))).toBe(false)
  })

  it("answers both with the same invalid_client error", async () => {
    const unknown = await attempt("cli_nobody", "whatever")
    const wrong = await attempt("cli_known", "wrong")
    const errorOf = (outcome: typeof unknown.outcome) => Result.isFailure(outcome) ? { ...outcome.failure } : undefined
    expect(errorOf(unknown.outcome)).toMatchObject({ _tag: "OAuthInvalidClient", error: "invalid_client" })
    expect(errorOf(unknown.outcome)).toEqual(errorOf(wrong.outcome))
  })

  it("hashes once for the right secret too", async () => {
    const right = await attempt("cli_known", "right")
    expect(Result.isSuccess(right.outcome)).toBe(true)
    expect(right.checked).toHaveLength(1)
  })
})

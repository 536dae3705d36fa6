/**
 * `POST /auth/token`, scope enforcement and `X-Sub-Account`, through real
 * HTTP on PostgreSQL and on embedded PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseKinds, startEngine, type TestEngine } from "./support/Engine.ts"

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

describe.each(databaseKinds)("authentication on %s", (kind) => {
  let engine: TestEngine
  let account: Awaited<ReturnType<TestEngine["createAccount"]>>

  beforeAll(async () => {
    engine = await startEngine(kind)
    account = await engine.createAccount({ scopes: ["webhooks/read", "webhooks/write", "pix.cob/read"] })
  })
  afterAll(() => engine?.dispose())

  const token = (fields: Record<string, string>, json = false) =>
    fetch(`${engine.baseUrl}/auth/token`, {
      method: "POST",
      ...(json
        ? { body: JSON.stringify(fields), headers: { "content-type": "application/json" } }
        : { body: form(fields) })
    })

  const valid = () => ({ grant_type: "client_credentials", client_id: account.clientId, client_secret: account.clientSecret })

  it("issues a Bearer JWT for form-urlencoded client credentials", async () => {
    const response = await token({ ...valid(), scope: "webhooks/read" })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.token_type).toBe("Bearer")
    expect(body.expires_in).toBe(3600)
    expect(body.access_token.split(".")).toHaveLength(3)
  })

  it("accepts the same fields as a JSON body (the provider's Postman collection)", async () => {
    const response = await token({ ...valid(), scope: "pix.cob/read" }, true)
    expect(response.status).toBe(200)
    expect((await response.json()).token_type).toBe("Bearer")
  })

  it("reuses a valid token for the same client and scopes, with its remaining time", async () => {
    const first = await (await token({ ...valid(), scope: "webhooks/write webhooks/read" })).json()
    // Same scopes in another order and with extra blanks: the same set.
    const second = await (await token({ ...valid(), scope: "webhooks/read   webhooks/write" })).json()
    expect(second.access_token).toBe(first.access_token)
    expect(second.expires_in).toBeLessThanOrEqual(first.expires_in)
    expect(second.expires_in).toBeGreaterThan(3500)
    const other = await (await token({ ...valid(), scope: "webhooks/read" })).json()
    expect(other.access_token).not.toBe(first.access_token)
  })

  it("answers 400 { error } for another grant type", async () => {
    const response = await token({ ...valid(), grant_type: "password" })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "unsupported_grant_type" })
  })

  it("answers 400 invalid_request when a credential is missing or has the wrong type", async () => {
    const missing = await token({ grant_type: "client_credentials", client_id: account.clientId })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ error: "invalid_request" })
    const wrongType = await fetch(`${engine.baseUrl}/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_id: 12, client_secret: [] })
    })
    expect(wrongType.status).toBe(400)
    expect(await wrongType.json()).toMatchObject({ error: "invalid_request" })
  })

  it("answers 400 invalid_request for a body that is not a form or a JSON object", async () => {
    const cases: Array<RequestInit> = [
      { body: "hello", headers: { "content-type": "text/plain" } },
      { body: "[1,2]", headers: { "content-type": "application/json" } },
      { body: "{\"grant_type\":", headers: { "content-type": "application/json" } },
      {}
    ]
    for (const init of cases) {
      const response = await fetch(`${engine.baseUrl}/auth/token`, { method: "POST", ...init })
      expect(response.status, JSON.stringify(init)).toBe(400)
      expect((await response.json()).error).toBe("invalid_request")
    }
  })

  it("answers 401 { error } for a wrong secret or an unknown client", async () => {
    const wrongSecret = await token({ ...valid(), client_secret: "not-the-secret" })
    expect(wrongSecret.status).toBe(401)
    expect(await wrongSecret.json()).toMatchObject({ error: "invalid_client" })
    const unknown = await token({ ...valid(), client_id: "cli_nobody" })
    expect(unknown.status).toBe(401)
    expect(await unknown.json()).toMatchObject({ error: "invalid_client" })
  })

  it("answers 403 { error } for a scope not released to the client", async () => {
    const response = await token({ ...valid(), scope: "webhooks/read wallet/write" })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ error: "invalid_scope" })
  })

  it("answers 401 UNAUTHORIZED in the envelope without a token, or with a forged one", async () => {
    const none = await fetch(`${engine.baseUrl}/v1/users/webhooks`)
    expect(none.status).toBe(401)
    expect((await none.json()).error).toMatchObject({ code: "UNAUTHORIZED", details: null })
    const real = await engine.token(account, "webhooks/read")
    const [header, payload] = real.split(".")
    const forged = `${header}.${payload}.${"A".repeat(43)}`
    const response = await fetch(`${engine.baseUrl}/v1/users/webhooks`, { headers: { authorization: `Bearer ${forged}` } })
    expect(response.status).toBe(401)
    const body = await response.json()
    expect(body.error.code).toBe("UNAUTHORIZED")
    expect(typeof body.error.timestamp).toBe("string")
  })

  it("answers the bare { message } 401 to a valid token without the route's scope", async () => {
    const readOnly = await engine.token(account, "pix.cob/read")
    const response = await fetch(`${engine.baseUrl}/v1/charges/pix`, {
      method: "POST",
      body: JSON.stringify({ amount: 10 }),
      headers: { authorization: `Bearer ${readOnly}`, "content-type": "application/json" }
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ message: "TOKEN EXPIRADO OU INVALIDO" })
  })

  it("lets any valid token of the account manage its webhooks: the webhooks/* scopes are not the spec's", async () => {
    const readOnly = await engine.token(account, "pix.cob/read")
    const response = await fetch(`${engine.baseUrl}/v1/users/webhooks`, { headers: { authorization: `Bearer ${readOnly}` } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ items: [] })
  })

  it("resolves X-Sub-Account: own sub-account, unknown number (404 NOT_FOUND), another master's (401)", async () => {
    const sub = await engine.createAccount({ parentId: account.accountId, document: "52998224725", name: "Vendedor" })
    const otherMaster = await engine.createAccount({ name: "Outra loja" })
    const foreignSub = await engine.createAccount({ parentId: otherMaster.accountId, document: "11144477735", name: "Alheio" })
    const bearer = { authorization: `Bearer ${await engine.token(account, "webhooks/read")}` }

    const own = await fetch(`${engine.baseUrl}/v1/users/webhooks`, { headers: { ...bearer, "x-sub-account": sub.accountNumber } })
    expect(own.status).toBe(200)

    const unknown = await fetch(`${engine.baseUrl}/v1/users/webhooks`, { headers: { ...bearer, "x-sub-account": "999999999" } })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.code).toBe("NOT_FOUND")

    const foreign = await fetch(`${engine.baseUrl}/v1/users/webhooks`, {
      headers: { ...bearer, "x-sub-account": foreignSub.accountNumber }
    })
    expect(foreign.status).toBe(401)
    expect((await foreign.json()).error.code).toBe("UNAUTHORIZED")
  })

  it("answers unknown routes with 404 NOT_FOUND in the envelope", async () => {
    const response = await fetch(`${engine.baseUrl}/v1/does-not-exist`)
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe("NOT_FOUND")
  })

  it("serves the OpenAPI 3.1 document, version 1.0.0, with the routes it answers", async () => {
    const response = await fetch(`${engine.baseUrl}/v1/openapi.json`)
    expect(response.status).toBe(200)
    const doc = await response.json()
    expect(doc.openapi).toBe("3.1.0")
    expect(doc.info.version).toBe("1.0.0")
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      "/auth/token",
      "/v1/users/webhooks",
      "/v1/users/webhooks/test",
      "/v1/users/webhooks/{webhookEventId}/retry"
    ]))
  })
})

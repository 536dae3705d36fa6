/**
 * Input as an attacker sends it, through real HTTP on PostgreSQL: one
 * client's bad request never stops another's, a NUL character or an
 * overflowing number is refused with the spec's 400, and bodies and nesting
 * are bounded. Each case also checks that nothing was stored.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

type Account = Awaited<ReturnType<TestEngine["createAccount"]>>

/** `[[[…]]]` nested `depth` times: 2 × depth bytes of JSON text. */
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`

describe("hostile input", () => {
  let engine: TestEngine
  let attacker: Account
  let merchant: Account
  let attackerAuth: Record<string, string>
  let merchantAuth: Record<string, string>

  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  const countCharges = () => sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM charges`).then((r) => Number(r[0]!.n))
  const post = (path: string, body: string, auth: Record<string, string>, contentType = "application/json") =>
    fetch(`${engine.baseUrl}${path}`, { method: "POST", body, headers: { ...auth, "content-type": contentType } })

  beforeAll(async () => {
    engine = await startEngine("postgres")
    attacker = await engine.createAccount({ name: "Atacante" })
    merchant = await engine.createAccount({ name: "Loja Honesta" })
    attackerAuth = { authorization: `Bearer ${await engine.token(attacker)}` }
    merchantAuth = { authorization: `Bearer ${await engine.token(merchant)}` }
  })
  afterAll(() => engine?.dispose())

  it("refuses metadata nested 5,000 deep, and every merchant's Pix charges are still answered afterwards", async () => {
    const poison = `{"amount":10,"metadata":{"deep":${nested(5000)}}}`
    const refused = await Promise.all([post("/v1/charges/pix", poison, attackerAuth), post("/v1/charges/pix", poison, attackerAuth)])
    for (const response of refused) {
      expect(response.status).toBe(400)
      const error = (await response.json()).error
      expect(error.code).toBe("INVALID_DATA")
      expect(error.details[0].field).toMatch(/^metadata\.deep(\[0\])+$/)
    }
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post("/v1/charges/pix", JSON.stringify({ amount: 1 + i }), merchantAuth))
    )
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 100 }, () => 200))
  })

  it("keeps a one-character metadata key written as an escape as the merchant sent it, after another client sent the key \"\\\\\"", async () => {
    // Node 24's JSON.parse read `"\n"` as `"\\"` here (docs/decisions.md, "Node 26 provisioned from npm").
    const sent = await post("/v1/charges/pix", `{"amount":10,"metadata":{"pedidoLoja4711":1,"\\\\":1}}`, attackerAuth)
    expect(sent.status).toBe(200)
    for (const [key, text] of [["\n", "\\n"], ["é", "\\u00e9"]]) {
      const created = await post("/v1/charges/pix", `{"amount":10,"metadata":{"pedidoLoja4711":2,"${text}":2}}`, merchantAuth)
      expect(created.status).toBe(200)
      const { chargeId } = await created.json()
      const detail = await (await fetch(`${engine.baseUrl}/v1/charges/${chargeId}?view=detail`, { headers: merchantAuth })).json()
      expect(detail.metadata).toEqual({ pedidoLoja4711: 2, [key!]: 2 })
    }
  })

  it("refuses a NUL character in a body string, a key, a query value or a path id with 400 naming the field", async () => {
    const before = await countCharges()
    const cases: Array<[Promise<Response>, string]> = [
      [post("/v1/charges/pix", JSON.stringify({ amount: 10, externalTxid: "caixa\u00001" }), merchantAuth), "externalTxid"],
      [post("/v1/charges/pix", JSON.stringify({ amount: 10, metadata: { "a\u0000b": 1 } }), merchantAuth), "metadata"],
      [post("/v1/customers", JSON.stringify({ name: "Maria\u0000", document: "52998224725" }), merchantAuth), "name"],
      [fetch(`${engine.baseUrl}/v1/charges/a%00b`, { headers: merchantAuth }), "chargeId"],
      [fetch(`${engine.baseUrl}/v1/charges?dateFrom=2026%00`, { headers: merchantAuth }), "dateFrom"]
    ]
    for (const [request, field] of cases) {
      const response = await request
      const text = await response.text()
      expect(response.status, text).toBe(400)
      const error = JSON.parse(text).error
      expect(error.code, text).toBe("INVALID_DATA")
      expect(JSON.stringify(error.details), text).toContain(field)
    }
    expect(await countCharges()).toBe(before)
  })

  it("answers a NUL in the token request with the OAuth body", async () => {
    const response = await post("/auth/token", "grant_type=client_credentials&client_id=a%00b&client_secret=x", {}, "application/x-www-form-urlencoded")
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "invalid_request" })
  })

  it("refuses numeric query parameters that are not bounded integers", async () => {
    for (const page of ["1e308", "1e20", "1.5", "-1"]) {
      const response = await fetch(`${engine.baseUrl}/v1/charges?page=${page}`, { headers: merchantAuth })
      expect(response.status, page).toBe(400)
      expect((await response.json()).error.code).toBe("INVALID_DATA")
    }
  })

  it("answers a body above 1 MiB with 413 in the envelope, and stores nothing", async () => {
    const before = await countCharges()
    const response = await post("/v1/charges/pix", JSON.stringify({ amount: 10, description: "x".repeat(1_100_000) }), merchantAuth)
    expect(response.status).toBe(413)
    expect((await response.json()).error.code).toBe("PAYLOAD_TOO_LARGE")
    expect(await countCharges()).toBe(before)
  })

  it("refuses a string or a list longer than its field allows: names 200, descriptions 1,000, ids 100, items 100", async () => {
    const buyer = { name: "Ana", email: "ana@example.com", documentNumber: "52998224725" }
    const cases: Array<[string, unknown, string]> = [
      ["/v1/customers", { name: "M".repeat(201), document: "52998224725" }, "name"],
      ["/v1/products", { name: "P", type: "ONE_TIME", description: "d".repeat(1_001), prices: [{ amount: 1 }] }, "description"],
      ["/v1/products", { name: "P", type: "ONE_TIME", prices: [{ amount: 1, title: "t".repeat(201) }] }, "prices[0].title"],
      ["/v1/charges", { paymentMethod: "pix", items: [{ priceId: "p".repeat(101) }], customer: buyer }, "items[0].priceId"],
      ["/v1/coupons", { code: "C", name: "C", discountType: "FIXED", discountValue: 1, productIds: Array.from({ length: 1_001 }, (_, i) => `p${i}`) }, "productIds"],
      ["/v1/charges/pix", { amount: 10, split: Array.from({ length: 21 }, () => ({ type: "fixed", amount: 0.01, accountNumber: "1" })) }, "split"],
      ["/v1/charges", { paymentMethod: "pix", items: Array.from({ length: 101 }, (_, i) => ({ priceId: `price_${i}` })), customer: buyer }, "items"],
      ["/v1/charges", { paymentMethod: "pix", amount: 10, discounts: Array.from({ length: 21 }, () => ({ type: "fixed", value: 1 })), customer: buyer }, "discounts"]
    ]
    for (const [path, body, field] of cases) {
      const response = await post(path, JSON.stringify(body), merchantAuth)
      const text = await response.text()
      expect(response.status, text).toBe(400)
      expect(JSON.stringify(JSON.parse(text).error.details), text).toContain(field)
    }
  })
})

/**
 * Hosted checkout links and sessions through real HTTP on PostgreSQL: the
 * records with their `url`, validation, and tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("checkout links and sessions on postgres", () => {
  let engine: TestEngine
  let headers: Record<string, string>
  let priceId: string
  let productId: string
  const call = (path: string, init: RequestInit = {}, as = headers) => fetch(`${engine.baseUrl}${path}`, { ...init, headers: as })
  const send = (method: string, path: string, body: unknown, as = headers) => call(path, { method, body: JSON.stringify(body) }, as)

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount()
    headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const product = await (await send("POST", "/v1/products", { name: "Curso", type: "ONE_TIME", prices: [{ amount: 97 }] })).json()
    priceId = product.prices[0].priceId
    productId = product.productId
  })
  afterAll(() => engine?.dispose())

  it("creates a reusable link with its url and settings, reads, lists and updates it", async () => {
    const created = await send("POST", "/v1/checkouts", {
      priceId,
      allowedPaymentMethods: ["pix", "creditcard"],
      successUrl: "https://loja.example.com/obrigado",
      primaryColor: "#112233",
      maxInstallments: 6
    })
    expect(created.status).toBe(201)
    const link = await created.json()
    expect(link.id).toMatch(/^SANDBOX_pl_/)
    expect(link).toMatchObject({
      url: `${engine.baseUrl}/pay/${link.id}`,
      status: "ACTIVE",
      priceId,
      allowedPaymentMethods: ["pix", "creditcard"],
      settings: { successUrl: "https://loja.example.com/obrigado", primaryColor: "#112233", maxInstallments: 6 }
    })
    expect(await (await call(`/v1/checkouts/${link.id}`)).json()).toEqual(link)
    const list = await (await call("/v1/checkouts")).json()
    expect(list.items.map((l: { id: string }) => l.id)).toContain(link.id)
    const updated = await (await send("PUT", `/v1/checkouts/${link.id}`, { allowedPaymentMethods: ["boleto"], status: "INACTIVE", primaryColor: "#000000" })).json()
    expect(updated).toMatchObject({ allowedPaymentMethods: ["boleto"], status: "INACTIVE", settings: { primaryColor: "#000000", maxInstallments: 6 } })
    const byProduct = await send("POST", "/v1/checkouts", { product: productId, allowedPaymentMethods: ["pix"] })
    expect((await byProduct.json()).productId).toBe(productId)
  })

  it("refuses links without price or product, without methods, with unknown ones, or with terms out of bounds", async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ allowedPaymentMethods: ["pix"] }, 400, "INVALID_DATA"],
      [{ priceId }, 400, "INVALID_DATA"],
      [{ priceId, allowedPaymentMethods: ["cash"] }, 400, "INVALID_DATA"],
      [{ priceId: "SANDBOX_price_nope", allowedPaymentMethods: ["pix"] }, 404, "PRICE_NOT_FOUND"],
      [{ product: "SANDBOX_prod_nope", allowedPaymentMethods: ["pix"] }, 404, "PRODUCT_NOT_FOUND"]
    ]
    for (const [body, status, code] of cases) {
      const response = await send("POST", "/v1/checkouts", body)
      expect(response.status, JSON.stringify(body)).toBe(status)
      expect((await response.json()).error.code).toBe(code)
    }
    // A term the link's payments would take is checked when the link is made, not when a buyer pays.
    for (const [path, body] of [
      ["/v1/checkouts", { priceId, allowedPaymentMethods: ["pix"], expirationAfterDueDate: 61 }],
      ["/v1/checkouts", { priceId, allowedPaymentMethods: ["pix"], billingDay: 0 }],
      ["/v1/checkout-sessions", { priceId, billingDay: 32 }]
    ] as const) {
      const refused = await send("POST", path, body)
      expect([refused.status, (await refused.json()).error.code], JSON.stringify(body)).toEqual([400, "INVALID_DATA"])
    }
    const link = await (await send("POST", "/v1/checkouts", { priceId, allowedPaymentMethods: ["pix"], billingDay: 31 })).json()
    const update = await send("PUT", `/v1/checkouts/${link.id}`, { expirationAfterDueDate: -1 })
    expect([update.status, (await update.json()).error.code]).toEqual([400, "INVALID_DATA"])
    expect((await (await call(`/v1/checkouts/${link.id}`)).json()).settings).toEqual({ billingDay: 31 })
    const missing = await call("/v1/checkouts/SANDBOX_pl_nope")
    expect(missing.status).toBe(404)
    expect((await missing.json()).error.code).toBe("CHECKOUT_NOT_FOUND")
  })

  it("creates a single-use session with a pre-filled customer; another account cannot see it", async () => {
    const created = await send("POST", "/v1/checkout-sessions", {
      priceId,
      customer: { name: "Ana", email: "ana@example.com", documentNumber: "52998224725" },
      successUrl: "https://loja.example.com/ok"
    })
    expect(created.status).toBe(201)
    const session = await created.json()
    expect(session.id).toMatch(/^SANDBOX_cs_/)
    expect(session).toMatchObject({ status: "PENDING", priceId, items: [{ priceId, quantity: 1 }], customer: { name: "Ana" }, url: `${engine.baseUrl}/pay/${session.id}` })
    expect((await call(`/v1/checkout-sessions/${session.id}`)).status).toBe(200)
    const other = await engine.createAccount({ name: "Outra" })
    const theirs = await call(`/v1/checkout-sessions/${session.id}`, {}, { authorization: `Bearer ${await engine.token(other)}` })
    expect(theirs.status).toBe(404)
    expect((await theirs.json()).error.code).toBe("SESSION_NOT_FOUND")
    const noPrice = await send("POST", "/v1/checkout-sessions", { customer: {} })
    expect((await noPrice.json()).error.code).toBe("INVALID_DATA")
  })
  it("keeps what the provider's clients send today: every page setting of the collection, and unknown keys, stored as sent", async () => {
    const other = await (await send("POST", "/v1/products", { name: "E-book", type: "ONE_TIME", prices: [{ amount: 19.9 }] })).json()
    const body = {
      priceId,
      allowedPaymentMethods: ["pix", "creditcard"],
      checkoutName: "Curso de verão",
      primaryColor: "#112233",
      secondaryColor: "#F0F0F0",
      fontColor: "#222222",
      showProductImage: true,
      successMessage: "Obrigado pela compra!",
      successUrl: "https://loja.example.com/obrigado",
      cancelUrl: "http://localhost:3000/carrinho",
      redirectAfterPaymentUrl: "https://loja.example.com/area",
      maxInstallments: 10,
      freeInstallments: 3,
      passFeesToCustomer: true,
      orderBumps: [{ priceId: other.prices[0].priceId, label: "Leve o e-book", displayMode: "checkbox" }],
      metadata: { campaign: "verao" },
      applyBrandingToAllPrices: false
    }
    const created = await send("POST", "/v1/checkouts", body)
    expect(created.status).toBe(201)
    const { priceId: _, allowedPaymentMethods: __, ...settings } = body
    expect((await created.json()).settings).toEqual(settings)
  })

  it("refuses free installments beyond the maximum (the stored one on an update), and order bumps it cannot sell", async () => {
    const refused = async (method: string, path: string, body: unknown, status: number, code: string) => {
      const response = await send(method, path, body)
      const answer = await response.json()
      expect([response.status, answer.error.code], JSON.stringify(body)).toEqual([status, code])
      return answer.error
    }
    const tooMany = await refused("POST", "/v1/checkouts", { priceId, allowedPaymentMethods: ["creditcard"], maxInstallments: 3, freeInstallments: 4 }, 400, "INVALID_DATA")
    expect(tooMany.details).toEqual({ field: "freeInstallments" })
    const link = await (await send("POST", "/v1/checkouts", { priceId, allowedPaymentMethods: ["creditcard"], maxInstallments: 3 })).json()
    expect((await refused("PUT", `/v1/checkouts/${link.id}`, { freeInstallments: 5 }, 400, "INVALID_DATA")).details).toEqual({ field: "freeInstallments" })
    expect((await (await call(`/v1/checkouts/${link.id}`)).json()).settings).toEqual({ maxInstallments: 3 })
    await refused("POST", "/v1/checkouts", { priceId, allowedPaymentMethods: ["pix"], orderBumps: [{ priceId: "SANDBOX_price_nope", label: "x" }] }, 404, "PRICE_NOT_FOUND")
    expect((await refused("POST", "/v1/checkouts", { priceId, allowedPaymentMethods: ["pix"], orderBumps: [{ priceId, label: "o mesmo" }] }, 400, "INVALID_DATA")).details)
      .toEqual({ field: "orderBumps[0].priceId" })
    expect((await refused("POST", "/v1/checkouts", { product: productId, allowedPaymentMethods: ["pix"], orderBumps: [{ priceId, label: "x" }] }, 400, "INVALID_DATA")).details)
      .toEqual({ field: "orderBumps" })
  })

  it("documents the link's settings in the OpenAPI document", async () => {
    const document = await (await fetch(`${engine.baseUrl}/v1/openapi.json`)).json()
    const schemas = document.components.schemas
    const input = schemas.CheckoutLinkInput
    const text = JSON.stringify(input)
    for (const name of ["checkoutName", "primaryColor", "successUrl", "redirectAfterPaymentUrl", "maxInstallments", "freeInstallments", "passFeesToCustomer", "orderBumps"]) {
      expect(text, name).toContain(`"${name}"`)
    }
    expect(schemas.HexColor.description).toContain("#RRGGBB")
    expect(schemas.PageUrl.description).toContain("https")
    expect(JSON.stringify(schemas.OrderBump)).toContain("checkbox")
  })
})

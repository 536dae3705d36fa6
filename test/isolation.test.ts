/**
 * Tenant isolation on every route that names a resource: another account's
 * charge, customer, product, coupon, checkout link or session, webhook,
 * delivery or fiscal configuration answers exactly as a resource that does not exist (404), on every
 * method, and is left as it was. Through real HTTP on PostgreSQL.
 */
import { AllScopes } from "@billing/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestPki, MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"

type Json = { readonly [key: string]: any }

describe("tenant isolation on every route with an id", () => {
  let engine: TestEngine
  const as = (token: string) => ({ authorization: `Bearer ${token}`, "content-type": "application/json" })
  let owner: Record<string, string>
  let intruder: Record<string, string>
  const send = (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
    fetch(`${engine.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const snapshot = () =>
    engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ row: string }>`SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) AS row FROM (
        SELECT id, status, updated_at::text AS u FROM charges UNION ALL SELECT id, status, updated_at::text FROM customers
        UNION ALL SELECT id, status, updated_at::text FROM products UNION ALL SELECT id, status, updated_at::text FROM coupons
        UNION ALL SELECT id, status, updated_at::text FROM checkout_links UNION ALL SELECT id, status, url FROM webhooks
        UNION ALL SELECT id, settings, updated_at::text FROM nfse_configs) t`))

  beforeAll(async () => {
    engine = await startEngine("postgres")
    owner = as(await engine.token(await engine.createAccount({ name: "Dona", scopes: [...AllScopes] })))
    intruder = as(await engine.token(await engine.createAccount({ name: "Intrusa", scopes: [...AllScopes] })))
  })
  afterAll(() => engine?.dispose())

  it("answers 404 to another account's ids on every method and changes nothing", async () => {
    const created = async (path: string, body: unknown) => (await (await send(owner, "POST", path, body)).json()) as Json
    const buyer = { name: "Ana", email: "ana@example.com", documentNumber: "52998224725" }
    const charge = await created("/v1/charges/pix", { amount: 10 })
    const customer = await created("/v1/customers", { name: "Ana", document: "52998224725" })
    const product = await created("/v1/products", { name: "Plano", type: "ONE_TIME", prices: [{ amount: 10 }] })
    const coupon = await created("/v1/coupons", { code: "DONA10", name: "Dona", discountType: "FIXED", discountValue: 1 })
    const link = await created("/v1/checkouts", { priceId: product.prices[0].priceId, allowedPaymentMethods: ["pix"] })
    const session = await created("/v1/checkout-sessions", { priceId: product.prices[0].priceId, customer: buyer })
    const webhook = await created("/v1/users/webhooks", { url: "http://127.0.0.1:9/hooks" })
    const pki = makeTestPki()
    const nfConfig = await created("/v1/invoices/notas/config", {
      item_lista_servico: "01.07",
      aliquota_iss: 2,
      prestador: { cnpj: MERCHANT_CNPJ, codigo_municipio: "3550308", codigo_opcao_simples_nacional: 2, regime_especial_tributacao: 0 },
      certificate: { pfx_base64: pki.client.pfx.toString("base64"), password: pki.passphrase }
    })
    expect([charge.chargeId, customer.customerId, product.productId, coupon.couponId, link.id, session.id, webhook.webhookId, nfConfig.id].every(Boolean)).toBe(true)

    const probes: ReadonlyArray<readonly [string, string, unknown?]> = [
      ["GET", `/v1/charges/${charge.chargeId}`],
      ["GET", `/v1/charges/${charge.chargeId}/status`],
      ["DELETE", `/v1/charges/${charge.chargeId}`],
      ["POST", `/v1/charges/${charge.chargeId}/archive`],
      ["POST", `/v1/wallet/pay/${charge.chargeId}`],
      ["GET", `/v1/customers/${customer.customerId}`],
      ["PATCH", `/v1/customers/${customer.customerId}`, { name: "Outra" }],
      ["PUT", `/v1/customers/${customer.customerId}`, { name: "Outra" }],
      ["DELETE", `/v1/customers/${customer.customerId}`],
      ["GET", `/v1/products/${product.productId}`],
      ["PUT", `/v1/products/${product.productId}`, { name: "Outro" }],
      ["DELETE", `/v1/products/${product.productId}`],
      ["POST", `/v1/products/${product.productId}/archive`],
      ["GET", `/v1/coupons/${coupon.couponId}`],
      ["PUT", `/v1/coupons/${coupon.couponId}`, { name: "Outro" }],
      ["PATCH", `/v1/coupons/${coupon.couponId}`, { name: "Outro" }],
      ["PATCH", `/v1/coupons/${coupon.couponId}/status`, { status: "PAUSED" }],
      ["DELETE", `/v1/coupons/${coupon.couponId}`],
      ["GET", `/v1/checkouts/${link.id}`],
      ["PUT", `/v1/checkouts/${link.id}`, { status: "INACTIVE" }],
      ["GET", `/v1/checkout-sessions/${session.id}`],
      ["GET", `/v1/users/webhooks/${webhook.webhookId}`],
      ["PUT", `/v1/users/webhooks/${webhook.webhookId}`, { url: "http://127.0.0.1:9/other" }],
      ["DELETE", `/v1/users/webhooks/${webhook.webhookId}`],
      ["GET", `/v1/invoices/notas/config/${nfConfig.id}`],
      ["PUT", `/v1/invoices/notas/config/${nfConfig.id}`, { enabled: false }],
      ["POST", "/v1/invoices/notas/config", { id: nfConfig.id, enabled: false }],
      ["DELETE", `/v1/invoices/notas/config/${nfConfig.id}`]
    ]
    const before = await snapshot()
    for (const [method, path, body] of probes) {
      const response = await send(intruder, method, path, body)
      const text = await response.text()
      expect(response.status, `${method} ${path} → ${text}`).toBe(404)
      expect(JSON.parse(text).error.code, `${method} ${path}`).toMatch(/NOT_FOUND$/)
    }
    expect(await snapshot()).toEqual(before)
    // The owner still reaches every one of them.
    for (const path of [`/v1/charges/${charge.chargeId}`, `/v1/customers/${customer.customerId}`, `/v1/products/${product.productId}`, `/v1/invoices/notas/config/${nfConfig.id}`]) {
      expect((await send(owner, "GET", path)).status, path).toBe(200)
    }
  })
})

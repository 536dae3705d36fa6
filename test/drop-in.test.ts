/**
 * The real provider's existing clients work unchanged: they send `null` for
 * "not set" in any optional field, and `installments: 1` on a Pix or boleto
 * charge. Through real HTTP on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("drop-in for the provider's clients", () => {
  let engine: TestEngine
  let auth: Record<string, string>
  const post = (path: string, body: unknown) =>
    fetch(`${engine.baseUrl}${path}`, { method: "POST", body: JSON.stringify(body), headers: { ...auth, "content-type": "application/json" } })
  const buyer = { name: "Maria Silva", email: "maria@example.com", documentNumber: "52998224725", phone: null, cep: null, metadata: null, address: null }

  beforeAll(async () => {
    engine = await startEngine("postgres")
    auth = { authorization: `Bearer ${await engine.token(await engine.createAccount({ name: "Loja Cliente" }))}` }
  })
  afterAll(() => engine?.dispose())

  it("takes null as absent in every optional field of a Pix charge", async () => {
    const response = await post("/v1/charges/pix", {
      amount: 10,
      paymentMethod: null,
      expiration: null,
      externalTxid: null,
      externalId: null,
      metadata: null,
      customer: { documentNumber: null, name: null, cep: null, phone: null, email: null },
      split: null,
      nfConfigId: null,
      installments: null
    })
    const text = await response.text()
    expect(response.status, text).toBe(200)
    expect(JSON.parse(text)).not.toHaveProperty("metadata")
  })

  it("takes null as absent on the transparent checkout, and installments 1 on Pix and boleto", async () => {
    const nulls = {
      items: null,
      productId: null,
      card: null,
      paymentMethodId: null,
      tokenId: null,
      freeInstallments: null,
      passFeesToCustomer: null,
      externalId: null,
      externalTxid: null,
      description: null,
      couponCode: null,
      split: null,
      discounts: null,
      allowedPaymentMethods: null,
      dueDate: null,
      expirationAfterDueDate: null,
      boletoDueDays: null,
      boletoInstructions: null,
      expiration: null,
      billingDay: null,
      nfConfigId: null,
      notifications: null
    }
    const pix = await post("/v1/charges", { paymentMethod: "pix", amount: 12, customer: buyer, installments: 1, ...nulls })
    expect(pix.status, await pix.clone().text()).toBe(200)
    expect((await pix.json()).pix.emv).toMatch(/^000201/)
    const address = { street: "Rua A", number: "10", complement: null, neighborhood: "Centro", city: "São Paulo", state: "SP", zipCode: "01001000", cityCode: null }
    const boleto = await post("/v1/charges", { paymentMethod: "boleto", amount: 30, customer: { ...buyer, address }, ...nulls, installments: 1 })
    expect(boleto.status, await boleto.clone().text()).toBe(200)
    const refused = await post("/v1/charges", { paymentMethod: "pix", amount: 12, customer: buyer, installments: 3 })
    expect(refused.status).toBe(400)
    expect(JSON.stringify((await refused.json()).error.details)).toContain("installments")
  })

  it("takes null as absent on customers, products, coupons, checkout links and webhooks", async () => {
    const customer = await post("/v1/customers", { name: "João", document: "11144477735", email: null, phone: null, address: null, upsert: null })
    expect(customer.status, await customer.clone().text()).toBe(200)
    const product = await post("/v1/products", {
      name: "Plano",
      type: "ONE_TIME",
      nfConfigId: null,
      prices: [{ priceId: null, title: null, amount: 9.9, recurrenceType: null, recurrenceInterval: null, trialDays: null, statementDescriptor: null, isActive: null }]
    })
    expect(product.status, await product.clone().text()).toBe(201)
    const { prices } = await product.json()
    const coupon = await post("/v1/coupons", { code: "NULO10", name: "Nulo", discountType: "PERCENTAGE", discountValue: 10, productIds: null, firstTimeOnly: null, status: null })
    expect(coupon.status, await coupon.clone().text()).toBe(201)
    const link = await post("/v1/checkouts", { priceId: prices[0].priceId, product: null, allowedPaymentMethods: ["pix"], status: null })
    expect(link.status, await link.clone().text()).toBe(201)
    const webhook = await post("/v1/users/webhooks", { url: "http://127.0.0.1:9/hooks", events: null, secret: null, authToken: null })
    expect(webhook.status, await webhook.clone().text()).toBe(201)
  })

  it("deletes a customer with customers/write as well as customers/delete", async () => {
    const account = await engine.createAccount({ name: "Loja Escopo" })
    const writer = { authorization: `Bearer ${await engine.token(account, "customers/write")}`, "content-type": "application/json" }
    const created = await fetch(`${engine.baseUrl}/v1/customers`, { method: "POST", headers: writer, body: JSON.stringify({ name: "Ana", document: "52998224725" }) })
    const { customerId } = await created.json()
    const removed = await fetch(`${engine.baseUrl}/v1/customers/${customerId}`, { method: "DELETE", headers: writer })
    expect(removed.status).toBe(200)
    const reader = { authorization: `Bearer ${await engine.token(account, "customers/read")}` }
    expect((await fetch(`${engine.baseUrl}/v1/customers/${customerId}`, { method: "DELETE", headers: reader })).status).toBe(401)
  })

  it("accepts the alphanumeric CNPJ on customers and on the checkout's buyer", async () => {
    const customer = await post("/v1/customers", { name: "Empresa Nova", document: "12.ABC.345/01DE-35" })
    expect(customer.status, await customer.clone().text()).toBe(200)
    expect((await customer.json()).document).toBe("12ABC34501DE35")
    const checkout = await post("/v1/charges", { paymentMethod: "pix", amount: 15, customer: { ...buyer, documentNumber: "12ABC34501DE35" } })
    expect(checkout.status, await checkout.clone().text()).toBe(200)
    expect((await checkout.json()).customerId).toBe((await (await fetch(`${engine.baseUrl}/v1/customers?lookupDocument=12ABC34501DE35`, { headers: auth })).json()).customer.customerId)
  })
})

/**
 * The real provider's existing clients work unchanged: they send `null` for
 * "not set" in any optional field, and `installments: 1` on a Pix or boleto
 * charge. Through real HTTP on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cardExpiration } from "./support/Cards.ts"
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

  it("answers the provider's own routes as aliases of the same use cases", async () => {
    const headers = { ...auth, "content-type": "application/json" }
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${engine.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    // PUT /v1/customers/{id}: the PATCH rules (document fixed, other fields change).
    const { customerId } = await (await send("POST", "/v1/customers", { name: "Bia", document: "11144477735" })).json()
    const put = await send("PUT", `/v1/customers/${customerId}`, { name: "Beatriz", email: "bia@example.com" })
    expect(await put.json()).toMatchObject({ customerId, name: "Beatriz", email: "bia@example.com" })
    expect((await (await send("PUT", `/v1/customers/${customerId}`, { document: "52998224725" })).json()).error.code).toBe("DOCUMENT_UPDATE_NOT_ALLOWED")
    // PATCH /v1/coupons/{id}: fields or status.
    const coupon = await (await send("POST", "/v1/coupons", { code: "ALIAS5", name: "Alias", discountType: "FIXED", discountValue: 5 })).json()
    expect(await (await send("PATCH", `/v1/coupons/${coupon.couponId}`, { name: "Alias novo" })).json()).toMatchObject({ name: "Alias novo", status: "ACTIVE" })
    expect(await (await send("PATCH", `/v1/coupons/${coupon.couponId}`, { status: "PAUSED" })).json()).toMatchObject({ status: "PAUSED" })
    // POST /v1/payment-methods/tokenize.
    const card = { number: "4111111111111111", cvv: "123", name: "MARIA SILVA", expiration: cardExpiration() }
    const tokenized = await send("POST", "/v1/payment-methods/tokenize", { card })
    expect(tokenized.status).toBe(201)
    expect((await tokenized.json()).paymentMethodId).toMatch(/pm_/)
    // POST /v1/checkouts/session, 200 as the provider answers it.
    const product = await (await send("POST", "/v1/products", { name: "Curso", type: "ONE_TIME", prices: [{ amount: 50 }] })).json()
    const session = await send("POST", "/v1/checkouts/session", { priceId: product.prices[0].priceId, allowedPaymentMethods: ["pix"] })
    expect(session.status).toBe(200)
    expect((await session.json()).id).toMatch(/cs_/)
    // POST /v1/users/webhooks/events/{id}/retry: same 404 as the spec's path for an unknown delivery.
    const retry = await send("POST", "/v1/users/webhooks/events/whe_unknown/retry")
    expect(retry.status).toBe(404)
    expect((await retry.json()).error.code).toBe("WEBHOOK_EVENT_NOT_FOUND")
  })

  it("validates a coupon only among the named merchant's coupons, by body, header, token or path, and answers 200 to any body", async () => {
    const publicPost = (path: string, body: string, extra: Record<string, string> = {}) =>
      fetch(`${engine.baseUrl}${path}`, { method: "POST", body, headers: { "content-type": "application/json", ...extra } }).then(async (r) => [r.status, await r.json()] as const)
    const accountA = await engine.createAccount({ name: "Loja A" })
    const accountB = await engine.createAccount({ name: "Loja B" })
    const create = async (account: typeof accountA, status: string) => {
      const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
      const body = JSON.stringify({ code: "IGUAL10", name: "Igual", discountType: "PERCENTAGE", discountValue: 10, status })
      expect((await fetch(`${engine.baseUrl}/v1/coupons`, { method: "POST", headers, body })).status).toBe(201)
    }
    await create(accountA, "ACTIVE")
    await create(accountB, "PAUSED")
    const [, ofA] = await publicPost("/v1/coupons/validate", JSON.stringify({ code: "IGUAL10", accountNumber: accountA.accountNumber }))
    expect(ofA).toMatchObject({ valid: true })
    const [, ofB] = await publicPost("/v1/coupons/validate", JSON.stringify({ code: "IGUAL10" }), { "x-account-number": accountB.accountNumber })
    expect(ofB).toEqual({ valid: false, reason: "COUPON_INACTIVE" })
    const [, byPath] = await publicPost(`/v1/coupons/IGUAL10/validate`, JSON.stringify({ accountNumber: accountA.accountNumber }))
    expect(byPath).toMatchObject({ valid: true, coupon: { code: "IGUAL10" } })
    const [, nobody] = await publicPost("/v1/coupons/validate", JSON.stringify({ code: "IGUAL10" }))
    expect(nobody).toEqual({ valid: false, reason: "COUPON_NOT_FOUND" })
    expect(await publicPost("/v1/coupons/validate", "{not json")).toEqual([200, { valid: false, reason: "COUPON_NOT_FOUND" }])
  })

  it("filters GET /v1/charges by every filter it documents, and refuses an unknown status", async () => {
    const account = await engine.createAccount({ name: "Loja Filtros" })
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${engine.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const pix = await Promise.all([10, 20, 30].map(async (amount) => (await (await send("POST", "/v1/charges/pix", { amount })).json()).chargeId as string))
    await send("DELETE", `/v1/charges/${pix[0]}`)
    const card = { number: "4111111111111111", cvv: "123", name: "ANA", expiration: cardExpiration() }
    const paid = await (await send("POST", "/v1/charges", {
      paymentMethod: "creditcard",
      amount: 40,
      card,
      customer: { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725" }
    })).json()
    const ids = async (query: string) => {
      const response = await send("GET", `/v1/charges?${query}`)
      expect(response.status, query).toBe(200)
      return ((await response.json()).data as Array<{ chargeId: string }>).map((c) => c.chargeId).sort()
    }
    expect(await ids("status=CANCELED")).toEqual([pix[0]])
    expect(await ids("status=PAID")).toEqual([paid.chargeId])
    expect(await ids("paymentType=PIX")).toEqual([...pix].sort())
    expect(await ids("paymentMethod=creditcard")).toEqual([paid.chargeId])
    expect(await ids("paymentMethod=CREDIT_CARD")).toEqual([paid.chargeId])
    expect(await ids("document=529.982.247-25")).toEqual([paid.chargeId])
    expect(await ids("search=ana%40example")).toEqual([paid.chargeId])
    expect(await ids(`subaccountId=${account.accountId}`)).toHaveLength(4)
    expect(await ids("limit=1")).toHaveLength(1)
    expect(await ids("perPage=2&page=2")).toHaveLength(2)
    expect(await ids("startDate=2999-01-01T00:00:00Z")).toEqual([])
    for (const bad of ["status=PAYED", "paymentMethod=cash", "limit=0", "document=123"]) {
      const response = await send("GET", `/v1/charges?${bad}`)
      expect(response.status, bad).toBe(400)
      expect((await response.json()).error.code).toBe("INVALID_DATA")
    }
  })

  it("answers where the spec is silent as the provider does: ltv, deleted, success, newPrices", async () => {
    const account = await engine.createAccount({ name: "Loja Formas" })
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${engine.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).then((r) => r.json())
    const card = { number: "4111111111111111", cvv: "123", name: "ANA", expiration: cardExpiration() }
    const buyer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725" }
    const first = await send("POST", "/v1/charges", { paymentMethod: "creditcard", amount: 40.1, card, customer: buyer })
    await send("POST", "/v1/charges", { paymentMethod: "creditcard", amount: 9.9, card, customer: buyer })
    await send("POST", "/v1/charges", { paymentMethod: "pix", amount: 100, customer: buyer })
    // Two paid card charges: 40.10 + 9.90; the pending Pix does not count.
    expect((await send("GET", `/v1/customers/${first.customerId}`)).ltv).toBe(50)
    const product = await send("POST", "/v1/products", { name: "Plano", type: "ONE_TIME", prices: [{ amount: 10 }] })
    const updated = await send("PUT", `/v1/products/${product.productId}`, { prices: [{ amount: 20, title: "Novo" }] })
    expect(updated.prices).toHaveLength(2)
    expect(updated.newPrices.map((p: { title: string; amount: number }) => [p.title, p.amount])).toEqual([["Novo", 20]])
    expect(await send("DELETE", `/v1/products/${product.productId}`)).toMatchObject({ deleted: true, productId: product.productId })
    const coupon = await send("POST", "/v1/coupons", { code: "TCHAU", name: "Tchau", discountType: "FIXED", discountValue: 1 })
    expect(await send("DELETE", `/v1/coupons/${coupon.couponId}`)).toMatchObject({ success: true, couponId: coupon.couponId })
  })

  it("creates one-off charges on the provider's POST /v1/charges/single: Pix with expiration in seconds, boleto, card", async () => {
    const customer = { name: "Maria Souza", email: "maria@example.com", documentNumber: "12345678909", phone: "48991234567" }
    const pix = await post("/v1/charges/single", { paymentMethod: "pix", amount: 150, title: "Consultoria mensal", expiration: 3600, customer, metadata: { referencia: "contrato-123" } })
    expect(pix.status, await pix.clone().text()).toBe(200)
    const pixBody = await pix.json()
    expect(Object.keys(pixBody).sort()).toEqual(["chargeId", "emv", "qrCode"])
    const detail = await (await fetch(`${engine.baseUrl}/v1/charges/${pixBody.chargeId}?view=detail`, { headers: auth })).json()
    // Payable for exactly the hour asked, and described by its title.
    expect(Date.parse(detail.expiresAt) - Date.parse(detail.createdAt)).toBe(3_600_000)
    expect(detail.description).toBe("Consultoria mensal")
    expect(detail.customer.phone).toBe("+5548991234567")

    const address = { street: "Rua A", number: "10", neighborhood: "Centro", city: "Florianópolis", state: "SC", zipCode: "88010000" }
    const boleto = await post("/v1/charges/single", {
      paymentMethod: "boleto",
      amount: 150,
      title: "Consultoria",
      dueDate: "2099-07-31",
      customer: { ...customer, address },
      boletoInstructions: { fine: 2, interest: 1, discount: { amount: 5, modality: "fixed", limitDate: "2099-07-30" } }
    })
    expect(boleto.status, await boleto.clone().text()).toBe(200)
    expect((await boleto.json()).boleto).toMatchObject({ dueDate: "2099-07-31", pdfUrl: expect.stringMatching(/\/boleto\.pdf$/) })

    const card = await post("/v1/charges/single", {
      paymentMethod: "creditcard",
      amount: 199.9,
      title: "Plano anual",
      installments: 3,
      card: { number: "4111111111111111", cvv: "123", name: "MARIA SOUZA", expiration: cardExpiration() },
      customer
    })
    expect(card.status, await card.clone().text()).toBe(200)
    expect(await card.json()).toMatchObject({ status: "PAID", paymentType: "CREDIT_CARD", installments: 3 })

    const untitled = await post("/v1/charges/single", { paymentMethod: "pix", amount: 10, customer })
    expect(untitled.status).toBe(400)
    expect(JSON.stringify((await untitled.json()).error.details)).toContain("title")
  })

  it("creates a Pix on POST /v1/charges/single from paymentMethod, amount and title alone; boleto and card still need the customer", async () => {
    const pix = await post("/v1/charges/single", { paymentMethod: "pix", amount: 25, title: "Doação", externalId: "doacao-1" })
    expect(pix.status, await pix.clone().text()).toBe(200)
    const body = await pix.json()
    expect(Object.keys(body).sort()).toEqual(["chargeId", "emv", "qrCode"])
    expect(body.emv).toMatch(/^000201/)
    const detail = await (await fetch(`${engine.baseUrl}/v1/charges/${body.chargeId}?view=detail`, { headers: auth })).json()
    // No buyer recorded; described by its title; payable for the 24 hours of a Pix without expiration.
    expect(detail).toMatchObject({ amount: 25, status: "PENDING", paymentType: "PIX", description: "Doação", customer: null })
    expect(Date.parse(detail.expiresAt) - Date.parse(detail.createdAt)).toBe(86_400_000)
    // The same externalId is the same charge, as with a customer.
    const again = await post("/v1/charges/single", { paymentMethod: "pix", amount: 25, title: "Doação", externalId: "doacao-1", customer: null })
    expect(again.status).toBe(409)
    expect((await again.json()).error).toMatchObject({ code: "DUPLICATE_CHARGE", details: { chargeId: body.chargeId } })

    const card = { number: "4111111111111111", cvv: "123", name: "MARIA SOUZA", expiration: cardExpiration() }
    for (const refused of [{ paymentMethod: "boleto", dueDate: "2099-07-31" }, { paymentMethod: "creditcard", card }]) {
      const response = await post("/v1/charges/single", { ...refused, amount: 25, title: "Sem comprador" })
      expect(response.status, refused.paymentMethod).toBe(400)
      expect((await response.json()).error).toMatchObject({ code: "INVALID_DATA", details: { field: "customer" } })
    }
  })
})

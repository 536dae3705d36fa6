/**
 * The transparent checkout `POST /v1/charges` for one-time payments through
 * real HTTP on PostgreSQL (boleto in boleto.test.ts): Pix and card (the spec's sandbox card table row by
 * row, the 402 body), amount, items or product, discounts, coupon,
 * idempotency by `externalId` under concurrency, and card tokenization.
 */
import { isValidPixPayload } from "@brazilian-utils/brazilian-utils"
import { SandboxMailbox } from "@billing/core"
import { chargesPass } from "@billing/worker"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { cardExpiration } from "./support/Cards.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"

describe("transparent checkout on postgres", () => {
  let engine: TestEngine
  let headers: Record<string, string>
  const post = (path: string, body: unknown, as = headers) =>
    fetch(`${engine.baseUrl}${path}`, { method: "POST", headers: as, body: JSON.stringify(body) })
  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", phone: "+5511987654321" }
  const card = (number: string) => ({ number, cvv: "123", name: "ANA SOUZA", expiration: cardExpiration() })

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount()
    headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
  })
  afterAll(() => engine?.dispose())

  it("charges a Pix with amount: pix.emv and pix.qrCode nested, the customer created or matched by document", async () => {
    const response = await post("/v1/charges", { paymentMethod: "pix", amount: 49.9, customer, metadata: { orderId: "not stored" } })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ success: true, status: "pending", chargeId: expect.stringMatching(/^SANDBOX_cha_/), customerId: expect.stringMatching(/^SANDBOX_cus_/) })
    expect(isValidPixPayload(body.pix.emv)).toBe(true)
    expect(body.pix.qrCode).toMatch(/^data:image\/png;base64,/)
    const again = await (await post("/v1/charges", { paymentMethod: "pix", amount: 10, customer: { ...customer, name: "Ana S." } })).json()
    expect(again.customerId).toBe(body.customerId)
    const detail = await (await fetch(`${engine.baseUrl}/v1/charges/${body.chargeId}?view=detail`, { headers })).json()
    expect(detail).toMatchObject({ amount: 49.9, metadata: null, paymentType: "PIX" })
  })

  it("follows the sandbox card table row by row, with the 402 body for refusals", async () => {
    const rows: Array<[string, string | null]> = [
      ["4111111111111111", null],
      ["4000000000000002", "card_declined"],
      ["4000000000000004", "insufficient_funds"],
      ["4000000000000006", "expired_card"],
      ["4000000000000008", "invalid_cvv"],
      ["4000000000000010", "fraud_suspected"],
      ["5555666677778888", null]
    ]
    for (const [number, refusal] of rows) {
      const response = await post("/v1/charges", { paymentMethod: "creditcard", amount: 100, customer, card: card(number) })
      const body = await response.json()
      if (refusal === null) {
        expect(response.status, number).toBe(200)
        expect(body).toEqual({ success: true, customerId: expect.any(String), chargeId: expect.any(String), status: "paid" })
        const view = await (await fetch(`${engine.baseUrl}/v1/charges/${body.chargeId}`, { headers })).json()
        expect(view).toMatchObject({ status: "PAID", paymentType: "CREDIT_CARD" })
      } else {
        expect(response.status, number).toBe(402)
        expect(body).toEqual({ success: false, chargeId: expect.any(String), status: "failed", error: refusal })
        const view = await (await fetch(`${engine.baseUrl}/v1/charges/${body.chargeId}`, { headers })).json()
        expect(view.status).toBe("FAILED")
      }
    }
    // The card number and CVV are not stored anywhere.
    const dump = await sql((s) => s<{ row: string }>`SELECT row_to_json(c)::text AS row FROM charges c`)
    for (const { row } of dump) {
      expect(row).not.toContain("4111111111111111")
      expect(row).not.toContain("5555666677778888")
    }
  })

  it("answers MISSING_CARD_DATA, refuses split on card and bad card fields", async () => {
    const missing = await post("/v1/charges", { paymentMethod: "creditcard", amount: 10, customer })
    expect(missing.status).toBe(400)
    expect((await missing.json()).error.code).toBe("MISSING_CARD_DATA")
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ card: { ...card("4111111111111111"), cvv: "12" } }, "card.cvv"],
      [{ card: { ...card("4111"), number: "4111" } }, "card.number"],
      [{ card: { ...card("4111111111111111"), expiration: "01/2020" } }, "card.expiration"],
      [{ card: card("4111111111111111"), installments: 13 }, "installments"],
      [{ card: card("4111111111111111"), split: [{ type: "fixed", amount: 1, accountNumber: "1" }] }, "split"],
      // The engine's own stored references (a card kept on file) are never a client's token.
      [{ tokenId: "mp:cof:123456-abc:9876543210:visa" }, "tokenId"]
    ]
    for (const [extra, field] of cases) {
      const response = await post("/v1/charges", { paymentMethod: "creditcard", amount: 10, customer, ...extra })
      const text = await response.text()
      expect(response.status, `${JSON.stringify(extra)} → ${text}`).toBe(400)
      expect(JSON.parse(text).error.code).toBe("INVALID_DATA")
      expect(text).toContain(field)
    }
  })

  it("charges installments with the surcharge passed to the buyer beyond the free ones", async () => {
    // 300.00 in 3x with fees passed: 2 × 1.99% = 3.98% → 11.94; total 311.94.
    const response = await post("/v1/charges", {
      paymentMethod: "creditcard", amount: 300, customer, card: card("4111111111111111"), installments: 3, passFeesToCustomer: true
    })
    const { chargeId } = await response.json()
    const view = await (await fetch(`${engine.baseUrl}/v1/charges/${chargeId}`, { headers })).json()
    expect(view.amount).toBe(311.94)
  })

  it("tokenizes a card into a pm_ id that charges like the card it came from", async () => {
    const tokenized = await post("/v1/payment-methods", { card: card("4000000000000004") })
    expect(tokenized.status).toBe(201)
    const pm = await tokenized.json()
    expect(pm).toMatchObject({ paymentMethodId: expect.stringMatching(/^SANDBOX_pm_/), brand: "visa", firstSix: "400000", lastFour: "0004" })
    const refused = await post("/v1/charges", { paymentMethod: "creditcard", amount: 10, customer, paymentMethodId: pm.paymentMethodId })
    expect(refused.status).toBe(402)
    expect((await refused.json()).error).toBe("insufficient_funds")
    const good = await (await post("/v1/payment-methods", { card: card("4111111111111111") })).json()
    const paid = await post("/v1/charges", { paymentMethod: "creditcard", amount: 10, customer, paymentMethodId: good.paymentMethodId })
    expect((await paid.json()).status).toBe("paid")
    const stored = await sql((s) => s<{ row: string }>`SELECT row_to_json(p)::text AS row FROM payment_methods p`)
    for (const { row } of stored) {
      expect(row).not.toContain("4111111111111111")
      expect(row).not.toContain('"123"')
    }
  })

  it("prices items and products, applies discounts and a coupon; recurring prices start a subscription", async () => {
    const catalog = async (body: unknown) => (await post("/v1/products", body)).json()
    const course = await catalog({ name: "Curso", type: "ONE_TIME", prices: [{ amount: 120 }] })
    const ebook = await catalog({ name: "E-book", type: "ONE_TIME", prices: [{ amount: 30 }] })
    const plan = await catalog({ name: "Plano", type: "RECURRING", prices: [{ amount: 50, recurrenceType: "MONTHLY" }] })
    await post("/v1/coupons", { code: "DEZ", name: "Dez", discountType: "FIXED", discountValue: 10 })
    // 120.00 + 2 × 30.00 = 180.00; 10% pix discount → 162.00; coupon 10.00 → 152.00.
    const response = await post("/v1/charges", {
      paymentMethod: "pix",
      customer,
      items: [{ priceId: course.prices[0].priceId }, { priceId: ebook.prices[0].priceId, quantity: 2, isOrderBump: true }],
      discounts: [{ type: "PERCENTAGE", value: 10, paymentMethod: "pix" }, { type: "fixed", amount: 5, method: "boleto" }],
      couponCode: "DEZ"
    })
    expect(response.status).toBe(200)
    const { chargeId } = await response.json()
    expect((await (await fetch(`${engine.baseUrl}/v1/charges/${chargeId}`, { headers })).json()).amount).toBe(152)
    const coupon = (await (await fetch(`${engine.baseUrl}/v1/coupons?search=DEZ`, { headers })).json()).items[0]
    expect(coupon.currentRedemptions).toBe(1)

    const byProduct = await (await post("/v1/charges", { paymentMethod: "pix", customer, productId: course.productId })).json()
    expect((await (await fetch(`${engine.baseUrl}/v1/charges/${byProduct.chargeId}`, { headers })).json()).amount).toBe(120)

    const recurring = await post("/v1/charges", { paymentMethod: "pix", customer, items: [{ priceId: plan.prices[0].priceId }] })
    expect(recurring.status).toBe(200)
    expect(await recurring.json()).toMatchObject({ subscriptionId: expect.stringMatching(/^SANDBOX_sub_/), status: "pending" })
    const unknown = await post("/v1/charges", { paymentMethod: "pix", customer, items: [{ priceId: "SANDBOX_price_nope" }] })
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.code).toBe("PRICE_NOT_FOUND")
    const both = await post("/v1/charges", { paymentMethod: "pix", customer, amount: 10, productId: course.productId })
    expect((await both.json()).error.code).toBe("INVALID_DATA")
    const badCoupon = await post("/v1/charges", { paymentMethod: "pix", customer, amount: 10, couponCode: "NOPE" })
    expect((await badCoupon.json()).error).toMatchObject({ code: "INVALID_DATA", details: { reason: "COUPON_NOT_FOUND" } })
  })

  it("is idempotent by externalId: 100 simultaneous requests create exactly one charge; repeats answer 409 with its id", async () => {
    const request = { paymentMethod: "pix", amount: 15, customer, externalId: "pedido-concorrente-1" }
    const responses = await Promise.all(Array.from({ length: 100 }, () => post("/v1/charges", request)))
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(99)
    const created = await responses[statuses.indexOf(200)]!.json()
    const duplicate = await responses[statuses.indexOf(409)]!.json()
    expect(duplicate.error).toMatchObject({ code: "DUPLICATE_CHARGE", details: { chargeId: created.chargeId } })
    const rows = await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM charges WHERE external_id = 'pedido-concorrente-1'`)
    expect(rows[0]!.n).toBe("1")
    // A card repeat never reaches the acquirer twice either.
    const first = await post("/v1/charges", { paymentMethod: "creditcard", amount: 20, customer, card: card("4111111111111111"), externalId: "card-1" })
    const second = await post("/v1/charges", { paymentMethod: "creditcard", amount: 20, customer, card: card("4111111111111111"), externalId: "card-1" })
    expect(first.status).toBe(200)
    expect(second.status).toBe(409)
  })

  it("records the e-mails asked in notifications and the worker sends them through the mailer", async () => {
    // A new buyer: an existing document would keep the e-mail it was registered with.
    const buyer = { ...customer, documentNumber: "11144477735", email: "comprador@example.com" }
    const pix = await (await post("/v1/charges", { paymentMethod: "pix", amount: 12, customer: buyer, notifications: ["oneoff.pix.generated", "oneoff.payment.success"] })).json()
    const silent = await (await post("/v1/charges", { paymentMethod: "pix", amount: 13, customer: buyer })).json()
    const refused = await post("/v1/charges", { paymentMethod: "creditcard", amount: 14, customer: buyer, card: card("4000000000000002"), notifications: ["oneoff.payment.failed"] })
    expect(refused.status).toBe(402)
    const bad = await post("/v1/charges", { paymentMethod: "pix", amount: 12, customer: buyer, notifications: ["sms.everything"] })
    expect((await bad.json()).error).toMatchObject({ code: "INVALID_DATA", details: { field: "notifications" } })
    await fetch(`${engine.baseUrl}/v1/wallet/pay/${pix.chargeId}`, { method: "POST", headers })
    await engine.run(chargesPass())
    const mailbox = await engine.run(Effect.map(SandboxMailbox, (m) => m.messages.filter((x) => x.to === "comprador@example.com")))
    expect(mailbox.map((m) => m.subject)).toEqual(["Seu Pix de R$ 12,00", "Pagamento não aprovado", "Pagamento de R$ 12,00 confirmado"])
    expect(mailbox[0]!.body).toContain(pix.pix.emv)
    expect(mailbox.some((m) => m.body.includes(silent.chargeId))).toBe(false)

    // `new.sale` goes to the merchant's e-mail.
    const merchant = await engine.createAccount({ name: "Loja com e-mail", email: "vendas@loja.example.com" })
    const merchantHeaders = { authorization: `Bearer ${await engine.token(merchant)}`, "content-type": "application/json" }
    const sale = await post("/v1/charges", { paymentMethod: "creditcard", amount: 99, customer: buyer, card: card("4111111111111111"), notifications: ["new.sale"] }, merchantHeaders)
    expect(sale.status).toBe(200)
    await engine.run(chargesPass())
    const notices = await engine.run(Effect.map(SandboxMailbox, (m) => m.messages.filter((x) => x.to === "vendas@loja.example.com")))
    expect(notices.map((m) => m.subject)).toEqual(["Nova venda de R$ 99,00"])
  })

  it("never redeems a coupon beyond maxRedemptions under 30 concurrent checkouts", async () => {
    await post("/v1/coupons", { code: "TRES", name: "Tres", discountType: "FIXED", discountValue: 1, maxRedemptions: 3 })
    const responses = await Promise.all(Array.from({ length: 30 }, () => post("/v1/charges", { paymentMethod: "pix", amount: 10, customer, couponCode: "TRES" })))
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3)
    const refused = await Promise.all(responses.filter((r) => r.status !== 200).map((r) => r.json()))
    for (const body of refused) expect(body.error.details.reason).toMatch(/^COUPON_(EXHAUSTED)$/)
    const coupon = (await (await fetch(`${engine.baseUrl}/v1/coupons?search=TRES`, { headers })).json()).items[0]
    expect(coupon.currentRedemptions).toBe(3)
  })

  it("makes a Pix with due date from expiration, and refuses a past one", async () => {
    const tomorrow = new Date(Date.now() + 86_400_000 - 3 * 3_600_000).toISOString().slice(0, 10)
    const ok = await (await post("/v1/charges", { paymentMethod: "pix", amount: 10, customer, expiration: tomorrow })).json()
    const detail = await (await fetch(`${engine.baseUrl}/v1/charges/${ok.chargeId}?view=detail`, { headers })).json()
    expect(detail.pix.dueDate).toBe(tomorrow)
    const past = await post("/v1/charges", { paymentMethod: "pix", amount: 10, customer, expiration: "2020-01-01" })
    expect((await past.json()).error).toMatchObject({ code: "INVALID_DATA", details: { field: "expiration" } })
  })

  it("refuses expirationAfterDueDate outside 0 to 60 and billingDay outside 1 to 31 rather than clamping them", async () => {
    // 2099-01-10 + 60 days = 2099-03-11 (21 days to Jan 31, 28 of February, 11 of March); payable to its last instant in São Paulo.
    const longest = await (await post("/v1/charges", { paymentMethod: "pix", amount: 10, customer, expiration: "2099-01-10", expirationAfterDueDate: 60 })).json()
    const detail = await (await fetch(`${engine.baseUrl}/v1/charges/${longest.chargeId}?view=detail`, { headers })).json()
    expect(detail.expiresAt).toBe("2099-03-12T02:59:59.999Z")
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ expiration: "2099-01-10", expirationAfterDueDate: 61 }, "expirationAfterDueDate"],
      [{ expiration: "2099-01-10", expirationAfterDueDate: -1 }, "expirationAfterDueDate"],
      [{ billingDay: 0 }, "billingDay"],
      [{ billingDay: 32 }, "billingDay"]
    ]
    for (const [extra, field] of cases) {
      const response = await post("/v1/charges", { paymentMethod: "pix", amount: 10, customer, ...extra })
      const text = await response.text()
      expect(response.status, `${JSON.stringify(extra)} → ${text}`).toBe(400)
      expect(JSON.parse(text).error).toMatchObject({ code: "INVALID_DATA", details: [{ field }] })
    }
  })

  it("requires customer.address with nfConfigId", async () => {
    const response = await post("/v1/charges", { paymentMethod: "pix", amount: 10, customer, nfConfigId: "nfc_x" })
    expect((await response.json()).error).toMatchObject({ code: "INVALID_DATA", details: { field: "customer.address" } })
  })

  it("refuses a boleto without the buyer's address, and Pix Automático on a PF account", async () => {
    const boleto = await post("/v1/charges", { paymentMethod: "boleto", amount: 10, customer })
    expect((await boleto.json()).error).toMatchObject({ code: "INVALID_DATA", details: { field: "customer.address" } })
    const pf = await engine.createAccount({ name: "Pessoa", document: "11144477735" })
    const pfHeaders = { authorization: `Bearer ${await engine.token(pf)}`, "content-type": "application/json" }
    const automatic = await post("/v1/charges", { paymentMethod: "pix_automatico", amount: 10, customer }, pfHeaders)
    expect(automatic.status).toBe(400)
    expect((await automatic.json()).error.code).toBe("PIX_AUTOMATICO_PJ_ONLY")
  })

  it("enrolls Pix Automático on an internal account with a CPF, while a merchant's PF account is still refused", async () => {
    const open = async (internal: boolean) => {
      const account = await engine.createAccount({ name: internal ? "Operação" : "Pessoa", document: "39053344705", internal })
      const as = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
      const prices = [{ title: "Mensal", amount: 29.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 }]
      const product = await (await post("/v1/products", { name: "Plano", type: "RECURRING", prices }, as)).json()
      return { as, priceId: product.prices[0].priceId as string }
    }
    const internal = await open(true)
    const enrolled = await post("/v1/charges", { paymentMethod: "pix_automatico", customer, items: [{ priceId: internal.priceId }] }, internal.as)
    expect(enrolled.status, await enrolled.clone().text()).toBe(200)
    expect(await enrolled.json()).toMatchObject({ success: true, status: "pending", subscriptionId: expect.any(String), pix: { recurrencyId: expect.any(String) } })
    const merchant = await open(false)
    const refused = await post("/v1/charges", { paymentMethod: "pix_automatico", customer, items: [{ priceId: merchant.priceId }] }, merchant.as)
    expect(refused.status).toBe(400)
    expect((await refused.json()).error.code).toBe("PIX_AUTOMATICO_PJ_ONLY")
  })
})

/**
 * Pix charges through real HTTP on PostgreSQL: creation rules and errors,
 * the read routes, list, cancel, archive, sandbox payment with its signed
 * webhook, expiry, and the pay-versus-expire race.
 */
import { isValidPixPayload } from "@brazilian-utils/brazilian-utils"
import { Billing, verifyWebhookSignature } from "@billing/core"
import { chargesPass, deliveryPass } from "@billing/worker"
import { Effect, Result } from "effect"
import { SqlClient } from "effect/sql"
import jsQRModule from "jsqr"
import { hasError, parsePix } from "pix-utils"
import { PNG } from "pngjs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseBrCode } from "../packages/core/src/brazil/PixBrCode.ts"
import { saoPauloDate } from "../packages/core/src/brazil/BankCalendar.ts"
import { addDays } from "../packages/core/src/brazil/CalendarDate.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { startReceiver } from "./support/Receiver.ts"

const jsQR = jsQRModule as unknown as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null
type Account = Awaited<ReturnType<TestEngine["createAccount"]>>

const decodeQr = (dataUrl: string) => {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64"))
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}

describe("Pix charges on postgres", () => {
  let engine: TestEngine
  let master: Account
  let seller: Account
  let otherMaster: Account
  let auth: Record<string, string>

  const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
    engine.run(Effect.flatMap(SqlClient.SqlClient, f))
  const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}, as = auth) =>
    fetch(`${engine.baseUrl}${path}`, { ...init, headers: { ...as, "content-type": "application/json", ...init.headers } })
  const create = (body: unknown, headers: Record<string, string> = {}, as = auth) =>
    call("/v1/charges/pix", { method: "POST", body: JSON.stringify(body), headers }, as)
  const countCharges = () => sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM charges`).then((r) => Number(r[0]!.n))

  beforeAll(async () => {
    engine = await startEngine("postgres")
    master = await engine.createAccount({ name: "Loja Matriz", document: "11444777000161" })
    seller = await engine.createAccount({ name: "Vendedor", document: "52998224725", parentId: master.accountId })
    otherMaster = await engine.createAccount({ name: "Outra Loja", document: "11222333000181" })
    auth = { authorization: `Bearer ${await engine.token(master)}` }
  })
  afterAll(() => engine?.dispose())

  it("creates a Pix charge whose EMV independent parsers accept and whose QR PNG decodes to it", async () => {
    const response = await create({ amount: 10.5, metadata: { orderId: "pedido-123" }, title: "ignored field" })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.chargeId).toMatch(/^SANDBOX_cha_/)
    expect(body.metadata).toEqual({ orderId: "pedido-123" })
    expect(isValidPixPayload(body.emv)).toBe(true)
    const theirs = parsePix(body.emv)
    expect(hasError(theirs)).toBe(false)
    if (!hasError(theirs) && theirs.type === "STATIC") expect(theirs.transactionAmount).toBe(10.5)
    const ours = Result.getOrThrow(parseBrCode(body.emv))
    expect(ours.amountCents).toBe(1050)
    expect(ours.merchantName).toBe("Loja Matriz")
    expect(ours.txid).toMatch(/^[A-Za-z0-9]{25}$/)
    expect(body.qrCode.startsWith("data:image/png;base64,")).toBe(true)
    expect(decodeQr(body.qrCode)).toBe(body.emv)
  })

  it("accepts and discards externalId: two equal calls create two charges", async () => {
    const request = { amount: 5, externalId: "pedido-999" }
    const a = await (await create(request)).json()
    const b = await (await create(request)).json()
    expect(a.chargeId).not.toBe(b.chargeId)
    expect(a.metadata).toBeUndefined()
  })

  it("answers bad input with 400 INVALID_DATA naming the field, and stores nothing", async () => {
    const today = saoPauloDate(Date.now())
    const cases: Array<[unknown, string]> = [
      [{}, "amount"],
      [{ amount: 0 }, "amount"],
      [{ amount: 10.005 }, "amount"],
      [{ amount: "dez" }, "amount"],
      [{ amount: -1 }, "amount"],
      [{ amount: 10, paymentMethod: "boleto" }, "paymentMethod"],
      [{ amount: 10, expiration: addDays(today, -1) }, "expiration"],
      [{ amount: 10, expiration: "2026-02-30" }, "expiration"],
      [{ amount: 10, externalTxid: "x".repeat(101) }, "externalTxid"],
      [{ amount: 10, metadata: "not an object" }, "metadata"],
      [{ amount: 10, customer: { name: "Fulano" } }, "customer.name"],
      [{ amount: 10, customer: { cep: "01310100" } }, "customer.cep"],
      [{ amount: 10, expiration: today, customer: { documentNumber: "52998224725", name: "Fulano" } }, "customer.cep"],
      [{ amount: 10, customer: { documentNumber: "12345678900" } }, "customer.documentNumber"],
      [{ amount: 10, customer: { phone: "11975896541" } }, "customer.phone"],
      [{ amount: 10, customer: { email: "not-an-email" } }, "customer.email"],
      [{ amount: 10, split: [{ type: "percentage", amount: 10 }] }, "split[0].accountNumber"],
      [{ amount: 10, split: [{ type: "fixed", amount: 1, accountNumber: "999999" }] }, "split[0].accountNumber"],
      [{ amount: 10, split: [{ type: "fixed", amount: 0, accountNumber: seller.accountNumber }] }, "split[0].amount"],
      [{ amount: 10, split: [{ type: "percentage", amount: 101, accountNumber: seller.accountNumber }] }, "split[0].amount"],
      [{ amount: 10, split: [{ type: "share", amount: 1, accountNumber: seller.accountNumber }] }, "split[0].type"],
      [{ amount: 100, split: Array.from({ length: 21 }, () => ({ type: "fixed", amount: 0.01, accountNumber: seller.accountNumber })) }, "split"]
    ]
    const before = await countCharges()
    for (const [body, field] of cases) {
      const response = await create(body)
      const text = await response.text()
      expect(response.status, `${JSON.stringify(body)} → ${text}`).toBe(400)
      const error = JSON.parse(text).error
      expect(error.code).toBe("INVALID_DATA")
      expect(JSON.stringify(error.details)).toContain(field)
    }
    expect(await countCharges()).toBe(before)
  })

  it("makes a Pix with due date from expiration, requiring document, name and cep together", async () => {
    const today = saoPauloDate(Date.now())
    const response = await create({
      amount: 99.9,
      expiration: today,
      customer: { documentNumber: "529.982.247-25", name: "Maria Silva", cep: "01310-100", email: "maria@example.com", phone: "+5511987654321" }
    })
    expect(response.status).toBe(200)
    const { chargeId } = await response.json()
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    expect(detail.pix.dueDate).toBe(today)
    // End of the due date in São Paulo (UTC-3).
    expect(detail.expiresAt).toBe(new Date(Date.parse(`${addDays(today, 1)}T03:00:00.000Z`) - 1).toISOString())
    expect(detail.customer).toEqual({ name: "Maria Silva", documentNumber: "52998224725", email: "maria@example.com", phone: "+5511987654321" })
    expect(detail.address).toMatchObject({ zipCode: "01310100" })
    expect(detail.boleto).toBeNull()
  })

  it("splits the net amount to sub-accounts and refuses parts above it with SPLIT_EXCEEDS_NET_AMOUNT", async () => {
    // Master charge of 100.00 with no fee: 12.5% → 12.50 and 10.00 fixed to the seller; the master keeps 77.50.
    const ok = await create({
      amount: 100,
      split: [
        { type: "percentage", amount: 12.5, accountNumber: seller.accountNumber },
        { type: "fixed", amount: 10, accountNumber: seller.accountNumber }
      ]
    })
    expect(ok.status).toBe(200)
    const detail = await (await call(`/v1/charges/${(await ok.json()).chargeId}?view=detail`)).json()
    expect(detail.split).toEqual([
      { accountNumber: seller.accountNumber, type: "percentage", percentage: 12.5, amount: 12.5 },
      { accountNumber: seller.accountNumber, type: "fixed", percentage: null, amount: 10 }
    ])
    expect(detail.netAmount).toBe(100)

    const before = await countCharges()
    const tooMuch = await create({ amount: 10, split: [{ type: "fixed", amount: 10.01, accountNumber: seller.accountNumber }] })
    expect(tooMuch.status).toBe(400)
    expect((await tooMuch.json()).error.code).toBe("SPLIT_EXCEEDS_NET_AMOUNT")
    expect(await countCharges()).toBe(before)
  })

  it("charges a seller through X-Sub-Account with the sub-account Pix fee, splitting to the master without accountNumber", async () => {
    // Sub-account without fees of its own or of its master: 0.67 per Pix. Net 10.00 − 0.67 = 9.33;
    // 50% to the master = 4.66 (rounded down); the seller keeps 4.67.
    const response = await create({ amount: 10, split: [{ type: "percentage", amount: 50 }] }, { "x-sub-account": seller.accountNumber })
    expect(response.status).toBe(200)
    const { chargeId } = await response.json()
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`, { headers: { "x-sub-account": seller.accountNumber } })).json()
    expect(detail).toMatchObject({ grossAmount: 10, netAmount: 9.33, fees: { total: 0.67, fixed: 0.67, percentageRate: 0 } })
    expect(detail.split).toEqual([{ accountNumber: master.accountNumber, type: "percentage", percentage: 50, amount: 4.66 }])
    const view = await (await call(`/v1/charges/${chargeId}`)).json()
    expect(view.masterAccointId).toBe(master.accountId)
    expect(view.subaccountId).toBe(seller.accountId)

    const tooMuch = await create({ amount: 10, split: [{ type: "fixed", amount: 9.34 }] }, { "x-sub-account": seller.accountNumber })
    expect((await tooMuch.json()).error.code).toBe("SPLIT_EXCEEDS_NET_AMOUNT")
    const unknownSeller = await create({ amount: 10 }, { "x-sub-account": "000000" })
    expect(unknownSeller.status).toBe(404)
    expect((await unknownSeller.json()).error.code).toBe("NOT_FOUND")
  })

  it("shows the status view, the detail and the lean status with the spec's field names", async () => {
    const { chargeId, emv } = await (await create({ amount: 1.99 })).json()
    const view = await (await call(`/v1/charges/${chargeId}`)).json()
    expect(Object.keys(view).sort()).toEqual(["amount", "chargeId", "createdAt", "emv", "masterAccointId", "paidAt", "paymentType", "status", "subaccountId"])
    expect(view).toMatchObject({ chargeId, status: "PENDING", amount: 1.99, paymentType: "PIX", emv, paidAt: null })
    const lean = await (await call(`/v1/charges/${chargeId}/status`)).json()
    expect(Object.keys(lean).sort()).toEqual(["amount", "chargeId", "expiresAt", "paidAt", "status", "updatedAt"])
    const raw = await (await call(`/v1/charges/${chargeId}`)).text()
    expect(raw).toContain('"amount":1.99')
    const two = await (await create({ amount: 2 })).json()
    expect(await (await call(`/v1/charges/${two.chargeId}/status`)).text()).toContain('"amount":2.00')
  })

  it("answers 404 CHARGE_NOT_FOUND for a charge of another account on every route, and 400 MISSING_CHARGE_ID", async () => {
    const { chargeId } = await (await create({ amount: 3 })).json()
    const other = { authorization: `Bearer ${await engine.token(otherMaster)}` }
    const routes: Array<[string, string]> = [
      ["GET", `/v1/charges/${chargeId}`],
      ["GET", `/v1/charges/${chargeId}/status`],
      ["DELETE", `/v1/charges/${chargeId}`],
      ["POST", `/v1/charges/${chargeId}/archive`],
      ["POST", `/v1/wallet/pay/${chargeId}`]
    ]
    for (const [method, path] of routes) {
      const theirs = await call(path, { method }, other)
      expect(theirs.status, `${method} ${path}`).toBe(404)
      expect((await theirs.json()).error.code).toBe("CHARGE_NOT_FOUND")
      const missing = await call(path.replace(chargeId, "SANDBOX_cha_doesnotexist"), { method })
      expect((await missing.json()).error.code).toBe("CHARGE_NOT_FOUND")
    }
    const blank = await call("/v1/charges/%20")
    expect(blank.status).toBe(400)
    expect((await blank.json()).error.code).toBe("MISSING_CHARGE_ID")
  })

  it("cancels an open charge once, then archives it; refuses the other transitions", async () => {
    const { chargeId } = await (await create({ amount: 4 })).json()
    const notYet = await call(`/v1/charges/${chargeId}/archive`, { method: "POST" })
    expect(notYet.status).toBe(400)
    expect((await notYet.json()).error.code).toBe("CHARGE_NOT_ARCHIVABLE")

    const canceled = await call(`/v1/charges/${chargeId}`, { method: "DELETE" })
    expect(canceled.status).toBe(200)
    expect(await canceled.json()).toEqual({ message: "Cobrança cancelada com sucesso", chargeId })
    const view = await (await call(`/v1/charges/${chargeId}`)).json()
    expect(view).toMatchObject({ status: "CANCELED", emv: null })
    const again = await call(`/v1/charges/${chargeId}`, { method: "DELETE" })
    expect((await again.json()).error.code).toBe("CHARGE_NOT_CANCELABLE")

    const archived = await call(`/v1/charges/${chargeId}/archive`, { method: "POST" })
    expect(archived.status).toBe(200)
    expect(await archived.json()).toMatchObject({ chargeId, status: "ARCHIVED" })
    const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
    expect(detail.status).toBe("ARCHIVED")
    expect(detail.canceledAt).not.toBeNull()
    const pay = await call(`/v1/wallet/pay/${chargeId}`, { method: "POST" })
    expect((await pay.json()).error.code).toBe("CHARGE_NOT_PAYABLE")
  })

  it("lists charges with the spec's envelope, pagination and date filter, for the master and for a seller", async () => {
    const fresh = await engine.createAccount({ name: "Lista", document: "45723174000110" })
    const freshAuth = { authorization: `Bearer ${await engine.token(fresh)}` }
    const freshSeller = await engine.createAccount({ name: "Vend", document: "11144477735", parentId: fresh.accountId })
    for (let i = 0; i < 4; i++) await create({ amount: 1 + i }, {}, freshAuth)
    await create({ amount: 9 }, { "x-sub-account": freshSeller.accountNumber }, freshAuth)
    const page1 = await (await call("/v1/charges?perPage=2&page=1", {}, freshAuth)).json()
    expect(page1).toMatchObject({ totalItems: 5, totalPages: 3, page: 1, limit: 2, dateFrom: null, dateTo: null })
    expect(page1.data).toHaveLength(2)
    expect(Object.keys(page1.data[0]).sort()).toEqual(
      ["amount", "attempts", "chargeId", "createdAt", "emvQrCode", "masterAccountId", "paymentType", "status", "subAccountId", "updatedAt"]
    )
    const page3 = await (await call("/v1/charges?perPage=2&page=3", {}, freshAuth)).json()
    expect(page3.data).toHaveLength(1)
    const defaultLimit = await (await call("/v1/charges", {}, freshAuth)).json()
    expect(defaultLimit.limit).toBe(15)
    const sellerOnly = await (await call("/v1/charges", { headers: { "x-sub-account": freshSeller.accountNumber } }, freshAuth)).json()
    expect(sellerOnly.totalItems).toBe(1)
    expect(sellerOnly.data[0].subAccountId).toBe(freshSeller.accountId)
    const future = new Date(Date.now() + 3_600_000).toISOString()
    const none = await (await call(`/v1/charges?dateFrom=${encodeURIComponent(future)}`, {}, freshAuth)).json()
    expect(none).toMatchObject({ totalItems: 0, dateFrom: future })
    const bad = await call("/v1/charges?dateFrom=yesterday", {}, freshAuth)
    expect((await bad.json()).error.code).toBe("INVALID_DATA")
    const badPage = await call("/v1/charges?page=0", {}, freshAuth)
    expect((await badPage.json()).error.code).toBe("INVALID_DATA")
    const noScope = await call("/v1/charges", {}, { authorization: `Bearer ${await engine.token(fresh, "pix.cob/read")}` })
    expect(noScope.status).toBe(401)
    expect(await noScope.json()).toEqual({ message: "TOKEN EXPIRADO OU INVALIDO" })
  })

  it("sandbox payment: PROCESSING at once, then PAID with a signed payment.success carrying the metadata", async () => {
    const receiver = await startReceiver()
    try {
      const hook = await (await call("/v1/users/webhooks", { method: "POST", body: JSON.stringify({ url: receiver.url, events: ["payment.success"] }) })).json()
      const { chargeId } = await (await create({ amount: 25, metadata: { orderId: "A-1", items: 2 } })).json()
      const pay = await call(`/v1/wallet/pay/${chargeId}`, { method: "POST" })
      expect(pay.status).toBe(200)
      expect((await pay.json()).status).toBe("PROCESSING")
      expect((await (await call(`/v1/charges/${chargeId}/status`)).json()).status).toBe("PROCESSING")

      await engine.run(chargesPass())
      await engine.run(deliveryPass())
      const view = await (await call(`/v1/charges/${chargeId}`)).json()
      expect(view.status).toBe("PAID")
      expect(view.paidAt).not.toBeNull()
      const lean = await (await call(`/v1/charges/${chargeId}/status`)).json()
      expect(lean).toMatchObject({ status: "PAID", paidAt: view.paidAt })

      const delivered = receiver.received.find((r) => JSON.parse(r.body).chargeId === chargeId)!
      expect(await verifyWebhookSignature({ header: delivered.headers["x-webhook-signature"] as string, body: delivered.body, secret: hook.secret }))
        .toMatchObject({ valid: true })
      expect(delivered.body).toContain('"amount":25.00')
      const event = JSON.parse(delivered.body)
      expect(event).toMatchObject({
        event: "payment.success",
        accountId: master.accountId,
        chargeId,
        amount: 25,
        paymentMethod: "PIX",
        paidAt: view.paidAt,
        metadata: { orderId: "A-1", items: 2 },
        payer: { name: expect.any(String), taxId: expect.any(String), bank: expect.any(String), account: expect.any(String), branch: expect.any(String), accountType: "CACC" }
      })
      expect(event.paymentId).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/)
      const detail = await (await call(`/v1/charges/${chargeId}?view=detail`)).json()
      expect(detail.pix.endToEndId).toBe(event.paymentId)

      const twice = await call(`/v1/wallet/pay/${chargeId}`, { method: "POST" })
      expect(twice.status).toBe(400)
      expect((await twice.json()).error.code).toBe("CHARGE_NOT_PAYABLE")
    } finally {
      await receiver.close()
    }
  })

  it("refuses sandbox payment on a production account with NOT_SANDBOX_ACCOUNT", async () => {
    const production = await engine.createAccount({ name: "Producao", document: "07526557000100", sandbox: false })
    const prodAuth = { authorization: `Bearer ${await engine.token(production)}` }
    // A production account has no charge to pay until a provider is configured (PROVIDER_NOT_CONFIGURED);
    // the sandbox payment is refused before any charge is looked up.
    const refused = await create({ amount: 7 }, {}, prodAuth)
    expect(refused.status).toBe(503)
    const pay = await call("/v1/wallet/pay/cha_0000000000000000000000", { method: "POST" }, prodAuth)
    expect(pay.status).toBe(400)
    expect((await pay.json()).error.code).toBe("NOT_SANDBOX_ACCOUNT")
  })

  it("expires open charges past their deadline and emits charge.expired once", async () => {
    const { chargeId } = await (await create({ amount: 6 })).json()
    await sql((s) => s`UPDATE charges SET expires_at = now() - interval '1 second' WHERE id = ${chargeId}`)
    await engine.run(chargesPass())
    await engine.run(chargesPass())
    expect((await (await call(`/v1/charges/${chargeId}`)).json()).status).toBe("EXPIRED")
    const events = await sql((s) => s<{ event: string; body: string }>`SELECT event, body FROM outbox WHERE body LIKE ${`%${chargeId}%`}`)
    expect(events.map((e) => e.event)).toEqual(["charge.expired"])
    expect(JSON.parse(events[0]!.body)).toMatchObject({ chargeId, status: "EXPIRED", amount: 6 })
    const pay = await call(`/v1/wallet/pay/${chargeId}`, { method: "POST" })
    expect((await pay.json()).error.code).toBe("CHARGE_NOT_PAYABLE")
  })

  it("50 concurrent pay-versus-expire races: each charge ends PAID or EXPIRED with exactly one event", async () => {
    const ids: Array<string> = []
    for (let i = 0; i < 50; i++) {
      const { chargeId } = await (await create({ amount: `1.${String(i).padStart(2, "0")}` })).json()
      expect((await call(`/v1/wallet/pay/${chargeId}`, { method: "POST" })).status).toBe(200)
      ids.push(chargeId)
    }
    await sql((s) => s`UPDATE charges SET expires_at = now() - interval '1 second' WHERE id IN ${s.in(ids)}`)
    // Confirmations and expiries run at the same time, in small batches, on separate connections.
    await Promise.all([
      engine.run(Effect.gen(function*() { while ((yield* Billing.confirmSandboxPayments(3)) > 0) { /* drain */ } })),
      engine.run(Effect.gen(function*() { while ((yield* Billing.expireDueCharges(3)) > 0) { /* drain */ } })),
      engine.run(Effect.gen(function*() { while ((yield* Billing.confirmSandboxPayments(5)) > 0) { /* drain */ } })),
      engine.run(Effect.gen(function*() { while ((yield* Billing.expireDueCharges(5)) > 0) { /* drain */ } }))
    ])
    const rows = await sql((s) => s<{ id: string; status: string }>`SELECT id, status FROM charges WHERE id IN ${s.in(ids)}`)
    const events = await sql((s) => s<{ event: string; body: string }>`SELECT event, body FROM outbox WHERE event IN ('payment.success', 'charge.expired')`)
    const byCharge = new Map<string, Array<string>>()
    for (const e of events) {
      const id = JSON.parse(e.body).chargeId as string
      if (ids.includes(id)) byCharge.set(id, [...(byCharge.get(id) ?? []), e.event])
    }
    for (const row of rows) {
      expect(["PAID", "EXPIRED"]).toContain(row.status)
      expect(byCharge.get(row.id)).toEqual([row.status === "PAID" ? "payment.success" : "charge.expired"])
    }
    expect(rows).toHaveLength(50)
  })
})

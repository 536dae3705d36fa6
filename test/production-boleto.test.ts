/**
 * A production account takes boletos through Banco Inter, end to end through
 * real HTTP on PostgreSQL, against the fake Inter of the providers' tests
 * (mutual TLS, OAuth2, every request checked against the fields of Inter's
 * SDKs, books in memory): the boleto is registered with its payer and grace
 * days, and the charge answers the bank's digitable line and barcode; the
 * bank's callback (`POST /psp/boleto/{secret}`) is confirmed at the bank
 * and pays the charge once, `payment.success` signed and delivered once
 * whether the callback or the poll comes first; more than the amount pays
 * it, less does not; a canceled boleto and an expired one are written off
 * at the bank, and a bank that cannot be asked changes nothing; a cancel of
 * a boleto the bank says was paid is refused and records the payment. A
 * sandbox account in the same engine never reaches the bank.
 *
 * The bank's callbacks come to a second server on the same database, built
 * with the routes `billing serve` mounts, as a second process would.
 */
import { HttpServerLive } from "@billing/adapters-http"
import { Billing, Brazil, Certificates, verifyWebhookSignature } from "@billing/core"
import {
  BoletoCallbackLive,
  boletoCallbackSecret,
  PixCallbackLive,
  pollBoletoPayments,
  type ProvidersConfig,
  registerBoletoCallback,
  seuNumeroOf,
  WRITE_OFF_REASON
} from "@billing/providers"
import { deliveryPass } from "@billing/worker"
import boletoValidator from "boleto-brasileiro-validator"
import { Effect, Layer, ManagedRuntime, Redacted, References, Result } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { EngineLive } from "../packages/cli/src/Engine.ts"
import { FAKE_INTER_CLIENT_ID, FAKE_INTER_CLIENT_SECRET, type FakeInterBank, startFakeInterBank } from "../packages/providers/test/support/FakeInterBank.ts"
import { type FakePsp, startFakePsp } from "../packages/providers/test/support/FakePsp.ts"
import { fakePspEntry } from "../packages/providers/test/support/FakePspEntry.ts"
import { makeTestPki, MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { serverBaseUrl, startEngine, type TestEngine } from "./support/Engine.ts"
import { type Received, startReceiver } from "./support/Receiver.ts"

const ACCOUNT = "7654321"
const PUBLIC_URL = "https://billing.example.test"
const address = { street: "Av. Paulista", number: "1000", complement: "conj. 42", neighborhood: "Bela Vista", city: "São Paulo", state: "SP", zipCode: "01310-100" }
const customer = { name: "Ana Souza", email: "ana@example.com", documentNumber: "52998224725", address }
const today = () => Brazil.saoPauloDate(Date.now())

describe("production boletos through Banco Inter", () => {
  const pki = makeTestPki()
  let psp: FakePsp
  let bank: FakeInterBank
  let engine: TestEngine
  let callbacks: { readonly runtime: ManagedRuntime.ManagedRuntime<any, any>; readonly baseUrl: string }
  let providers: ProvidersConfig

  beforeAll(async () => {
    psp = await startFakePsp(pki, { profile: "bcb", pixKey: MERCHANT_CNPJ })
    bank = await startFakeInterBank(pki, { contaCorrente: ACCOUNT })
    providers = {
      publicUrl: PUBLIC_URL,
      pix: [fakePspEntry(pki, psp, { name: "fake-bcb", profile: "bcb" })],
      boleto: {
        provider: "inter",
        clientId: FAKE_INTER_CLIENT_ID,
        clientSecret: Redacted.make(FAKE_INTER_CLIENT_SECRET),
        certificate: Result.getOrThrow(Certificates.fromPem(pki.client.certPem, pki.client.keyPem)),
        ca: pki.caPem,
        contaCorrente: ACCOUNT,
        baseUrl: bank.baseUrl
      }
    }
    engine = await startEngine("postgres", { providers })
    const runtime = ManagedRuntime.make(
      HttpServerLive({ port: 0, host: "127.0.0.1", routes: Layer.mergeAll(PixCallbackLive, BoletoCallbackLive) }).pipe(
        Layer.provideMerge(EngineLive(engine.config, { providers, migrate: false })),
        Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, "Error"))
      )
    )
    callbacks = { runtime, baseUrl: await serverBaseUrl(runtime) }
  })
  afterAll(async () => {
    await callbacks?.runtime.dispose()
    await engine?.dispose()
    await bank?.close()
    await psp?.close()
  })
  // The engine kept Inter's published fields in every request of every test.
  afterEach(() => expect(bank.violations.splice(0)).toEqual([]))

  const merchant = async (sandbox = false) => {
    const account = await engine.createAccount({ sandbox })
    const headers = { authorization: `Bearer ${await engine.token(account)}`, "content-type": "application/json" }
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${engine.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      return { status: response.status, body: await response.json() as any }
    }
    const boleto = (body: Record<string, unknown> = {}) => call("POST", "/v1/charges", { paymentMethod: "boleto", customer, amount: 150.75, boletoDueDays: 5, ...body })
    const charge = async (chargeId: string) => (await call("GET", `/v1/charges/${chargeId}?view=detail`)).body
    const hook = async () => {
      const receiver = await startReceiver()
      const { secret } = (await call("POST", "/v1/users/webhooks", { url: receiver.url, events: ["payment.success"] })).body
      return { receiver, secret: secret as string }
    }
    return { account, call, boleto, charge, hook }
  }
  /** The charge's cobrança at the fake bank (one per charge, by our reference). */
  const cobrancaOf = (chargeId: string) => {
    const found = bank.cobrancasOf(seuNumeroOf(chargeId))
    expect(found).toHaveLength(1)
    return found[0]!
  }
  const postCallback = (secret: string, items: unknown) =>
    fetch(`${callbacks.baseUrl}/psp/boleto/${secret}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(items) })
  const deliveredFor = (received: ReadonlyArray<Received>, chargeId: string) => received.filter((r) => JSON.parse(r.body).chargeId === chargeId)
  const sql = <A extends object>(query: string) => engine.run(Effect.flatMap(SqlClient.SqlClient, (s) => s.unsafe<A>(query)))

  it("registers the boleto at Inter with the payer and the grace days, and answers the bank's line and barcode", async () => {
    const { boleto, charge } = await merchant()
    const created = await boleto({ expirationAfterDueDate: 3 })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const { chargeId } = created.body
    const stored = cobrancaOf(chargeId)
    // The body Inter received: our reference, the amount and due date asked, the buyer as the charge records them.
    const dueDate = Brazil.addDays(today(), 5)
    expect(stored.request).toEqual({
      seuNumero: chargeId.replace(/[^A-Za-z0-9]/g, "").slice(-15),
      valorNominal: 150.75,
      dataVencimento: dueDate,
      numDiasAgenda: 3,
      pagador: {
        cpfCnpj: "52998224725",
        tipoPessoa: "FISICA",
        nome: "Ana Souza",
        endereco: "Av. Paulista",
        numero: "1000",
        complemento: "conj. 42",
        bairro: "Bela Vista",
        cidade: "São Paulo",
        uf: "SP",
        cep: "01310100",
        email: "ana@example.com"
      }
    })
    // The codes are the bank's own, and independent validators take them.
    expect(created.body.boleto).toMatchObject({ digitableLine: stored.linhaDigitavel, barCode: stored.codigoBarras, dueDate })
    expect(boletoValidator.boletoBancario(stored.linhaDigitavel, true)).toBe(true)
    expect(boletoValidator.boletoBancario(stored.codigoBarras, true)).toBe(true)
    const detail = await charge(chargeId)
    expect(detail).toMatchObject({ status: "PENDING", paymentType: "BOLETO", boleto: { bankCode: "077", ourNumber: stored.nossoNumero, digitableLine: stored.linhaDigitavel } })
    // The bank's Pix on the boleto is kept with the charge's boleto.
    const [row] = await sql<{ boleto: string }>(`SELECT boleto FROM charges WHERE id = '${chargeId}'`)
    expect(JSON.parse(row!.boleto).pixCopiaECola).toBe(stored.pixCopiaECola)
  })

  it("answers the bank's refusal as 400 INVALID_DATA naming the bank, and an outage as 502; neither records a charge", async () => {
    const { boleto, call } = await merchant()
    const before = bank.registrations()
    // Inter takes no boleto under R$ 2,50.
    const refused = await boleto({ amount: 2 })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({ code: "INVALID_DATA", details: { provider: "boleto", reason: expect.stringContaining("valorNominal") } })
    // The engine's one retry meets the bank down too.
    bank.force("list", { kind: "status", status: 503 }, { kind: "status", status: 503 })
    const down = await boleto()
    expect(down.status).toBe(502)
    expect(down.body.error.code).toBe("PROVIDER_UNAVAILABLE")
    expect(bank.registrations()).toBe(before)
    expect((await call("GET", "/v1/charges")).body.totalItems).toBe(0)
  })

  it("pays a boleto by the bank's callback once, confirmed at the bank, with payment.success delivered once even when the poll sees it after", async () => {
    const { boleto, charge, hook } = await merchant()
    const { receiver, secret: signing } = await hook()
    const { chargeId } = (await boleto()).body
    const stored = cobrancaOf(chargeId)
    const items = bank.pay(stored.nossoNumero, today())
    const secret = await engine.run(boletoCallbackSecret)

    expect((await postCallback("0".repeat(secret.length), items)).status).toBe(404)
    expect((await postCallback(secret, { not: "a list" })).status).toBe(400)
    expect((await charge(chargeId)).status).toBe("PENDING")

    const asked = bank.calls.length
    expect((await postCallback(secret, items)).status).toBe(200)
    // The notice was checked at the bank before it was believed.
    expect(bank.calls.slice(asked).some((c) => c.method === "GET")).toBe(true)
    // The bank repeats its callback: nothing moves twice, and the bank is not asked again.
    const repeated = bank.calls.length
    expect((await postCallback(secret, items)).status).toBe(200)
    expect(bank.calls.length).toBe(repeated)
    const paid = await charge(chargeId)
    expect(paid.status).toBe("PAID")
    expect(paid.amount).toBe(150.75)

    // The poll lists it too: a repeat, not a second payment.
    const report = await engine.run(pollBoletoPayments())
    expect(report).toMatchObject({ asked: true, unreachable: null, outcomes: { confirmed: 0, duplicate: 1 } })

    await engine.run(deliveryPass())
    const deliveries = deliveredFor(receiver.received, chargeId)
    expect(deliveries).toHaveLength(1)
    const delivered = deliveries[0]!
    expect(await verifyWebhookSignature({ header: delivered.headers["x-webhook-signature"] as string, body: delivered.body, secret: signing })).toMatchObject({ valid: true })
    expect(JSON.parse(delivered.body)).toMatchObject({ event: "payment.success", chargeId, paymentMethod: "BOLETO" })
    await receiver.close()
  })

  it("pays a boleto by the poll when the callback comes after it, payment.success delivered once", async () => {
    const { boleto, charge, hook } = await merchant()
    const { receiver } = await hook()
    const { chargeId } = (await boleto({ amount: 80 })).body
    const items = bank.pay(cobrancaOf(chargeId).nossoNumero, today())
    expect((await engine.run(pollBoletoPayments())).outcomes.confirmed).toBe(1)
    expect((await charge(chargeId)).status).toBe("PAID")
    expect((await postCallback(await engine.run(boletoCallbackSecret), items)).status).toBe(200)
    await engine.run(deliveryPass())
    expect(deliveredFor(receiver.received, chargeId)).toHaveLength(1)
    await receiver.close()
  })

  it("confirms a boleto paid with interest at the charge's amount, and leaves one paid short open", async () => {
    const { boleto, charge } = await merchant()
    const more = (await boleto({ amount: 100 })).body.chargeId
    const less = (await boleto({ amount: 100 })).body.chargeId
    // The payer paid late (interest) on one, and short on the other, and the bank took both.
    bank.pay(cobrancaOf(more).nossoNumero, today())
    cobrancaOf(more).valorTotalRecebido = "103.50"
    bank.pay(cobrancaOf(less).nossoNumero, today())
    cobrancaOf(less).valorTotalRecebido = "90.00"
    const report = await engine.run(pollBoletoPayments())
    expect(report.outcomes).toMatchObject({ confirmed: 1, underpaid: 1 })
    expect(await charge(more)).toMatchObject({ status: "PAID", amount: 100 })
    expect((await charge(less)).status).toBe("PENDING")
  })

  it("writes a canceled boleto off at the bank before canceling it, and a bank outage cancels nothing", async () => {
    const { boleto, call, charge } = await merchant()
    const { chargeId } = (await boleto()).body
    bank.force("list", { kind: "status", status: 503 }, { kind: "status", status: 503 })
    const down = await call("DELETE", `/v1/charges/${chargeId}`)
    expect(down.status).toBe(502)
    expect(down.body.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", details: { provider: "boleto" } })
    expect((await charge(chargeId)).status).toBe("PENDING")
    expect(cobrancaOf(chargeId).situacao).toBe("A_RECEBER")

    const canceled = await call("DELETE", `/v1/charges/${chargeId}`)
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200)
    expect(cobrancaOf(chargeId)).toMatchObject({ situacao: "CANCELADO", motivoCancelamento: WRITE_OFF_REASON })
    expect((await charge(chargeId)).status).toBe("CANCELED")
  })

  it("refuses to cancel a boleto the bank says was paid, and records the payment instead", async () => {
    const { boleto, call, charge, hook } = await merchant()
    const { receiver } = await hook()
    const { chargeId } = (await boleto()).body
    // Paid at a counter; no callback has come yet.
    bank.pay(cobrancaOf(chargeId).nossoNumero, today())
    const refused = await call("DELETE", `/v1/charges/${chargeId}`)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({ code: "CHARGE_NOT_CANCELABLE", details: { status: "PAID" } })
    expect((await charge(chargeId)).status).toBe("PAID")
    expect(cobrancaOf(chargeId).situacao).toBe("RECEBIDO")
    await engine.run(deliveryPass())
    expect(deliveredFor(receiver.received, chargeId).map((r) => JSON.parse(r.body).event)).toEqual(["payment.success"])
    await receiver.close()
  })

  it("writes a subscription's open boleto off at the bank before canceling the subscription, and a bank outage cancels nothing", async () => {
    const { call, charge } = await merchant()
    const product = (await call("POST", "/v1/products", {
      name: "Plano boleto",
      type: "RECURRING",
      prices: [{ title: "Mensal", amount: 89.9, recurrenceType: "MONTHLY", recurrenceInterval: 1 }]
    })).body
    const subscribed = await call("POST", "/v1/charges", { paymentMethod: "boleto", customer, boletoDueDays: 5, items: [{ priceId: product.prices[0].priceId }] })
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200)
    const { chargeId, subscriptionId } = subscribed.body

    bank.force("list", { kind: "status", status: 503 }, { kind: "status", status: 503 })
    const down = await call("DELETE", `/v1/subscriptions/${subscriptionId}`)
    expect(down.status).toBe(502)
    expect(down.body.error).toMatchObject({ code: "PROVIDER_UNAVAILABLE", details: { provider: "boleto" } })
    expect((await call("GET", `/v1/subscriptions/${subscriptionId}`)).body.status).not.toBe("CANCELED")
    expect((await charge(chargeId)).status).toBe("PENDING")
    expect(cobrancaOf(chargeId).situacao).toBe("A_RECEBER")

    const canceled = await call("DELETE", `/v1/subscriptions/${subscriptionId}`)
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200)
    expect(canceled.body.status).toBe("CANCELED")
    expect(cobrancaOf(chargeId)).toMatchObject({ situacao: "CANCELADO", motivoCancelamento: WRITE_OFF_REASON })
    expect((await charge(chargeId)).status).toBe("CANCELED")
  })

  it("writes an expired boleto off at the bank before expiring it; with the bank down it waits for the next pass", async () => {
    const { boleto, charge } = await merchant()
    const { chargeId } = (await boleto()).body
    // Its last payable day is over (and it was last touched two minutes ago).
    const untouched = () => sql(`UPDATE charges SET expires_at = now() - interval '1 second', updated_at = now() - interval '2 minutes' WHERE id = '${chargeId}'`)
    await untouched()
    bank.force("list", { kind: "status", status: 503 }, { kind: "status", status: 503 })
    await engine.run(Billing.expireDueCharges(100))
    expect((await charge(chargeId)).status).toBe("PENDING")
    expect(cobrancaOf(chargeId).situacao).toBe("A_RECEBER")
    // Asked a moment ago: the next pass leaves it (the bank's call budget is the checkout's too).
    bank.takeCalls()
    expect(await engine.run(Billing.expireDueCharges(100))).toBe(0)
    expect(bank.takeCalls()).toEqual([])

    // Its lease over, the next pass writes it off.
    await untouched()
    expect(await engine.run(Billing.expireDueCharges(100))).toBe(1)
    expect((await charge(chargeId)).status).toBe("EXPIRED")
    expect(cobrancaOf(chargeId)).toMatchObject({ situacao: "CANCELADO", motivoCancelamento: WRITE_OFF_REASON })
    const [event] = await sql<{ n: string }>(`SELECT count(*) AS n FROM outbox WHERE event = 'charge.expired' AND body LIKE '%${chargeId}%'`)
    expect(Number(event!.n)).toBe(1)
  })

  it("registers its callback URL with the bank, under the installation's secret", async () => {
    const registration = await engine.run(registerBoletoCallback())
    expect(registration).toEqual({ registered: true, problem: null })
    expect(bank.webhooks.at(-1)).toBe(`${PUBLIC_URL}/psp/boleto/${await engine.run(boletoCallbackSecret)}`)
  })

  it("keeps a sandbox account's boletos on the sandbox bank: Inter is never called", async () => {
    const { boleto, call } = await merchant(true)
    const calls = bank.calls.length
    const created = await boleto()
    expect(created.status).toBe(200)
    expect(created.body.boleto.digitableLine.startsWith("999")).toBe(true)
    expect((await call("DELETE", `/v1/charges/${created.body.chargeId}`)).status).toBe(200)
    expect(bank.calls.length).toBe(calls)
  })
})

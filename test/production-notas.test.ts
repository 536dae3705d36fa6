/**
 * A production account's fiscal notes on the national system (issue 30)
 * through real HTTP on PostgreSQL: the providers file's `nfse` entry points
 * at a fake Sefin Nacional on mutual TLS, which holds every DPS and event to
 * the official schemas and verifies its signature with the issuer's
 * certificate. A note issued at once, a refusal with the system's messages,
 * a lost answer settled by the worker under the same DPS number, the
 * DANFSe, a cancellation; a sandbox account in the same engine never
 * reaches the national system.
 */
import { Billing } from "@billing/core"
import type { ProvidersConfig } from "@billing/providers"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { validateAgainst } from "../packages/core/test/nfse/NfseSchemas.ts"
import { type FakeSefin, startFakeSefin } from "../packages/providers/test/support/FakeSefin.ts"
import { makeTestPki, MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { verifies } from "../packages/providers/test/nfse/SignatureCheck.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"
import { nationalConfigBody } from "./support/NationalConfig.ts"

type Json = { readonly [key: string]: any }

const pki = makeTestPki()
const configBody = (extra: Json = {}): Json => nationalConfigBody(pki, extra)

describe("production fiscal notes on the national system (fake Sefin Nacional)", () => {
  let fake: FakeSefin
  let engine: TestEngine
  let headers: Record<string, string>
  let configId: string

  const call = async (method: string, path: string, body?: unknown, as = headers) => {
    const response = await fetch(`${engine.baseUrl}${path}`, { method, headers: as, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const bytes = new Uint8Array(await response.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    return { status: response.status, text, bytes, body: (text.startsWith("{") ? JSON.parse(text) : {}) as Json }
  }
  const standalone = (descricao: string, extra: Json = {}) =>
    call("POST", "/v1/invoices/notas", { customer: { document: "52998224725", name: "Ana Souza" }, amount: 150, descricao, configId, ...extra })

  beforeAll(async () => {
    fake = await startFakeSefin(pki)
    const providers: ProvidersConfig = {
      publicUrl: "https://billing.example.com",
      pix: [],
      nfse: {
        provider: "nacional",
        ambiente: 2,
        signatureAlgorithm: "RSA-SHA256",
        baseUrl: fake.baseUrl,
        danfseUrl: fake.danfseUrl,
        parametersUrl: fake.parametersUrl,
        // Short, for the lost answer's test.
        timeoutMillis: 1_000,
        ca: pki.caPem
      }
    }
    engine = await startEngine("postgres", { providers })
    const account = await engine.createAccount({ name: "Loja Exemplo Ltda", document: MERCHANT_CNPJ, email: "fiscal@loja.example", sandbox: false })
    headers = { authorization: `Bearer ${await engine.token(account, "nota.fiscal/write nota.fiscal/read")}`, "content-type": "application/json" }
    const config = await call("POST", "/v1/invoices/notas/config", configBody())
    expect(config.status, config.text).toBe(201)
    configId = config.body.id
  }, 60_000)
  afterAll(async () => {
    await engine?.dispose()
    await fake?.close()
  })
  afterEach(async () => {
    expect(fake.violations.splice(0)).toEqual([])
    // Whatever reached the system was a valid document, signed by the issuer's certificate.
    for (const document of fake.documents.splice(0)) {
      const schema = document.includes("<pedRegEvento") ? "pedRegEvento_v1.01.xsd" : "DPS_v1.01.xsd"
      expect(await validateAgainst(schema, document)).toEqual({ valid: true, errors: [] })
      expect(verifies(document, pki.client.certPem)).toBe(true)
    }
  })

  it("issues a note at once with the system's number and key; its PDF is the DANFSe and its XML the NFS-e", async () => {
    const emitted = await standalone("Consultoria em sistemas")
    expect(emitted.status, emitted.text).toBe(201)
    expect(emitted.body).toMatchObject({ success: true, status: "ISSUED", tipo: "nacional", nf: { errors: [] } })
    const detail = await call("GET", `/v1/invoices/notas/${emitted.body.invoiceId}`)
    const chave = detail.body.nf.chaveAcesso as string
    expect(fake.books.notes.has(chave)).toBe(true)
    expect(detail.body.nf.numero).toBe(String(fake.books.notes.get(chave)!.numero))
    const xml = await call("GET", `/v1/invoices/notas/${emitted.body.invoiceId}/xml`)
    expect(xml.text).toBe(fake.books.notes.get(chave)!.nfseXml)
    const pdf = await call("GET", `/v1/invoices/notas/${emitted.body.invoiceId}/pdf`)
    expect(pdf.status).toBe(200)
    expect(new TextDecoder().decode(pdf.bytes.slice(0, 5))).toBe("%PDF-")
    expect(fake.takeCalls().map((c) => `${c.method} ${c.path}`)).toContain(`GET /danfse/${chave}`)
    // No production mailer: a resend is refused rather than answered with an e-mail that never leaves.
    const resend = await call("POST", `/v1/invoices/notas/${emitted.body.invoiceId}/reenviar`, { emails: ["ana@example.com"] })
    expect([resend.status, resend.body.error.code, resend.body.error.details]).toEqual([503, "PROVIDER_NOT_CONFIGURED", { provider: "mail" }])
    // The calls to the national system, as an operator scrapes them: one emission, one DANFSe, both answered.
    const metrics = await (await fetch(`${engine.baseUrl}/metrics`)).text()
    expect(metrics).toContain('billing_provider_calls_total{provider="nfse",operation="issue",outcome="ok"} 1')
    expect(metrics).toContain('billing_provider_calls_total{provider="nfse",operation="pdf",outcome="ok"} 1')
    expect(metrics).toMatch(/billing_provider_call_duration_seconds_count\{provider="nfse",operation="issue"\} 1/)
  })

  it("records the system's refusal in nf.errors and sends the mended note under a new DPS number", async () => {
    fake.force({ kind: "refuse", body: { erros: [{ Codigo: "E0312", Descricao: "Código de tributação nacional inexistente" }] } })
    const refused = await standalone("Serviço recusado")
    expect(refused.body).toMatchObject({ success: false, status: "FAILED", nf: { errors: [{ code: "E0312", message: "Código de tributação nacional inexistente" }] } })
    const first = (await call("GET", `/v1/invoices/notas/${refused.body.invoiceId}`)).body.nf.numeroDps
    const again = await call("POST", `/v1/invoices/notas/${refused.body.invoiceId}/reemitir`, {})
    expect(again.body).toMatchObject({ success: true, status: "ISSUED" })
    expect((await call("GET", `/v1/invoices/notas/${refused.body.invoiceId}`)).body.nf.numeroDps).toBeGreaterThan(first)
  })

  it("settles a lost answer by the DPS's Id, never by a second number", async () => {
    const before = fake.books.dps.size
    fake.force({ kind: "timeout" })
    const lost = await standalone("Resposta perdida")
    // After the timeout the adapter asks the system by the DPS's Id and finds the note the lost call issued.
    expect(lost.body).toMatchObject({ status: "ISSUED" })
    expect(fake.books.dps.size).toBe(before + 1)
    const numbers = await engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: string }>`SELECT count(*)::text AS n FROM nota_dps_numbers WHERE nota_id = ${lost.body.ref}`))
    expect(numbers).toEqual([{ n: "1" }])
  })

  it("keeps a note the system could not take PROCESSING, and the worker sends the same DPS again", async () => {
    const before = fake.books.dps.size
    fake.force({ kind: "status", status: 503 })
    const pending = await standalone("Sistema fora do ar")
    expect(pending.body).toMatchObject({ success: true, status: "PROCESSING", numero: null })
    expect(fake.books.dps.size).toBe(before)
    const dpsNumber = (await call("GET", `/v1/invoices/notas/${pending.body.invoiceId}`)).body.nf.numeroDps
    // Not recorded as sent: its first send might still be under way, so the worker leaves it a few minutes.
    await engine.run(Billing.answerProcessingNotas(10))
    expect(fake.books.dps.size).toBe(before)
    const later = Effect.flatMap(Clock.clockWith(Effect.succeed), (base) =>
      Billing.answerProcessingNotas(10).pipe(Effect.provideService(Clock.Clock, Billing.shiftedClock(base, 4 * 60_000))))
    await engine.run(later)
    const settled = (await call("GET", `/v1/invoices/notas/${pending.body.invoiceId}`)).body
    expect(settled).toMatchObject({ status: "AUTHORIZED", nf: { numeroDps: dpsNumber } })
    expect(fake.books.dps.size).toBe(before + 1)
  })

  it("cancels at the system with the merchant's reason (event e101101)", async () => {
    const emitted = await standalone("Para cancelar")
    const chave = (await call("GET", `/v1/invoices/notas/${emitted.body.invoiceId}`)).body.nf.chaveAcesso
    const canceled = await call("DELETE", `/v1/invoices/notas/${emitted.body.invoiceId}?motivo=${encodeURIComponent("Serviço não prestado ao tomador")}`)
    expect(canceled.status, canceled.text).toBe(200)
    expect(canceled.body).toMatchObject({ status: "CANCELED", cancelReason: "Serviço não prestado ao tomador" })
    expect(fake.books.events.has(chave)).toBe(true)
  })

  it("asks the national system which standard a city off the engine's list uses, when the configuration is saved", async () => {
    // Canaã dos Carajás (PA) is not on the engine's list; the system says it adhered.
    fake.adhesion.set("1505486", 1)
    fake.takeCalls()
    const city = { codigo_municipio: "1505486", codigo_opcao_simples_nacional: 3, regime_especial_tributacao: 0 }
    const national = await call("POST", "/v1/invoices/notas/config", configBody({ prestador: city }))
    expect(national.status, national.text).toBe(201)
    expect(national.body).toMatchObject({ tipo: "nacional", tipo_cidade: "nacional" })
    // A city that kept its own system needs the municipal fields.
    fake.adhesion.set("3106200", 0)
    const municipal = await call("POST", "/v1/invoices/notas/config", configBody({ prestador: { ...city, codigo_municipio: "3106200" } }))
    expect(municipal.body.error).toMatchObject({ code: "MISSING_FIELDS", details: { fields: ["item_lista_servico", "aliquota_iss"] } })
    expect(fake.takeCalls().map((c) => `${c.method} ${c.path}`)).toEqual(["GET /parametrizacao/1505486/convenio", "GET /parametrizacao/3106200/convenio"])
  })

  it("answers NOTA_TYPE_NOT_SUPPORTED for a municipal configuration, and keeps a sandbox account on the sandbox city", async () => {
    const municipal = await call("POST", "/v1/invoices/notas/config", configBody({
      item_lista_servico: "01.07",
      aliquota_iss: 2.5,
      prestador: { codigo_municipio: "3550308", codigo_opcao_simples_nacional: 1, regime_especial_tributacao: 0, inscricao_municipal: "12345678" }
    }))
    expect(municipal.status, municipal.text).toBe(201)
    const refused = await standalone("Municipal", { configId: municipal.body.id })
    expect([refused.status, refused.body.error.code]).toEqual([400, "NOTA_TYPE_NOT_SUPPORTED"])

    fake.takeCalls()
    const sandbox = await engine.createAccount({ name: "Loja Sandbox Ltda", document: MERCHANT_CNPJ })
    const as = { ...headers, authorization: `Bearer ${await engine.token(sandbox, "nota.fiscal/write nota.fiscal/read")}` }
    const config = await call("POST", "/v1/invoices/notas/config", configBody(), as)
    const note = await call("POST", "/v1/invoices/notas", { customer: { document: "52998224725", name: "Ana" }, amount: 5, descricao: "Sandbox", configId: config.body.id }, as)
    expect(note.body).toMatchObject({ status: "ISSUED" })
    expect(fake.takeCalls()).toEqual([])
  })
})

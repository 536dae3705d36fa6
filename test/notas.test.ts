/**
 * Fiscal invoices (issue 30, step 2) through real HTTP on PostgreSQL with the
 * sandbox city: standalone notes issued at once, a charge's note by its
 * configuration's timing (the worker's jobs emit it, then ask the city),
 * `emitir` with every refusal the spec lists, `verificar-emissao`,
 * `reemitir` of a refused note and of an issued one, cancel, resend with the
 * PDF and XML, list filters, summary, scopes, and the database's own rules
 * (one standing note per invoice, a DPS number once, moves only along the
 * table).
 */
import { Billing, notaStatusPairs, NotaStatus, SandboxMailbox } from "@billing/core"
import { chargesPass } from "@billing/worker"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { inspect } from "node:util"
import { extractText } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestPki, MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"

type Json = { readonly [key: string]: any }

const DAY = 86_400_000
const pki = makeTestPki()
const certificate = { pfx_base64: pki.client.pfx.toString("base64"), password: pki.passphrase }
const NATIONAL_CITY = "5300108"

/** A national configuration of an ME/EPP in the Simples Nacional (the CNPJ is the account's). */
const national = (extra: Json = {}): Json => ({
  config_name: "Serviços Brasília",
  codigo_tributacao_nacional_iss: "010701",
  tributacao_iss: 1,
  tipo_retencao_iss: 1,
  percentual_total_tributos_simples_nacional: 6,
  descricao_servico: "Consultoria em sistemas",
  prestador: { codigo_municipio: NATIONAL_CITY, codigo_opcao_simples_nacional: 3, regime_especial_tributacao: 0 },
  certificate,
  ...extra
})

const address = { zipCode: "70040010", street: "SBS Quadra 2", number: "10", neighborhood: "Asa Sul", city: "Brasília", state: "DF", cityCode: NATIONAL_CITY }
const buyer = { name: "Ana Souza", documentNumber: "52998224725", email: "ana@example.com", address }

describe("fiscal invoices (NFS-e) on postgres, sandbox city", () => {
  let engine: TestEngine
  let account: Billing.CreatedAccount
  let headers: Record<string, string>
  let configs: { readonly immediate: string; readonly afterPayment: string; readonly twoDaysAfter: string }

  const call = async (method: string, path: string, body?: unknown, as = headers) => {
    const response = await fetch(`${engine.baseUrl}${path}`, { method, headers: as, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    const text = await response.text()
    return { status: response.status, text, body: (text.startsWith("{") ? JSON.parse(text) : {}) as Json, response }
  }
  const notas = (path: string, method = "GET", body?: unknown) => call(method, `/v1/invoices/notas${path}`, body)
  const createConfig = async (extra: Json) => {
    const created = await call("POST", "/v1/invoices/notas/config", national(extra))
    expect(created.status, created.text).toBe(201)
    return created.body.id as string
  }
  const pixCharge = async (extra: Json = {}) => {
    const created = await call("POST", "/v1/charges", { paymentMethod: "pix", amount: 150, customer: buyer, description: "Mensalidade de consultoria", ...extra })
    expect(created.status, created.text).toBe(200)
    return created.body.chargeId as string
  }
  const pay = async (chargeId: string) => {
    expect((await call("POST", `/v1/wallet/pay/${chargeId}`)).status).toBe(200)
    await engine.run(chargesPass())
  }
  /** `job` run once, `aheadMillis` from now. */
  const ahead = <A>(job: Effect.Effect<A, never, any>, aheadMillis: number) =>
    engine.run(Effect.flatMap(Clock.clockWith(Effect.succeed), (base) => job.pipe(Effect.provideService(Clock.Clock, Billing.shiftedClock(base, aheadMillis)))))
  /** The worker's job that emits the notes due. */
  const emitJob = (aheadMillis = 0) => ahead(Billing.emitDueNotas(50), aheadMillis)
  /** The worker's two note jobs, once each, in the worker's order. */
  const notaJobs = async (aheadMillis = 0) => ({ emitted: await emitJob(aheadMillis), answered: await ahead(Billing.answerProcessingNotas(50), aheadMillis) })
  const sql = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) => engine.run(Effect.flatMap(SqlClient.SqlClient, f))

  beforeAll(async () => {
    engine = await startEngine("postgres")
    account = await engine.createAccount({ name: "Loja Exemplo Ltda", document: MERCHANT_CNPJ, email: "fiscal@loja.example" })
    headers = {
      authorization: `Bearer ${await engine.token(account, "nota.fiscal/write nota.fiscal/read checkouts/write checkouts/read pix.cob/write pix.cob/read wallet/write wallet/read products/write products/read subscriptions/read subscriptions/write")}`,
      "content-type": "application/json"
    }
    configs = {
      immediate: await createConfig({}),
      afterPayment: await createConfig({ invoiceTiming: "AFTER_CONFIRMATION" }),
      twoDaysAfter: await createConfig({ invoiceTiming: "DAYS_AFTER_CONFIRMATION", daysAfterConfirmation: 2 })
    }
  }, 60_000)
  afterAll(() => engine?.dispose())

  it("issues a standalone note at once; its detail, PDF and XML say the same", async () => {
    const emitted = await notas("", "POST", {
      customer: { document: "529.982.247-25", name: "Ana Souza", email: "ana@example.com" },
      amount: 150,
      descricao: "Consultoria avulsa",
      configId: configs.immediate.replace("nfc_", "unc_"),
      ref: "pedido-4711"
    })
    expect(emitted.status, emitted.text).toBe(201)
    expect(emitted.body).toMatchObject({
      success: true,
      invoiceId: "pedido-4711",
      subscriptionId: null,
      cycleNumber: null,
      type: "NFSE",
      status: "ISSUED",
      tipo: "nacional",
      nf: { errors: [] }
    })
    expect(emitted.body.ref).toMatch(/^SANDBOX_inv_/)
    expect(emitted.body.numero).toMatch(/^\d+$/)
    const detail = await notas("/pedido-4711")
    expect(detail.body).toMatchObject({
      invoiceId: "pedido-4711",
      ref: emitted.body.ref,
      status: "ISSUED",
      amount: 150,
      customer: { document: "52998224725", name: "Ana Souza" },
      nf: { numero: emitted.body.numero, errors: [] },
      pdfUrl: "/v1/invoices/notas/pedido-4711/pdf",
      xmlUrl: "/v1/invoices/notas/pedido-4711/xml"
    })
    expect(detail.text).toContain('"amount":150.00')
    // A note may not be named after a route of its own path.
    const routeWord = await notas("", "POST", { customer: { document: "52998224725" }, amount: 1, descricao: "x", configId: configs.immediate, ref: "summary" })
    expect([routeWord.status, routeWord.body.error.code, routeWord.body.error.details]).toEqual([400, "INVALID_DATA", { field: "ref" }])
    // The detail is also found by the note's own id.
    expect((await notas(`/${emitted.body.ref}`)).body.invoiceId).toBe("pedido-4711")

    const pdf = await call("GET", detail.body.pdfUrl)
    expect(pdf.response.headers.get("content-type")).toBe("application/pdf")
    const bytes = new Uint8Array(await (await fetch(`${engine.baseUrl}${detail.body.pdfUrl}`, { headers })).arrayBuffer())
    const { text } = await extractText(bytes, { mergePages: true })
    expect(text).toContain(`Numero da NFS-e: ${emitted.body.numero}`)
    expect(text).toContain("R$ 150,00")
    expect(text).toContain("52998224725")

    const xml = await call("GET", detail.body.xmlUrl)
    expect(xml.response.headers.get("content-type")).toContain("application/xml")
    expect(xml.text).toContain(`<nDPS>${detail.body.nf.numeroDps}</nDPS>`)
    expect(xml.text).toContain("<vServ>150.00</vServ>")
    expect(xml.text).toContain("<CPF>52998224725</CPF>")
  })

  it("refuses a standalone note the city refuses, and reissues it under the same identity with a new number", async () => {
    const refused = await notas("", "POST", {
      customer: { document: "52998224725", name: "Ana Souza" },
      amount: 80,
      descricao: "Serviço [recusar]",
      configId: configs.immediate
    })
    expect(refused.status, refused.text).toBe(201)
    expect(refused.body).toMatchObject({ success: false, status: "FAILED", numero: null })
    expect(refused.body.nf.errors[0]).toMatchObject({ code: "E0312" })
    // The generated invoice id is the note's own.
    expect(refused.body.invoiceId).toBe(refused.body.ref)
    const firstNumber = (await notas(`/${refused.body.invoiceId}`)).body.nf.numeroDps

    expect((await notas(`/${refused.body.invoiceId}/pdf`)).body.error.code).toBe("NF_NOT_AUTHORIZED")
    const reissued = await notas(`/${refused.body.invoiceId}/reemitir`, "POST", { descricao: "Serviço corrigido" })
    expect(reissued.status, reissued.text).toBe(200)
    expect(reissued.body).toMatchObject({ success: true, status: "ISSUED", invoiceId: refused.body.invoiceId, ref: refused.body.ref })
    const detail = await notas(`/${refused.body.invoiceId}`)
    expect(detail.body.nf.numeroDps).toBeGreaterThan(firstNumber)
    expect(detail.body).toMatchObject({ descricao: "Serviço corrigido", nf: { errors: [] } })
  })

  it("emits a charge's note by IMMEDIATE timing: PROCESSING from the worker, AUTHORIZED at its next pass", async () => {
    const chargeId = await pixCharge({ nfConfigId: configs.immediate })
    expect((await notas(`/${chargeId}`)).status).toBe(404)
    expect(await emitJob()).toBeGreaterThanOrEqual(1)
    const processing = await notas(`/${chargeId}`)
    expect(processing.body).toMatchObject({ invoiceId: chargeId, chargeId, status: "PROCESSING", descricao: "Mensalidade de consultoria" })
    expect((await notas(`/${chargeId}/emitir`, "POST", {})).body.error.code).toBe("NOTA_PROCESSING")
    await notaJobs()
    const authorized = await notas(`/${chargeId}`)
    expect(authorized.body).toMatchObject({ status: "AUTHORIZED", nf: { errors: [] } })
    expect(authorized.body.nf.chaveAcesso).toMatch(/^\d{50}$/)
    expect((await notas(`/${chargeId}/emitir`, "POST", {})).body.error).toMatchObject({ code: "NOTA_ALREADY_ISSUED" })
    // Once emitted, the worker owes the charge nothing more.
    await notaJobs()
    const rows = await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM notas WHERE invoice_id = ${chargeId}`)
    expect(rows[0]!.n).toBe("1")
  })

  it("emits after payment (AFTER_CONFIRMATION) and two days after it (DAYS_AFTER_CONFIRMATION), never before", async () => {
    const afterPayment = await pixCharge({ nfConfigId: configs.afterPayment })
    const later = await pixCharge({ nfConfigId: configs.twoDaysAfter })
    await notaJobs()
    expect((await notas(`/${afterPayment}`)).status).toBe(404)
    // Scheduled by the configuration: emitir by hand is refused (spec: "scheduled note exists").
    expect((await notas(`/${afterPayment}/emitir`, "POST", {})).body.error).toMatchObject({ code: "NOTA_ALREADY_ISSUED", details: { status: "SCHEDULED" } })
    await pay(afterPayment)
    await pay(later)
    await notaJobs()
    await notaJobs()
    expect((await notas(`/${afterPayment}`)).body.status).toBe("AUTHORIZED")
    expect((await notas(`/${later}`)).status).toBe(404)
    await notaJobs(DAY)
    expect((await notas(`/${later}`)).status).toBe(404)
    await notaJobs(2 * DAY + 60_000)
    await notaJobs(2 * DAY + 120_000)
    expect((await notas(`/${later}`)).body.status).toBe("AUTHORIZED")
  })

  it("moves with a sandbox account's test clock: a note due two days after payment is emitted at that instant and answered", async () => {
    const clocked = await engine.createAccount({ name: "Loja Relógio Ltda", document: MERCHANT_CNPJ, email: "relogio@loja.example" })
    const as = { ...headers, authorization: `Bearer ${await engine.token(clocked, "nota.fiscal/write nota.fiscal/read checkouts/write wallet/write")}` }
    const config = await call("POST", "/v1/invoices/notas/config", national({ invoiceTiming: "DAYS_AFTER_CONFIRMATION", daysAfterConfirmation: 2 }), as)
    const charge = await call("POST", "/v1/charges", { paymentMethod: "pix", amount: 99, customer: buyer, nfConfigId: config.body.id }, as)
    expect((await call("POST", `/v1/wallet/pay/${charge.body.chargeId}`, undefined, as)).status).toBe(200)
    const paid = await call("POST", "/v1/sandbox/clock/advance", { days: 0 }, as)
    expect(paid.body).toMatchObject({ paymentsConfirmed: 1 })
    const [schedule] = await sql((s) => s<{ due_at: Date }>`SELECT due_at FROM nota_schedules WHERE charge_id = ${charge.body.chargeId}`)
    const [payment] = await sql((s) => s<{ paid_at: Date }>`SELECT paid_at FROM charges WHERE id = ${charge.body.chargeId}`)
    expect(schedule!.due_at.getTime()).toBe(payment!.paid_at.getTime() + 2 * DAY)

    await call("POST", "/v1/sandbox/clock/advance", { days: 1 }, as)
    expect((await call("GET", `/v1/invoices/notas/${charge.body.chargeId}`, undefined, as)).status).toBe(404)
    await call("POST", "/v1/sandbox/clock/advance", { days: 2 }, as)
    const note = await call("GET", `/v1/invoices/notas/${charge.body.chargeId}`, undefined, as)
    expect(note.body).toMatchObject({ status: "AUTHORIZED", amount: 99 })
    // Issued when it came due on the account's clock (which runs on at the real pace between stops), not at the end of the advance.
    const issuedAt = new Date(note.body.issuedAt).getTime()
    expect(issuedAt).toBeGreaterThanOrEqual(schedule!.due_at.getTime())
    expect(issuedAt - schedule!.due_at.getTime()).toBeLessThan(60_000)
    // The worker leaves a clocked account's notes to its clock.
    expect(await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM notas WHERE account_id = ${clocked.accountId}`)).toEqual([{ n: "1" }])
  })

  it("emitir: the configuration in the spec's order, and every refusal", async () => {
    const plain = await pixCharge()
    expect((await notas(`/${plain}/emitir`, "POST", {})).body.error).toMatchObject({ code: "NF_CONFIG_REQUIRED" })
    expect((await notas(`/${plain}/emitir`, "POST", {})).status).toBe(400)
    const unknownConfig = await notas(`/${plain}/emitir`, "POST", { configId: "SANDBOX_nfc_nope" })
    expect([unknownConfig.status, unknownConfig.body.error.code]).toEqual([404, "NF_CONFIG_NOT_FOUND"])
    const unknownCharge = await notas("/SANDBOX_cha_nope/emitir", "POST", { configId: configs.immediate })
    expect([unknownCharge.status, unknownCharge.body.error.code]).toEqual([404, "INVOICE_NOT_FOUND"])

    const check = await notas(`/${plain}/verificar-emissao`, "POST", { configId: configs.immediate })
    expect(check.body).toEqual({ success: true, invoiceId: plain, emitivel: true, configId: configs.immediate, pendencias: [] })
    // Nothing was emitted by the check.
    expect((await notas(`/${plain}`)).status).toBe(404)

    const emitted = await notas(`/${plain}/emitir`, "POST", { configId: configs.immediate, type: "NFSE" })
    expect(emitted.status, emitted.text).toBe(200)
    expect(emitted.body).toMatchObject({ success: true, invoiceId: plain, status: "PROCESSING", numero: null, tipo: "nacional" })

    // A buyer with no address: the note lacks it.
    const noAddress = await call("POST", "/v1/charges", { paymentMethod: "pix", amount: 20, customer: { name: "Bruno", documentNumber: "11144477735", email: "bruno@example.com" } })
    const pendencias = await notas(`/${noAddress.body.chargeId}/verificar-emissao`, "POST", { configId: configs.immediate })
    expect(pendencias.body).toMatchObject({ emitivel: false, pendencias: ["customer.address"] })
    const incomplete = await notas(`/${noAddress.body.chargeId}/emitir`, "POST", { configId: configs.immediate })
    expect([incomplete.status, incomplete.body.error.code, incomplete.body.error.details]).toEqual([400, "NF_INCOMPLETE_DATA", ["customer.address"]])

    const canceled = await pixCharge()
    expect((await call("DELETE", `/v1/charges/${canceled}`)).status).toBe(200)
    const notEmittable = await notas(`/${canceled}/emitir`, "POST", { configId: configs.immediate })
    expect(notEmittable.body.error.code).toBe("INVOICE_STATUS_NOT_EMITTABLE")
  })

  it("refuses nfConfigId on a charge without a complete address or with an unknown configuration, recording nothing", async () => {
    const before = await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM charges`)
    const noAddress = await call("POST", "/v1/charges", { paymentMethod: "pix", amount: 20, customer: { name: "Bruno", documentNumber: "11144477735", email: "bruno@example.com" }, nfConfigId: configs.immediate })
    expect([noAddress.status, noAddress.body.error.code, noAddress.body.error.details]).toEqual([400, "INVALID_DATA", { field: "customer.address" }])
    const partial = await call("POST", "/v1/charges", { paymentMethod: "pix", amount: 20, customer: { ...buyer, address: { zipCode: "70040010" } }, nfConfigId: configs.immediate })
    expect(partial.body.error).toMatchObject({ code: "INVALID_DATA", details: { field: "customer.address.street" } })
    const unknown = await call("POST", "/v1/charges", { paymentMethod: "pix", amount: 20, customer: buyer, nfConfigId: "SANDBOX_nfc_nope" })
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "NF_CONFIG_NOT_FOUND"])
    expect(await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM charges`)).toEqual(before)
  })

  it("gives a product's sale the note of the product's nfConfigId, and refuses an unknown one when the product is saved", async () => {
    const product = (extra: Json) => call("POST", "/v1/products", { name: "Consultoria", type: "ONE_TIME", prices: [{ title: "Hora", amount: 200, recurrenceType: "ONE_TIME" }], ...extra })
    const unknown = await product({ nfConfigId: "SANDBOX_nfc_nope" })
    expect([unknown.status, unknown.body.error.code, unknown.body.error.details]).toEqual([400, "INVALID_PRODUCT_DATA", { field: "nfConfigId" }])
    const created = await product({ nfConfigId: configs.immediate.replace("nfc_", "unc_") })
    expect(created.status, created.text).toBe(201)
    expect(created.body.nfConfigId).toBe(configs.immediate)

    const noAddress = await call("POST", "/v1/charges", { paymentMethod: "pix", productId: created.body.productId ?? created.body.id, customer: { ...buyer, address: undefined } })
    expect(noAddress.body.error).toMatchObject({ code: "INVALID_DATA", details: { field: "customer.address" } })
    const sale = await call("POST", "/v1/charges", { paymentMethod: "pix", productId: created.body.productId ?? created.body.id, customer: buyer })
    expect(sale.status, sale.text).toBe(200)
    await emitJob()
    expect((await notas(`/${sale.body.chargeId}`)).body).toMatchObject({ configId: configs.immediate, amount: 200, status: "PROCESSING" })
  })

  it("gives a subscription's paid cycle the note of the subscription's nfConfigId, under its invoice's id", async () => {
    const plan = await call("POST", "/v1/products", { name: "Plano mensal", type: "RECURRING", prices: [{ title: "Mensal", amount: 59.9, recurrenceType: "MONTHLY" }] })
    const subscribed = await call("POST", "/v1/charges", {
      paymentMethod: "pix",
      customer: buyer,
      items: [{ priceId: plan.body.prices[0].priceId }],
      nfConfigId: configs.afterPayment
    })
    expect(subscribed.status, subscribed.text).toBe(200)
    const { chargeId, subscriptionId } = subscribed.body
    await pay(chargeId)
    await notaJobs()
    await notaJobs()
    const detail = await call("GET", `/v1/subscriptions/${subscriptionId}`)
    const invoiceId = detail.body.billingCycles[0].invoices[0].invoiceId as string
    const note = await notas(`/${invoiceId}`)
    expect(note.body).toMatchObject({ invoiceId, chargeId, subscriptionId, cycleNumber: 1, status: "AUTHORIZED", amount: 59.9, configId: configs.afterPayment })
    // The cycle's charge id names the same note.
    expect((await notas(`/${chargeId}`)).body.ref).toBe(note.body.ref)
    // emitir by the invoice id: that note exists.
    expect((await notas(`/${invoiceId}/emitir`, "POST", {})).body.error.code).toBe("NOTA_ALREADY_ISSUED")
  })

  it("owes no note to a charge refunded before its note came due", async () => {
    const chargeId = await pixCharge({ nfConfigId: configs.twoDaysAfter })
    await pay(chargeId)
    const endToEndId = (await call("GET", `/v1/charges/${chargeId}?view=detail`)).body.pix.endToEndId as string
    expect((await call("POST", "/v1/wallet/refunds", { endToEndId, amount: 150, reason: "CUSTOMER_REQUEST" })).status).toBe(201)
    await engine.run(Billing.completeRefunds(100))
    expect((await call("GET", `/v1/charges/${chargeId}`)).body.status).toBe("REFUNDED")
    await notaJobs(3 * DAY)
    expect((await notas(`/${chargeId}`)).status).toBe(404)
  })

  it("keeps a deleted configuration's notes: still canceled and printed; the configuration serves no new note", async () => {
    const doomed = await createConfig({})
    const emitted = await notas("", "POST", { customer: { document: "52998224725", name: "Ana" }, amount: 9, descricao: "Aula", configId: doomed })
    expect(emitted.body.status).toBe("ISSUED")
    expect((await call("DELETE", `/v1/invoices/notas/config/${doomed}`)).status).toBe(200)
    expect((await call("GET", `/v1/invoices/notas/config/${doomed}`)).status).toBe(404)
    expect((await call("GET", "/v1/invoices/notas/config")).body.items.map((c: Json) => c.id)).not.toContain(doomed)
    const refused = await notas("", "POST", { customer: { document: "52998224725", name: "Ana" }, amount: 9, descricao: "Aula", configId: doomed })
    expect([refused.status, refused.body.error.code]).toEqual([404, "NF_CONFIG_NOT_FOUND"])
    expect((await call("GET", `/v1/invoices/notas/${emitted.body.invoiceId}/pdf`)).status).toBe(200)
    const canceled = await notas(`/${emitted.body.invoiceId}?motivo=${encodeURIComponent("Configuração encerrada pelo lojista")}`, "DELETE")
    expect([canceled.status, canceled.body.status]).toEqual([200, "CANCELED"])
  })

  it("emits nothing under a disabled configuration", async () => {
    const disabled = await createConfig({ enabled: false })
    const chargeId = await pixCharge({ nfConfigId: disabled })
    await notaJobs()
    await pay(chargeId)
    await notaJobs()
    expect((await notas(`/${chargeId}`)).status).toBe(404)
    const check = await notas(`/${chargeId}/verificar-emissao`, "POST", {})
    expect(check.body).toMatchObject({ emitivel: false, configId: disabled, pendencias: ["configuração fiscal desativada (enabled: false)"] })
  })

  it("cancels an issued note with a reason; a new note may then be emitted for the charge", async () => {
    const chargeId = await pixCharge({ nfConfigId: configs.immediate })
    await emitJob()
    expect((await notas(`/${chargeId}`, "DELETE")).body.error).toMatchObject({ code: "INVALID_DATA", details: { field: "motivo" } })
    expect((await notas(`/${chargeId}?motivo=${encodeURIComponent("Erro na emissão da nota")}`, "DELETE")).body.error.code).toBe("NOTA_NOT_ISSUED")
    await notaJobs()
    const canceled = await notas(`/${chargeId}?motivo=${encodeURIComponent("Erro na emissão da nota")}`, "DELETE")
    expect(canceled.status, canceled.text).toBe(200)
    expect(canceled.body).toMatchObject({ status: "CANCELED", cancelReason: "Erro na emissão da nota" })
    expect((await notas(`/${chargeId}?motivo=${encodeURIComponent("Erro na emissão da nota")}`, "DELETE")).body.error.code).toBe("NOTA_NOT_ISSUED")
    const again = await notas(`/${chargeId}/emitir`, "POST", {})
    expect(again.status, again.text).toBe(200)
    expect(again.body.ref).not.toBe(canceled.body.ref)
    expect((await notas(`/${chargeId}`)).body.ref).toBe(again.body.ref)
  })

  it("replaces an issued note on reemitir: the old one REPLACED, the new one answering for the invoice", async () => {
    const emitted = await notas("", "POST", { customer: { document: "52998224725", name: "Ana" }, amount: 10, descricao: "Aula", configId: configs.immediate })
    const replacement = await notas(`/${emitted.body.invoiceId}/reemitir`, "POST", { descricao: "Aula de violão" })
    expect(replacement.body).toMatchObject({ status: "ISSUED", invoiceId: emitted.body.invoiceId })
    expect(replacement.body.ref).not.toBe(emitted.body.ref)
    // The invoice id names the standing note; the replaced one is still listed.
    expect((await notas(`/${emitted.body.invoiceId}`)).body).toMatchObject({ ref: replacement.body.ref, descricao: "Aula de violão", status: "ISSUED" })
    const listed = (await notas("?limit=100")).body.items.filter((n: Json) => n.invoiceId === emitted.body.invoiceId)
    expect(listed.map((n: Json) => [n.ref, n.status, n.replacedBy])).toEqual([
      [replacement.body.ref, "ISSUED", null],
      [emitted.body.ref, "REPLACED", replacement.body.ref]
    ])
  })

  it("resends the PDF and XML to up to ten recipients", async () => {
    const emitted = await notas("", "POST", { customer: { document: "52998224725", name: "Ana" }, amount: 12.5, descricao: "Aula", configId: configs.immediate })
    const eleven = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`)
    const tooMany = await notas(`/${emitted.body.invoiceId}/reenviar`, "POST", { emails: eleven })
    expect([tooMany.status, tooMany.body.error.code]).toEqual([400, "TOO_MANY_EMAILS"])
    const resent = await notas(`/${emitted.body.invoiceId}/reenviar`, "POST", { emails: ["a@example.com", "B@example.com"] })
    expect(resent.body).toEqual({ success: true, invoiceId: emitted.body.invoiceId, emails: ["a@example.com", "b@example.com"] })
    const mails = await engine.run(Effect.map(SandboxMailbox, (m) => m.messages.filter((x) => x.subject.includes(emitted.body.numero))))
    expect(mails.map((m) => m.to).sort()).toEqual(["a@example.com", "b@example.com"])
    const files = mails[0]!.attachments ?? []
    expect(files.map((f) => f.contentType)).toEqual(["application/pdf", "application/xml"])
    expect(new TextDecoder().decode(files[0]!.content.slice(0, 5))).toBe("%PDF-")
    expect(new TextDecoder().decode(files[1]!.content)).toContain("<vServ>12.50</vServ>")
  })

  it("lists with the spec's filters (AUTHORIZED finds ISSUED, ERROR finds FAILED), pages by lastKey, and sums by status", async () => {
    const all = await notas("?limit=100")
    const byStatus = (statuses: ReadonlyArray<string>) => all.body.items.filter((n: Json) => statuses.includes(n.status)).map((n: Json) => n.ref)
    const authorized = await notas("?status=AUTHORIZED&limit=100")
    expect(authorized.body.items.map((n: Json) => n.ref)).toEqual(byStatus(["ISSUED", "AUTHORIZED"]))
    expect(byStatus(["ISSUED"]).length).toBeGreaterThan(0)
    expect(byStatus(["AUTHORIZED"]).length).toBeGreaterThan(0)
    const issued = await notas("?status=ISSUED&limit=100")
    expect(issued.body.items.map((n: Json) => n.ref)).toEqual(authorized.body.items.map((n: Json) => n.ref))
    const failed = await notas("?status=ERROR")
    expect(failed.body.items.map((n: Json) => n.ref)).toEqual(byStatus(["FAILED", "ERROR"]))

    expect((await notas("?taxId=529.982.247-25&limit=100")).body.items.length).toBe(all.body.items.filter((n: Json) => n.customer.document === "52998224725").length)
    expect((await notas("?customerName=souza&limit=100")).body.items.every((n: Json) => /souza/i.test(n.customer.name))).toBe(true)
    expect((await notas("?search=pedido-47")).body.items.map((n: Json) => n.invoiceId)).toEqual(["pedido-4711"])

    const pages: Array<string> = []
    let lastKey: string | null = null
    do {
      const page: Json = await notas(`?limit=3${lastKey === null ? "" : `&lastKey=${lastKey}`}`)
      pages.push(...page.body.items.map((n: Json) => n.ref))
      lastKey = page.body.pagination.lastKey
    } while (lastKey !== null)
    expect(pages).toEqual(all.body.items.map((n: Json) => n.ref))
    expect(all.body.pagination).toMatchObject({ total: all.body.items.length, hasMore: false })

    const summary = await notas("/summary")
    const expected = new Map<string, { count: number; cents: number }>()
    for (const n of all.body.items) {
      const entry = expected.get(n.status) ?? { count: 0, cents: 0 }
      expected.set(n.status, { count: entry.count + 1, cents: entry.cents + Math.round(n.amount * 100) })
    }
    expect(summary.body.byStatus.map((s: Json) => [s.status, s.count, Math.round(s.amount * 100)]).sort()).toEqual(
      [...expected].map(([status, e]) => [status, e.count, e.cents]).sort()
    )
    expect(summary.body.total.count).toBe(all.body.items.length)
  })

  it("asks the spec's scopes: read to query, write for the rest", async () => {
    const readOnly = { ...headers, authorization: `Bearer ${await engine.token(account, "nota.fiscal/read")}` }
    const writeOnly = { ...headers, authorization: `Bearer ${await engine.token(account, "nota.fiscal/write")}` }
    expect((await call("GET", "/v1/invoices/notas", undefined, readOnly)).status).toBe(200)
    expect((await call("GET", "/v1/invoices/notas", undefined, writeOnly)).status).toBe(401)
    expect((await call("POST", "/v1/invoices/notas", { customer: { document: "52998224725" }, amount: 1, descricao: "x", configId: configs.immediate }, readOnly)).status).toBe(401)
  })

  it("refuses a production account's note with 503 PROVIDER_NOT_CONFIGURED until a city is configured", async () => {
    const production = await engine.createAccount({ name: "Loja Real Ltda", document: MERCHANT_CNPJ, sandbox: false })
    const as = { ...headers, authorization: `Bearer ${await engine.token(production, "nota.fiscal/write nota.fiscal/read")}` }
    const config = await call("POST", "/v1/invoices/notas/config", national(), as)
    expect(config.status, config.text).toBe(201)
    const refused = await call("POST", "/v1/invoices/notas", { customer: { document: "52998224725", name: "Ana" }, amount: 10, descricao: "Aula", configId: config.body.id }, as)
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([503, "PROVIDER_NOT_CONFIGURED", { provider: "nfse" }])
    expect(await sql((s) => s<{ n: string }>`SELECT count(*)::text AS n FROM notas WHERE account_id = ${production.accountId}`)).toEqual([{ n: "0" }])
  })

  it("emits each due note once with two workers at once", async () => {
    const charges = await Promise.all(Array.from({ length: 8 }, () => pixCharge({ nfConfigId: configs.immediate })))
    await Promise.all([emitJob(), emitJob()])
    const rows = await sql((s) => s<{ invoice_id: string }>`SELECT invoice_id FROM notas WHERE invoice_id IN ${s.in(charges)}`)
    expect(rows.map((r) => r.invoice_id).sort()).toEqual([...charges].sort())
  })

  it("lets the database refuse a second standing note, a reused DPS number and any move outside the table", async () => {
    const issued = await notas("", "POST", { customer: { document: "52998224725", name: "Ana" }, amount: 7, descricao: "Aula", configId: configs.immediate })
    const [one] = await sql((s) => s<Json>`SELECT * FROM notas WHERE id = ${issued.body.ref}`)
    const copy = (changes: Json) => ({
      ...one,
      id: `copy_${Math.random()}`,
      seq: undefined,
      tomador: JSON.stringify(one!.tomador),
      errors: JSON.stringify(one!.errors),
      ...changes
    })
    const insert = (row: Json) =>
      engine.run(Effect.flatMap(SqlClient.SqlClient, (s) =>
        s`INSERT INTO notas ${s.insert(Object.fromEntries(Object.entries(row).filter(([k, v]) => k !== "seq" && v !== undefined)) as any)}`.pipe(
          Effect.match({ onSuccess: () => "inserted", onFailure: (e) => inspect(e, { depth: 6 }) })
        )))
    expect(await insert(copy({ dps_number: 999_001 }))).toMatch(/notas_one_standing/)
    expect(await insert(copy({ invoice_id: "other", dps_number: one!.dps_number }))).toMatch(/notas_one_dps/)

    // Every pair of statuses on a throwaway row: exactly the table's moves (and staying) pass.
    const allowed = new Set([...notaStatusPairs().map(([a, b]) => `${a}>${b}`), ...NotaStatus.literals.map((s) => `${s}>${s}`)])
    const tryMove = (from: string, to: string) =>
      engine.run(Effect.flatMap(SqlClient.SqlClient, (s) =>
        s.withTransaction(Effect.gen(function*() {
          const probe = copy({ invoice_id: `pair-${from}-${to}`, dps_number: 990_000, issuer_cnpj: "probe", seq: undefined })
          const row = { ...probe, status: from, replaced_by: one!.id, cancel_reason: "probe", canceled_at: new Date() }
          yield* s`INSERT INTO notas ${s.insert(Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined)) as any)}`
          yield* s`UPDATE notas SET status = ${to} WHERE invoice_id = ${`pair-${from}-${to}`}`
          return yield* Effect.fail("rollback" as const)
        })))).then(() => "impossible", (e) => (String(e).includes("rollback") ? "moved" : inspect(e).includes("cannot move from") ? "refused" : inspect(e)))
    const passed: Array<string> = []
    for (const from of NotaStatus.literals) {
      for (const to of NotaStatus.literals) {
        const outcome = await tryMove(from, to)
        expect(["moved", "refused"]).toContain(outcome)
        if (outcome === "moved") passed.push(`${from}>${to}`)
      }
    }
    expect(new Set(passed)).toEqual(allowed)
  })
})

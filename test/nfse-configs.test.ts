/**
 * Issuer configurations of fiscal invoices (issue 30, step 1) through real
 * HTTP on PostgreSQL: created with a modern and a legacy RC2-40 A1
 * certificate made here, every refusal with its code and field and nothing
 * stored after it, the list with the account's defaults, update merging
 * `prefeitura`, delete, the secrets never answered nor stored in clear, and
 * the scopes.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestPki, MERCHANT_CNPJ } from "../packages/providers/test/support/TestCertificates.ts"
import { startEngine, type TestEngine } from "./support/Engine.ts"

type Json = { readonly [key: string]: any }

const DAY = 86_400_000
const pki = makeTestPki()
// The same issuer's certificate as it was two years ago: valid then, expired a year ago.
const expiredPki = makeTestPki(Date.now() - 730 * DAY)
const certificate = { pfx_base64: pki.client.pfx.toString("base64"), password: pki.passphrase }
const legacyCertificate = { pfx_base64: pki.client.legacyPfx.toString("base64"), password: pki.passphrase }
const PORTAL_PASSWORD = "senha-do-portal-da-prefeitura"

/** Brasília, on the national system's list; São Paulo is not (its own municipal system). */
const NATIONAL_CITY = "5300108"
const MUNICIPAL_CITY = "3550308"

/** A national configuration of an ME/EPP in the Simples Nacional, the CNPJ left to the account record. */
const national = (extra: Json = {}): Json => ({
  config_name: "Serviços Brasília",
  codigo_tributacao_nacional_iss: "010701",
  tributacao_iss: 1,
  tipo_retencao_iss: 1,
  percentual_total_tributos_simples_nacional: 6,
  prestador: { codigo_municipio: NATIONAL_CITY, codigo_opcao_simples_nacional: 3, regime_especial_tributacao: 0 },
  certificate,
  ...extra
})

const municipal = (extra: Json = {}): Json => ({
  config_name: "Serviços São Paulo",
  item_lista_servico: "01.07",
  aliquota_iss: 2.5,
  prestador: { codigo_municipio: MUNICIPAL_CITY, codigo_opcao_simples_nacional: 1, regime_especial_tributacao: 0, inscricao_municipal: "12345678" },
  prefeitura: { login: "loja", senha: PORTAL_PASSWORD, serie_rps: "A1", proximo_numero_rps: 10 },
  certificate: legacyCertificate,
  ...extra
})

describe("NFS-e issuer configurations on postgres", () => {
  let engine: TestEngine
  let accountId: string
  let headers: Record<string, string>
  /** Every response body this suite received, to look for secrets in. */
  const answered: Array<string> = []
  const send = async (method: string, path: string, body?: unknown, as = headers) => {
    const response = await fetch(`${engine.baseUrl}/v1/invoices/notas/config${path}`, {
      method,
      headers: as,
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    answered.push(text)
    return { status: response.status, text, body: JSON.parse(text) as Json }
  }
  const rows = () =>
    engine.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<Json>`SELECT * FROM nfse_configs WHERE account_id = ${accountId} ORDER BY created_at`))

  beforeAll(async () => {
    engine = await startEngine("postgres")
    const account = await engine.createAccount({ name: "Loja Exemplo Ltda", document: MERCHANT_CNPJ, email: "fiscal@loja.example" })
    accountId = account.accountId
    headers = { authorization: `Bearer ${await engine.token(account, "nota.fiscal/write nota.fiscal/read")}`, "content-type": "application/json" }
  })
  afterAll(() => engine?.dispose())

  it("creates a national configuration from a PKCS#12 file, its blanks filled from the account and the spec's defaults", async () => {
    const created = await send("POST", "", national())
    expect(created.status, created.text).toBe(201)
    expect(created.body.id).toMatch(/^SANDBOX_nfc_/)
    expect(created.body).toMatchObject({
      accountId,
      config_name: "Serviços Brasília",
      tipo: "nacional",
      tipo_nf: null,
      razao_social: "Loja Exemplo Ltda",
      enabled: true,
      invoiceTiming: "IMMEDIATE",
      daysAfterConfirmation: 1,
      enviar_email_destinatario: true,
      serie_dps: "1",
      tipo_retencao_pis_cofins: 0,
      regime_tributario_simples_nacional: 1,
      iss_retido: false,
      natureza_operacao: 1,
      codigo_tributacao_nacional_iss: "010701",
      tributacao_iss: 1,
      tipo_retencao_iss: 1,
      percentual_total_tributos_simples_nacional: 6,
      prestador: {
        cnpj: MERCHANT_CNPJ,
        email: "fiscal@loja.example",
        codigo_municipio: NATIONAL_CITY,
        codigo_municipio_prestacao: NATIONAL_CITY,
        codigo_opcao_simples_nacional: 3,
        regime_especial_tributacao: 0
      },
      prefeitura: { has_senha: false, login: null, serie_rps: null, proximo_numero_rps: null },
      // forge writes validity to the second.
      certificate: { has_certificate: true, expiry_date: new Date(Math.floor(pki.notAfter.getTime() / 1000) * 1000).toISOString() }
    })
    expect(Object.keys(created.body.certificate).sort()).toEqual(["expiry_date", "has_certificate"])
  })

  it("creates a municipal configuration from a legacy RC2-40 file; tipo_nf forces the national standard", async () => {
    const created = await send("POST", "", municipal())
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({
      tipo: "municipal",
      item_lista_servico: "01.07",
      aliquota_iss: 2.5,
      prefeitura: { login: "loja", serie_rps: "A1", proximo_numero_rps: 10, has_senha: true },
      certificate: { has_certificate: true }
    })
    // Forced national in a municipal city, the national fields become required.
    const forced = await send("POST", "", municipal({ tipo_nf: "nacional" }))
    expect(forced.status, forced.text).toBe(400)
    expect(forced.body.error).toMatchObject({
      code: "MISSING_FIELDS",
      details: { fields: ["codigo_tributacao_nacional_iss", "tributacao_iss", "tipo_retencao_iss"] }
    })
    const both = await send("POST", "", municipal({
      tipo_nf: "nacional",
      codigo_tributacao_nacional_iss: "010701",
      tributacao_iss: 1,
      tipo_retencao_iss: 1,
      situacao_tributaria_pis_cofins: "01",
      aliquota_pis: 0.65,
      aliquota_cofins: 3
    }))
    expect(both.status, both.text).toBe(201)
    expect(both.body).toMatchObject({ tipo: "nacional", tipo_nf: "nacional", situacao_tributaria_pis_cofins: "01", aliquota_pis: 0.65, aliquota_cofins: 3 })
  })

  it("refuses every broken rule with its code and field, and stores nothing", async () => {
    const prestador = national().prestador
    const cases: ReadonlyArray<readonly [string, Json, number, string, string]> = [
      ["6-digit service code", national({ codigo_tributacao_nacional_iss: "01070" }), 400, "INVALID_DATA", "codigo_tributacao_nacional_iss"],
      ["tributacao_iss 1..4", national({ tributacao_iss: 5 }), 400, "INVALID_DATA", "tributacao_iss"],
      ["tipo_retencao_iss 1..3", national({ tipo_retencao_iss: 0 }), 400, "INVALID_DATA", "tipo_retencao_iss"],
      ["CNPJ check digits", national({ prestador: { ...prestador, cnpj: "11444777000162" } }), 400, "INVALID_DATA", "cnpj"],
      ["IBGE code of 7 digits", national({ prestador: { ...prestador, codigo_municipio: "530010" } }), 400, "INVALID_DATA", "codigo_municipio"],
      ["Simples option 1..3", national({ prestador: { ...prestador, codigo_opcao_simples_nacional: 4 } }), 400, "INVALID_DATA", "codigo_opcao_simples_nacional"],
      ["NN.NN service item", municipal({ item_lista_servico: "1.07" }), 400, "INVALID_DATA", "item_lista_servico"],
      ["a percentage", municipal({ aliquota_iss: 100.01 }), 400, "INVALID_DATA", "aliquota_iss"],
      ["invoiceTiming", national({ invoiceTiming: "LATER" }), 400, "INVALID_DATA", "invoiceTiming"],
      ["daysAfterConfirmation >= 1", national({ invoiceTiming: "DAYS_AFTER_CONFIRMATION", daysAfterConfirmation: 0 }), 400, "INVALID_DATA", "daysAfterConfirmation"],
      ["proximo_numero_rps >= 1", municipal({ prefeitura: { proximo_numero_rps: 0 } }), 400, "INVALID_DATA", "proximo_numero_rps"],
      ["tipo_nf", national({ tipo_nf: "estadual" }), 400, "INVALID_DATA", "tipo_nf"],
      ["national service code missing", national({ codigo_tributacao_nacional_iss: null }), 400, "MISSING_FIELDS", "codigo_tributacao_nacional_iss"],
      ["municipal rate missing", municipal({ aliquota_iss: undefined }), 400, "MISSING_FIELDS", "aliquota_iss"],
      ["city missing", national({ prestador: { codigo_opcao_simples_nacional: 3, regime_especial_tributacao: 0 } }), 400, "MISSING_FIELDS", "prestador.codigo_municipio"],
      ["certificate missing", national({ certificate: undefined }), 400, "MISSING_FIELDS", "certificate.pfx_base64"],
      ["certificate password missing", national({ certificate: { pfx_base64: certificate.pfx_base64 } }), 400, "MISSING_FIELDS", "certificate.password"],
      ["Simples option missing", national({ prestador: { codigo_municipio: NATIONAL_CITY, regime_especial_tributacao: 0 } }), 500, "INTERNAL_ERROR", "prestador.codigo_opcao_simples_nacional"],
      ["special regime missing", national({ prestador: { codigo_municipio: NATIONAL_CITY, codigo_opcao_simples_nacional: 3 } }), 500, "INTERNAL_ERROR", "prestador.regime_especial_tributacao"],
      ["Simples percentage missing (ME/EPP)", national({ percentual_total_tributos_simples_nacional: undefined }), 500, "INTERNAL_ERROR", "percentual_total_tributos_simples_nacional"],
      ["PIS missing (not optant)", national({ prestador: { ...prestador, codigo_opcao_simples_nacional: 1 }, situacao_tributaria_pis_cofins: "01", aliquota_cofins: 3 }), 500, "INTERNAL_ERROR", "aliquota_pis"],
      ["wrong certificate password", national({ certificate: { ...certificate, password: "outra" } }), 400, "NF_CONFIG_SYNC_FAILED", "certificate.password"],
      ["not a PKCS#12 file", national({ certificate: { pfx_base64: Buffer.from("não é um certificado").toString("base64"), password: "x" } }), 400, "NF_CONFIG_SYNC_FAILED", "certificate.pfx_base64"],
      ["not base64", national({ certificate: { pfx_base64: "%%%", password: "x" } }), 400, "NF_CONFIG_SYNC_FAILED", "certificate.pfx_base64"],
      ["expired certificate", national({ certificate: { pfx_base64: expiredPki.client.pfx.toString("base64"), password: expiredPki.passphrase } }), 400, "NF_CONFIG_SYNC_FAILED", "certificate.pfx_base64"],
      ["another CNPJ's certificate", national({ prestador: { ...prestador, cnpj: "11.222.333/0001-81" } }), 400, "NF_CONFIG_SYNC_FAILED", "prestador.cnpj"],
      // Receita Federal's example of an alphanumeric CNPJ: a valid format, not the certificate's.
      ["alphanumeric CNPJ, not the certificate's", national({ prestador: { ...prestador, cnpj: "12.ABC.345/01DE-35" } }), 400, "NF_CONFIG_SYNC_FAILED", "prestador.cnpj"]
    ]
    const before = await rows()
    for (const [rule, body, status, code, field] of cases) {
      const response = await send("POST", "", body)
      expect(response.status, `${rule}: ${response.text}`).toBe(status)
      expect(response.body.error.code, rule).toBe(code)
      expect(JSON.stringify(response.body.error.details), rule).toContain(field)
    }
    expect((await rows()).length).toBe(before.length)
    const reasons = async (body: Json) => (await send("POST", "", body)).body.error.details.reason
    expect(await reasons(national({ certificate: { ...certificate, password: "outra" } }))).toBe("CERTIFICATE_WRONG_PASSWORD")
    expect(await reasons(national({ certificate: { pfx_base64: expiredPki.client.pfx.toString("base64"), password: expiredPki.passphrase } }))).toBe("CERTIFICATE_EXPIRED")
    expect(await reasons(national({ prestador: { ...prestador, cnpj: "12ABC34501DE35" } }))).toBe("CERTIFICATE_CNPJ_MISMATCH")
    // The regime quirk carries the validation message.
    const quirk = await send("POST", "", national({ percentual_total_tributos_simples_nacional: undefined }))
    expect(quirk.body.error.message).toContain("percentual_total_tributos_simples_nacional")
  })

  it("lists the configurations with the account's defaults, and reads one by its nfc_ or unc_ id", async () => {
    const created = (await send("POST", "", national({ config_name: "Para listar" }))).body
    const list = await send("GET", "")
    expect(list.status).toBe(200)
    expect(list.body.items.map((c: Json) => c.id)).toContain(created.id)
    expect(list.body.defaults).toEqual({
      enabled: true,
      razao_social: "Loja Exemplo Ltda",
      invoiceTiming: "IMMEDIATE",
      daysAfterConfirmation: 1,
      enviar_email_destinatario: true,
      serie_dps: "1",
      tipo_retencao_pis_cofins: 0,
      regime_tributario_simples_nacional: 1,
      iss_retido: false,
      natureza_operacao: 1,
      prestador: { cnpj: MERCHANT_CNPJ, email: "fiscal@loja.example" }
    })
    expect((await send("GET", `/${created.id}`)).body).toEqual(created)
    expect((await send("GET", `/${created.id.replace("nfc_", "unc_")}`)).body).toEqual(created)
    const unknown = await send("GET", "/SANDBOX_nfc_doesnotexist")
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("NOTA_CONFIG_NOT_FOUND")
  })

  it("updates by PUT and by POST with an id, merging prefeitura and keeping the certificate", async () => {
    const created = (await send("POST", "", municipal())).body
    const put = await send("PUT", `/${created.id}`, {
      prefeitura: { proximo_numero_rps: 42 },
      invoiceTiming: "DAYS_AFTER_CONFIRMATION",
      daysAfterConfirmation: 3
    })
    expect(put.status, put.text).toBe(200)
    expect(put.body).toMatchObject({
      id: created.id,
      config_name: "Serviços São Paulo",
      invoiceTiming: "DAYS_AFTER_CONFIRMATION",
      daysAfterConfirmation: 3,
      prefeitura: { login: "loja", serie_rps: "A1", proximo_numero_rps: 42, has_senha: true },
      certificate: created.certificate,
      createdAt: created.createdAt
    })
    const viaPost = await send("POST", "", { id: created.id.replace("nfc_", "unc_"), enabled: false, prefeitura: { login: "loja2" } })
    expect(viaPost.status, viaPost.text).toBe(201)
    expect(viaPost.body).toMatchObject({ id: created.id, enabled: false, prefeitura: { login: "loja2", proximo_numero_rps: 42, has_senha: true } })
    expect((await send("GET", "")).body.items.filter((c: Json) => c.id === created.id)).toHaveLength(1)
    // A refused update changes nothing: a bad certificate, or a CNPJ the stored certificate is not of.
    const stored = (await send("GET", `/${created.id}`)).body
    const badCertificate = await send("PUT", `/${created.id}`, { config_name: "Outro", certificate: { ...legacyCertificate, password: "errada" } })
    expect(badCertificate.body.error).toMatchObject({ code: "NF_CONFIG_SYNC_FAILED", details: { field: "certificate.password" } })
    const otherCnpj = await send("PUT", `/${created.id}`, { prestador: { ...municipal().prestador, cnpj: "11222333000181" } })
    expect(otherCnpj.body.error).toMatchObject({ code: "NF_CONFIG_SYNC_FAILED", details: { reason: "CERTIFICATE_CNPJ_MISMATCH" } })
    expect((await send("GET", `/${created.id}`)).body).toEqual(stored)
    const unknown = await send("PUT", "/SANDBOX_nfc_doesnotexist", { enabled: true })
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "NOTA_CONFIG_NOT_FOUND"])
  })

  it("deletes a configuration: gone from its routes and from new notes, kept marked for the notes it issued", async () => {
    const created = (await send("POST", "", national({ config_name: "Para apagar" }))).body
    const removed = await send("DELETE", `/${created.id}`)
    expect(removed.status).toBe(200)
    expect(removed.body).toMatchObject({ success: true, id: created.id })
    expect((await send("GET", `/${created.id}`)).status).toBe(404)
    const again = await send("DELETE", `/${created.id}`)
    expect([again.status, again.body.error.code]).toEqual([404, "NOTA_CONFIG_NOT_FOUND"])
    // Kept, marked removed: the notes issued under it are still canceled and printed with its certificate.
    expect((await rows()).find((r) => r.id === created.id)?.removed_at).toBeInstanceOf(Date)
    expect((await send("GET", "")).body.items.map((c: Json) => c.id)).not.toContain(created.id)
  })

  it("never answers the certificate, its password or the portal password, and stores them sealed", async () => {
    const secrets = [certificate.pfx_base64, legacyCertificate.pfx_base64, pki.passphrase, PORTAL_PASSWORD]
    for (const text of answered) for (const secret of secrets) expect(text.includes(secret)).toBe(false)
    const stored = await rows()
    expect(stored.length).toBeGreaterThan(2)
    for (const row of stored) {
      expect(row.certificate_pfx).toMatch(/^sealed:v1:/)
      expect(row.certificate_password).toMatch(/^sealed:v1:/)
      if (row.prefeitura_senha !== null) expect(row.prefeitura_senha).toMatch(/^sealed:v1:/)
      const text = JSON.stringify(row)
      for (const secret of secrets) expect(text.includes(secret)).toBe(false)
    }
    expect(stored.some((row) => row.prefeitura_senha !== null)).toBe(true)
  })

  it("requires nota.fiscal/write to change and nota.fiscal/read to look", async () => {
    const account = await engine.createAccount({ document: MERCHANT_CNPJ })
    const readOnly = { authorization: `Bearer ${await engine.token(account, "nota.fiscal/read")}`, "content-type": "application/json" }
    const writeOnly = { authorization: `Bearer ${await engine.token(account, "nota.fiscal/write")}`, "content-type": "application/json" }
    expect((await send("POST", "", national(), readOnly)).status).toBe(401)
    expect((await send("GET", "", undefined, readOnly)).status).toBe(200)
    const created = await send("POST", "", national(), writeOnly)
    expect(created.status).toBe(201)
    expect((await send("GET", "", undefined, writeOnly)).status).toBe(401)
    expect((await send("PUT", `/${created.body.id}`, { enabled: false }, readOnly)).status).toBe(401)
    expect((await send("DELETE", `/${created.body.id}`, undefined, readOnly)).status).toBe(401)
    expect((await send("GET", `/${created.body.id}`, undefined, readOnly)).body.enabled).toBe(true)
  })
})

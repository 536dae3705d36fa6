/**
 * The rules of an issuer configuration that decoding cannot check: what an
 * update keeps, merges and replaces, what the account fills in, and which
 * absence is a 400 and which the spec's 500.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import type { Account } from "../../src/domain/Account.ts"
import { NfseConfigInput } from "../../src/domain/NfseConfig.ts"
import { buildSettings, certificateGaps, defaultsOf, requiredProblem } from "../../src/nfse/ConfigRules.ts"
import { canonicalConfigId } from "../../src/nfse/Configs.ts"
import { standardOf } from "../../src/nfse/NationalCities.ts"

const account = { name: "Loja Exemplo", document: "11444777000161", email: "fiscal@loja.example" } as Account
const defaults = defaultsOf(account)

/** A request body as the HTTP edge decodes it. */
const input = Schema.decodeUnknownSync(NfseConfigInput)

const municipal = input({
  item_lista_servico: "01.07",
  aliquota_iss: 2,
  prestador: { codigo_municipio: "3550308", codigo_opcao_simples_nacional: 2, regime_especial_tributacao: 0, inscricao_municipal: "123" },
  prefeitura: { login: "loja", serie_rps: "A1", proximo_numero_rps: 10 }
})

describe("issuer configuration rules", () => {
  it("fills a new configuration from the account and the spec's defaults", () => {
    const settings = buildSettings(municipal, undefined, defaults)
    expect(settings.razao_social).toBe("Loja Exemplo")
    expect(settings.prestador).toMatchObject({ cnpj: "11444777000161", email: "fiscal@loja.example", codigo_municipio_prestacao: "3550308" })
    expect(settings).toMatchObject({ enabled: true, invoiceTiming: "IMMEDIATE", daysAfterConfirmation: 1, serie_dps: "1", iss_retido: false })
    // A CPF account has no CNPJ to lend.
    expect(defaultsOf({ ...account, document: "52998224725" } as Account).prestador.cnpj).toBeNull()
  })

  it("on update merges prefeitura key by key, replaces prestador whole, and keeps what is not sent", () => {
    const stored = buildSettings(municipal, undefined, defaults)
    const updated = buildSettings(input({ prefeitura: { proximo_numero_rps: 11 }, prestador: { codigo_municipio: "3550308" }, enabled: false }), stored, defaults)
    expect(updated.prefeitura).toEqual({ login: "loja", serie_rps: "A1", proximo_numero_rps: 11 })
    expect(updated.prestador).toMatchObject({ cnpj: "11444777000161", inscricao_municipal: null, codigo_opcao_simples_nacional: null })
    expect(updated).toMatchObject({ enabled: false, item_lista_servico: "01.07", aliquota_iss: 2 })
  })

  it("decides the standard by the city unless tipo_nf forces it", () => {
    const settings = buildSettings(municipal, undefined, defaults)
    expect(standardOf(settings)).toBe("municipal")
    expect(standardOf({ ...settings, prestador: { ...settings.prestador, codigo_municipio: "5300108" } })).toBe("nacional")
    expect(standardOf({ ...settings, tipo_nf: "nacional" })).toBe("nacional")
  })

  it("answers a missing field 400 MISSING_FIELDS and a missing regime field 500 INTERNAL_ERROR, fields first", () => {
    const ok = buildSettings(municipal, undefined, defaults)
    expect(requiredProblem(ok, [])).toBeUndefined()
    const noRate = requiredProblem({ ...ok, aliquota_iss: null, prestador: { ...ok.prestador, codigo_opcao_simples_nacional: null } }, ["certificate.password"])
    expect(noRate).toMatchObject({ _tag: "MISSING_FIELDS", details: { fields: ["aliquota_iss", "certificate.password"] } })
    const noOption = requiredProblem({ ...ok, prestador: { ...ok.prestador, codigo_opcao_simples_nacional: null } }, [])
    expect(noOption).toMatchObject({ _tag: "INTERNAL_ERROR", details: { field: "prestador.codigo_opcao_simples_nacional" } })
    // The Simples fields are the national standard's: a municipal configuration does not need them.
    const national = { ...ok, tipo_nf: "nacional" as const, codigo_tributacao_nacional_iss: "010701", tributacao_iss: 1, tipo_retencao_iss: 1 }
    expect(requiredProblem(national, [])).toMatchObject({ _tag: "INTERNAL_ERROR", details: { field: "percentual_total_tributos_simples_nacional" } })
  })

  it("asks for a certificate whole, and for one only when creating", () => {
    expect(certificateGaps({}, true)).toEqual(["certificate.pfx_base64", "certificate.password"])
    expect(certificateGaps({}, false)).toEqual([])
    expect(certificateGaps(input({ certificate: { pfx_base64: "MII" } }), false)).toEqual(["certificate.password"])
  })

  it("reads unc_ ids as the nfc_ configuration they name", () => {
    expect(canonicalConfigId("unc_abc")).toBe("nfc_abc")
    expect(canonicalConfigId("SANDBOX_unc_abc")).toBe("SANDBOX_nfc_abc")
    expect(canonicalConfigId("nfc_abc")).toBe("nfc_abc")
  })
})

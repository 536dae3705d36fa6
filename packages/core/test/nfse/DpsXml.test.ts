/**
 * The DPS of layout 1.01 as the national system's schema sees it: every
 * configuration the issuer may have (Simples Nacional options 1, 2 and 3),
 * takers with CPF or CNPJ, with and without address, and text that needs
 * escaping validate against the official `DPS_v1.01.xsd`; values read back
 * with a real parser are the ones worked out by hand.
 */
import { DOMParser } from "@xmldom/xmldom"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import type { NfseSettings } from "../../src/domain/NfseConfig.ts"
import type { NotaToIssue } from "../../src/domain/Nota.ts"
import { cents } from "../../src/money/Money.ts"
import { dhEmi, dpsId, dpsXml, NFSE_NAMESPACE } from "../../src/nfse/DpsXml.ts"
import { address, nota, options, settings, simples } from "./DpsFixtures.ts"
import { referenceFile, validateAgainst } from "./NfseSchemas.ts"

const build = (s: NfseSettings, n: NotaToIssue = nota) => {
  const built = dpsXml(s, n, options)
  if (Result.isFailure(built)) throw new Error(built.failure.message)
  return built.success
}

const parse = (xml: string) => new DOMParser().parseFromString(xml, "text/xml")

/** The text of the first element `name` in the document, or undefined. */
const text = (xml: string, name: string) => parse(xml).getElementsByTagNameNS(NFSE_NAMESPACE, name)[0]?.textContent ?? undefined

const names = (xml: string, parent: string) => {
  const node = parse(xml).getElementsByTagNameNS(NFSE_NAMESPACE, parent)[0]
  return node === undefined ? [] : Array.from(node.childNodes).map((child) => (child as { localName?: string }).localName)
}

describe("dpsId", () => {
  it("is DPS, city, document type, document, series and number, zero-padded to 45 characters", () => {
    // 3 + 7 + 1 + 14 + 5 + 15
    expect(dpsId("5300108", "11444777000161", "1", 42)).toBe("DPS" + "5300108" + "2" + "11444777000161" + "00001" + "000000000000042")
    expect(dpsId("5300108", "11444777000161", "1", 42)).toHaveLength(45)
    // A CPF issuer: type 1, the CPF padded to 14.
    expect(dpsId("3550308", "52998224725", "12345", 999_999_999_999_999)).toBe("DPS355030810005299822472512345999999999999999")
  })

  it("gives the Id of the official example from its own fields", () => {
    const example = parse(referenceFile("dps_example.xml"))
    const infDps = example.getElementsByTagNameNS(NFSE_NAMESPACE, "infDPS")[0]!
    expect(dpsId("1505486", "44827692000111", "900", 31)).toBe(infDps.getAttribute("Id"))
  })
})

describe("dhEmi", () => {
  it("is Brasília time with its offset, to the second", () => {
    expect(dhEmi(new Date("2026-03-10T15:04:05.678Z"))).toBe("2026-03-10T12:04:05-03:00")
    // Past midnight UTC it is still the previous day in Brasília.
    expect(dhEmi(new Date("2026-01-01T01:30:00Z"))).toBe("2025-12-31T22:30:00-03:00")
  })
})

describe("the DPS of layout 1.01", () => {
  it("validates for an issuer outside the Simples Nacional (PIS/COFINS) and a CPF taker without address", async () => {
    const dps = build(settings)
    expect(await validateAgainst("DPS_v1.01.xsd", dps.xml)).toEqual({ valid: true, errors: [] })
    expect(dps.xml.startsWith(`<?xml version="1.0" encoding="UTF-8"?><DPS xmlns="${NFSE_NAMESPACE}" versao="1.01"><infDPS Id="`)).toBe(true)
    expect(dps.id).toBe("DPS530010821144477700016100001000000000000042")
    expect(parse(dps.xml).getElementsByTagNameNS(NFSE_NAMESPACE, "infDPS")[0]!.getAttribute("Id")).toBe(dps.id)
    expect(text(dps.xml, "nDPS")).toBe("42")
    expect(text(dps.xml, "dhEmi")).toBe("2026-03-10T12:04:05-03:00")
    expect(text(dps.xml, "vServ")).toBe("1234.56")
    // 1234.56 × 0.65% = 8.02464 → 8.02; × 3% = 37.0368 → 37.04 (half up).
    expect(text(dps.xml, "vBCPisCofins")).toBe("1234.56")
    expect(text(dps.xml, "pAliqPis")).toBe("0.65")
    expect(text(dps.xml, "vPis")).toBe("8.02")
    expect(text(dps.xml, "pAliqCofins")).toBe("3.00")
    expect(text(dps.xml, "vCofins")).toBe("37.04")
    expect(text(dps.xml, "tpRetPisCofins")).toBe("2")
    expect(text(dps.xml, "CPF")).toBe("52998224725")
    expect(text(dps.xml, "fone")).toBe("6133334444")
    expect(names(dps.xml, "toma")).toEqual(["CPF", "xNome", "email"])
    expect(names(dps.xml, "totTrib")).toEqual(["indTotTrib"])
    expect(names(dps.xml, "regTrib")).toEqual(["opSimpNac", "regEspTrib"])
    expect(text(dps.xml, "tpAmb")).toBe("2")
  })

  it("validates for a MEI (option 2) with a CNPJ taker and its address; no PIS/COFINS, the Simples percentage", async () => {
    const withCnpj = { ...nota, tomador: { document: "11.222.333/0001-81", name: "Cliente Ltda", email: null, address } }
    const dps = build(simples(2), withCnpj)
    expect(await validateAgainst("DPS_v1.01.xsd", dps.xml)).toEqual({ valid: true, errors: [] })
    expect(text(dps.xml, "CNPJ")).toBe("11444777000161")
    expect(names(dps.xml, "toma")).toEqual(["CNPJ", "xNome", "end"])
    expect(text(dps.xml, "CEP")).toBe("70297400")
    // The em dash is outside the schema's Latin-1 strings; the accents are inside.
    expect(text(dps.xml, "xLgr")).toBe("Rua São João bloco B")
    expect(text(dps.xml, "pTotTribSN")).toBe("6.00")
    expect(names(dps.xml, "trib")).toEqual(["tribMun", "totTrib"])
    expect(names(dps.xml, "regTrib")).toEqual(["opSimpNac", "regEspTrib"])
  })

  it("validates for an ME/EPP (option 3) with its apportionment regime and a description that needs escaping", async () => {
    const descricao = `Consultoria <fase 1> & "suporte" d'água, ação e manutenção`
    const dps = build(simples(3), { ...nota, descricao, tomador: { ...nota.tomador, address } })
    expect(await validateAgainst("DPS_v1.01.xsd", dps.xml)).toEqual({ valid: true, errors: [] })
    expect(dps.xml).toContain(`<xDescServ>Consultoria &lt;fase 1&gt; &amp; "suporte" d'água, ação e manutenção</xDescServ>`)
    expect(text(dps.xml, "xDescServ")).toBe(descricao)
    expect(names(dps.xml, "regTrib")).toEqual(["opSimpNac", "regApTribSN", "regEspTrib"])
    expect(text(dps.xml, "regApTribSN")).toBe("2")
    expect(names(dps.xml, "toma")).toEqual(["CPF", "xNome", "end", "email"])
  })

  it("validates with the three tax percentages and withheld IRRF and CSLL outside the Simples Nacional", async () => {
    const taxed = {
      ...settings,
      percentual_total_tributos_federais: 13.45,
      percentual_total_tributos_estaduais: 0,
      percentual_total_tributos_municipais: 5,
      aliquota_irrf: 1.5,
      aliquota_csll: 1
    }
    const dps = build(taxed, { ...nota, amount: cents(100000) })
    expect(await validateAgainst("DPS_v1.01.xsd", dps.xml)).toEqual({ valid: true, errors: [] })
    expect(names(dps.xml, "pTotTrib")).toEqual(["pTotTribFed", "pTotTribEst", "pTotTribMun"])
    expect([text(dps.xml, "pTotTribFed"), text(dps.xml, "pTotTribEst"), text(dps.xml, "pTotTribMun")]).toEqual(["13.45", "0.00", "5.00"])
    // 1000.00 × 1.5% = 15.00; × 1% = 10.00.
    expect([text(dps.xml, "vRetIRRF"), text(dps.xml, "vRetCSLL")]).toEqual(["15.00", "10.00"])
    expect(text(dps.xml, "vServ")).toBe("1000.00")
  })

  it("writes small amounts with two decimals and the number as large as the layout takes", async () => {
    const dps = build(settings, { ...nota, amount: cents(7), dpsNumber: 999_999_999_999_999, serie: "00900" })
    expect(await validateAgainst("DPS_v1.01.xsd", dps.xml)).toEqual({ valid: true, errors: [] })
    expect(text(dps.xml, "vServ")).toBe("0.07")
    expect(text(dps.xml, "nDPS")).toBe("999999999999999")
    expect(dps.id.slice(-20)).toBe("00900999999999999999")
  })

  it("names what is missing or unfit instead of writing a DPS the system would refuse", () => {
    const incomplete = dpsXml(
      { ...settings, codigo_tributacao_nacional_iss: null, prestador: { ...settings.prestador, cnpj: "12ABC34501DE35" } },
      { ...nota, tomador: { ...nota.tomador, name: "  " } },
      { ambiente: 1, codigoNbs: null }
    )
    expect(Result.isFailure(incomplete) && incomplete.failure.fields).toEqual(["prestador.cnpj", "codigo_tributacao_nacional_iss", "codigo_nbs", "tomador.name"])
    const noSimplesPercentage = dpsXml({ ...simples(3), percentual_total_tributos_simples_nacional: null }, nota, options)
    expect(Result.isFailure(noSimplesPercentage) && noSimplesPercentage.failure.fields).toEqual(["percentual_total_tributos_simples_nacional"])
  })

  it("has a live validator: the official example of layout 1.00 is refused", async () => {
    const result = await validateAgainst("DPS_v1.01.xsd", referenceFile("dps_example.xml"))
    expect(result.valid).toBe(false)
    expect(result.errors.join("\n")).toMatch(/versao/)
    expect(result.errors.join("\n")).toMatch(/cNBS/)
  })
})

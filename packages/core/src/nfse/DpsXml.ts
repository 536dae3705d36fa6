/**
 * The DPS (Declaração de Prestação de Serviço) of the national NFS-e
 * system, layout 1.01 (`DPS_v1.01.xsd`): what the engine sends to Sefin
 * Nacional for a note, built from the issuer's settings and the note.
 *
 * Plain strings, no DOM and no `node:` module, so that the core runs in any
 * JavaScript runtime. The document is written compact (no whitespace
 * between elements) and with text escaped exactly as Canonical XML 1.0
 * escapes it, so that the `infDPS` element as written is already its own
 * canonical form once the inherited default namespace is added: the
 * signature (`@billing/providers`, `nfse/DpsSignature.ts`) digests it
 * without a parser.
 */
import { Result, Schema } from "effect"
import { documentKind, normalizeDocument } from "../brazil/Documents.ts"
import type { NfseSettings } from "../domain/NfseConfig.ts"
import type { NotaToIssue, Tomador, TomadorAddress } from "../domain/Nota.ts"
import { type Cents, cents, toDecimalString } from "../money/Money.ts"
import { parsePercent, percentOf, roundHalfUp } from "../money/Rounding.ts"

/** The namespace of every national NFS-e document. */
export const NFSE_NAMESPACE = "http://www.sped.fazenda.gov.br/nfse"

/** The layout this module writes. */
export const DPS_VERSION = "1.01"

/** `tpAmb`: 1 production, 2 homologation (the "produção restrita"). */
export type Ambiente = 1 | 2

export interface DpsOptions {
  readonly ambiente: Ambiente
  /**
   * `cNBS`, the service's code in the Nomenclatura Brasileira de Serviços (9
   * digits), which layout 1.01 requires: the configuration's `codigo_nbs`
   * (a field the engine added to the spec's), passed by the caller.
   */
  readonly codigoNbs: string | null
  /** `verAplic`, the application that wrote the DPS (1 to 20 characters). */
  readonly verAplic?: string
}

/** Written as `verAplic` unless the caller names another. */
export const VER_APLIC = "billing-engine-0.1"

/**
 * The settings or the note lack what the national layout requires, or hold
 * a value it cannot carry; `fields` names each (setting names as the spec
 * writes them, note fields as `NotaToIssue` does), for `NF_INCOMPLETE_DATA`.
 */
export class DpsIncomplete extends Schema.TaggedError<DpsIncomplete>()("DpsIncomplete", {
  message: Schema.String,
  fields: Schema.Array(Schema.String)
}) {}

// --- Text --------------------------------------------------------------------

/** Characters XML 1.0 does not allow at all (C0 controls but tab and newline, lone surrogates, U+FFFE/U+FFFF). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Text content escaped as Canonical XML writes it (`&`, `<`, `>`; quotes
 * stay), after line ends are made `\n` as a parser would make them: what is
 * written is then exactly what a verifier canonicalizes.
 */
export const escapeText = (value: string): string =>
  value
    .replace(NOT_XML, "")
    .replace(/\r\n?/g, "\n")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")

/**
 * A value for the schema's `TSString` fields (addresses, e-mail): one line
 * of characters from U+0020 to U+00FF, no space at either end. Accented
 * letters outside Latin-1 lose their accent; anything else outside it is
 * dropped. Longer values are cut at `max`.
 */
export const latin1 = (value: string, max: number): string =>
  value
    .normalize("NFC")
    .replace(/\s/g, " ")
    .replace(/[^\u0020-\u007E\u00A0-\u00FF]/gu, (char) => char.normalize("NFD").replace(/[^\u0020-\u007E\u00A0-\u00FF]/g, ""))
    .replace(/ {2,}/g, " ")
    .trim()
    .slice(0, max)
    .trim()

/** A name (`TSNomeRazaoSocial`): any characters on one line, 1 to 300. */
const oneLine = (value: string, max: number): string => value.replace(/\s+/g, " ").trim().slice(0, max).trim()

const element = (name: string, content: string): string => `<${name}>${content}</${name}>`

/** `<name>value</name>`, escaped. */
const leaf = (name: string, value: string | number): string => element(name, escapeText(String(value)))

/** A leaf only when there is a value. */
const optionalLeaf = (name: string, value: string | null | undefined): string =>
  value === null || value === undefined || value === "" ? "" : leaf(name, value)

/** Reais with two decimals (`TSDec15V2`), from centavos. */
const reais = (amount: Cents): string => toDecimalString(amount)

/** A percentage with two decimals (`TSDec2V2`, `TSDec3V2`), from hundredths: 65 → `0.65`. */
const percent = (hundredths: number): string => toDecimalString(cents(hundredths))

/** Hundredths of a percent of a stored rate (stored with at most two decimals). */
const hundredthsOf = (rate: number): number => parsePercent(rate) ?? 0

// --- Identity ----------------------------------------------------------------

/**
 * `infDPS/@Id`: `DPS`, the issuer's city (7), its document type (1 CPF, 2
 * CNPJ), its document zero-padded to 14, the series zero-padded to 5 and the
 * DPS number zero-padded to 15: 45 characters.
 */
export const dpsId = (codigoMunicipio: string, document: string, serie: string, numero: number): string =>
  `DPS${codigoMunicipio}${document.length === 11 ? "1" : "2"}${document.padStart(14, "0")}${serie.padStart(5, "0")}${String(numero).padStart(15, "0")}`

/** `dhEmi`: Brasília time with its offset (the schema wants `-03:00`, not `Z`), to the second. */
export const dhEmi = (at: Date): string => `${new Date(at.getTime() - 3 * 3_600_000).toISOString().slice(0, 19)}-03:00`

// --- Checks ------------------------------------------------------------------

const LARGEST_DPS_NUMBER = 999_999_999_999_999

/** What the layout needs and the settings, the note or the options lack (or hold in a form it cannot carry). */
const problems = (settings: NfseSettings, nota: NotaToIssue, options: DpsOptions): ReadonlyArray<string> => {
  const prestador = settings.prestador
  const option = prestador.codigo_opcao_simples_nacional
  const checks: ReadonlyArray<readonly [string, boolean]> = [
    // The layout's CNPJ is 14 digits: an alphanumeric CNPJ does not fit layout 1.01.
    ["prestador.cnpj", prestador.cnpj !== null && /^\d{14}$/.test(prestador.cnpj)],
    ["prestador.codigo_municipio", prestador.codigo_municipio !== null && /^\d{7}$/.test(prestador.codigo_municipio)],
    ["prestador.codigo_opcao_simples_nacional", option !== null],
    ["prestador.regime_especial_tributacao", prestador.regime_especial_tributacao !== null],
    ["codigo_tributacao_nacional_iss", settings.codigo_tributacao_nacional_iss !== null],
    ["codigo_nbs", options.codigoNbs !== null && /^\d{9}$/.test(options.codigoNbs)],
    ["tributacao_iss", settings.tributacao_iss !== null],
    ["tipo_retencao_iss", settings.tipo_retencao_iss !== null],
    ["situacao_tributaria_pis_cofins", option !== 1 || settings.situacao_tributaria_pis_cofins !== null],
    ["percentual_total_tributos_simples_nacional", option === 1 || option === null || settings.percentual_total_tributos_simples_nacional !== null],
    ["serie", /^\d{1,5}$/.test(nota.serie) && !/^0+$/.test(nota.serie)],
    ["dpsNumber", Number.isSafeInteger(nota.dpsNumber) && nota.dpsNumber >= 1 && nota.dpsNumber <= LARGEST_DPS_NUMBER],
    ["competencia", /^20\d\d-\d\d-\d\d$/.test(nota.competencia)],
    ["amount", Number.isSafeInteger(nota.amount) && nota.amount >= 0],
    ["descricao", nota.descricao.trim() !== "" && nota.descricao.length <= 2000],
    ["tomador.document", takerDocument(nota.tomador) !== undefined],
    ["tomador.name", nota.tomador.name !== null && oneLine(nota.tomador.name, 300) !== ""]
  ]
  return checks.filter(([, ok]) => !ok).map(([field]) => field)
}

/** The taker's CPF or numeric CNPJ, the element it goes in. */
const takerDocument = (tomador: Tomador): { readonly element: "CPF" | "CNPJ"; readonly number: string } | undefined => {
  const number = normalizeDocument(tomador.document)
  const kind = documentKind(number)
  return kind === undefined || !/^\d+$/.test(number) ? undefined : { element: kind, number }
}

// --- Groups, in the schema's order ---------------------------------------------

/** `prest` (`TCInfoPrestador`). */
const prest = (settings: NfseSettings): string => {
  const prestador = settings.prestador
  const option = prestador.codigo_opcao_simples_nacional!
  const telefone = prestador.telefone?.replace(/\D/g, "") ?? ""
  // Name and address stay out: when the issuer is the provider the national
  // system takes them from its own register (the official example has
  // neither), and the fewer fields, the fewer chances of a mismatch.
  return element(
    "prest",
    leaf("CNPJ", prestador.cnpj!) +
      optionalLeaf("IM", prestador.inscricao_municipal === null ? null : latin1(prestador.inscricao_municipal, 15)) +
      (telefone.length >= 6 && telefone.length <= 20 ? leaf("fone", telefone) : "") +
      optionalLeaf("email", prestador.email === null ? null : latin1(prestador.email, 80)) +
      element(
        "regTrib",
        leaf("opSimpNac", option) +
          // The apportionment regime is only for ME/EPP (option 3).
          (option === 3 ? leaf("regApTribSN", settings.regime_tributario_simples_nacional) : "") +
          leaf("regEspTrib", prestador.regime_especial_tributacao!)
      )
  )
}

/** `end` of the taker (`TCEndereco`, national), or nothing when the address cannot fill it. */
const endereco = (address: TomadorAddress | null): string => {
  if (address === null) return ""
  const cep = address.zipCode.replace(/\D/g, "")
  const street = latin1(address.street, 255)
  const neighborhood = latin1(address.neighborhood, 60)
  // The address is optional in the layout: one without the city's IBGE
  // code, a CEP, a street or a neighbourhood is left out rather than sent
  // half filled.
  if (address.cityCode === null || !/^\d{7}$/.test(address.cityCode) || cep.length !== 8 || street === "" || neighborhood === "") return ""
  const complement = address.complement === null ? "" : latin1(address.complement, 156)
  return element(
    "end",
    element("endNac", leaf("cMun", address.cityCode) + leaf("CEP", cep)) +
      leaf("xLgr", street) +
      leaf("nro", latin1(address.number, 60) || "S/N") +
      optionalLeaf("xCpl", complement) +
      leaf("xBairro", neighborhood)
  )
}

/** `toma` (`TCInfoPessoa`). */
const toma = (tomador: Tomador): string => {
  const document = takerDocument(tomador)!
  const email = tomador.email === null ? "" : latin1(tomador.email, 80)
  return element(
    "toma",
    leaf(document.element, document.number) +
      leaf("xNome", oneLine(tomador.name!, 300)) +
      endereco(tomador.address) +
      optionalLeaf("email", email)
  )
}

/** `serv` (`TCServ`): where the service was provided and what it is. */
const serv = (settings: NfseSettings, nota: NotaToIssue, codigoNbs: string): string =>
  element(
    "serv",
    element("locPrest", leaf("cLocPrestacao", settings.prestador.codigo_municipio_prestacao ?? settings.prestador.codigo_municipio!)) +
      element(
        "cServ",
        leaf("cTribNac", settings.codigo_tributacao_nacional_iss!) +
          leaf("xDescServ", nota.descricao.trim()) +
          leaf("cNBS", codigoNbs)
      )
  )

/** `tribMun` (`TCTribMunicipal`). The ISS rate is left to the national system, which has each member city's. */
const tribMun = (settings: NfseSettings): string =>
  element("tribMun", leaf("tribISSQN", settings.tributacao_iss!) + leaf("tpRetISSQN", settings.tipo_retencao_iss!))

/** `piscofins` (`TCTribOutrosPisCofins`) of an issuer outside the Simples Nacional: base, rates and amounts of the note. */
const piscofins = (settings: NfseSettings, amount: Cents): string => {
  const pis = settings.aliquota_pis === null ? undefined : hundredthsOf(settings.aliquota_pis)
  const cofins = settings.aliquota_cofins === null ? undefined : hundredthsOf(settings.aliquota_cofins)
  const rated = pis !== undefined || cofins !== undefined
  return element(
    "piscofins",
    leaf("CST", settings.situacao_tributaria_pis_cofins!) +
      (rated ? leaf("vBCPisCofins", reais(amount)) : "") +
      (pis === undefined ? "" : leaf("pAliqPis", percent(pis))) +
      (cofins === undefined ? "" : leaf("pAliqCofins", percent(cofins))) +
      (pis === undefined ? "" : leaf("vPis", reais(percentOf(amount, pis, roundHalfUp)))) +
      (cofins === undefined ? "" : leaf("vCofins", reais(percentOf(amount, cofins, roundHalfUp)))) +
      // The configuration's 1 is "withheld", as the layout's; its 0 (the default) and 2 are "not withheld".
      (rated ? leaf("tpRetPisCofins", settings.tipo_retencao_pis_cofins === 1 ? 1 : 2) : "")
  )
}

/** A withheld federal tax (`vRetIRRF`, `vRetCSLL`) from its configured rate; nothing when there is no rate. */
const withheld = (name: string, rate: number | null, amount: Cents): string =>
  rate === null || hundredthsOf(rate) === 0 ? "" : leaf(name, reais(percentOf(amount, hundredthsOf(rate), roundHalfUp)))

/** `tribFed` (`TCTribFederal`): PIS/COFINS outside the Simples Nacional, and withheld IRRF and CSLL when configured. */
const tribFed = (settings: NfseSettings, amount: Cents): string => {
  const content = (settings.prestador.codigo_opcao_simples_nacional === 1 ? piscofins(settings, amount) : "") +
    withheld("vRetIRRF", settings.aliquota_irrf, amount) +
    withheld("vRetCSLL", settings.aliquota_csll, amount)
  return content === "" ? "" : element("tribFed", content)
}

/**
 * `totTrib` (`TCTribTotal`, Lei 12.741/2012): a Simples Nacional optant
 * gives its total percentage; another issuer the federal, state and
 * municipal percentages when all three are configured, else the indicator
 * that no estimate is given.
 */
const totTrib = (settings: NfseSettings): string => {
  if (settings.prestador.codigo_opcao_simples_nacional !== 1) {
    return element("totTrib", leaf("pTotTribSN", percent(hundredthsOf(settings.percentual_total_tributos_simples_nacional!))))
  }
  const federal = settings.percentual_total_tributos_federais
  const estadual = settings.percentual_total_tributos_estaduais
  const municipal = settings.percentual_total_tributos_municipais
  if (federal === null || estadual === null || municipal === null) return element("totTrib", leaf("indTotTrib", 0))
  return element(
    "totTrib",
    element(
      "pTotTrib",
      leaf("pTotTribFed", percent(hundredthsOf(federal))) +
        leaf("pTotTribEst", percent(hundredthsOf(estadual))) +
        leaf("pTotTribMun", percent(hundredthsOf(municipal)))
    )
  )
}

/** `valores` (`TCInfoValores`): the service's amount and its taxes. */
const valores = (settings: NfseSettings, amount: Cents): string =>
  element(
    "valores",
    element("vServPrest", leaf("vServ", reais(amount))) +
      element("trib", tribMun(settings) + tribFed(settings, amount) + totTrib(settings))
  )

/** `infDPS` (`TCInfDPS`), the element the signature covers. */
const infDps = (settings: NfseSettings, nota: NotaToIssue, options: DpsOptions, id: string): string =>
  `<infDPS Id="${id}">` +
  leaf("tpAmb", options.ambiente) +
  leaf("dhEmi", dhEmi(nota.issuedAt)) +
  leaf("verAplic", latin1(options.verAplic ?? VER_APLIC, 20)) +
  leaf("serie", nota.serie) +
  leaf("nDPS", nota.dpsNumber) +
  leaf("dCompet", nota.competencia) +
  leaf("tpEmit", 1) +
  leaf("cLocEmi", settings.prestador.codigo_municipio!) +
  prest(settings) +
  toma(nota.tomador) +
  serv(settings, nota, options.codigoNbs!) +
  valores(settings, nota.amount) +
  "</infDPS>"

/** The DPS: its `Id` and the document (UTF-8, with its XML declaration, unsigned). */
export interface Dps {
  readonly id: string
  readonly xml: string
}

/**
 * The DPS of `nota` for the issuer `settings`, issued by the provider
 * itself (`tpEmit` 1); or which fields are missing or unfit.
 */
export const dpsXml = (settings: NfseSettings, nota: NotaToIssue, options: DpsOptions): Result.Result<Dps, DpsIncomplete> => {
  const missing = problems(settings, nota, options)
  if (missing.length > 0) {
    return Result.fail(new DpsIncomplete({ message: `A DPS do padrão nacional precisa de: ${missing.join(", ")}`, fields: missing }))
  }
  const id = dpsId(settings.prestador.codigo_municipio!, settings.prestador.cnpj!, nota.serie, nota.dpsNumber)
  return Result.succeed({
    id,
    xml: `<?xml version="1.0" encoding="UTF-8"?><DPS xmlns="${NFSE_NAMESPACE}" versao="${DPS_VERSION}">${infDps(settings, nota, options, id)}</DPS>`
  })
}

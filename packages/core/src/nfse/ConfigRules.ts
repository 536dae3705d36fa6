/**
 * The rules of a configuration that decoding cannot check: what a field
 * takes when it is not sent (the stored value on an update, else the
 * account record, else the spec's default), and which fields are required,
 * which depends on the standard and on the Simples Nacional option.
 */
import type { Account } from "../domain/Account.ts"
import { documentKind } from "../brazil/Documents.ts"
import { InternalError } from "../domain/Errors.ts"
import { MissingFields, type NfseConfigDefaults, type NfseConfigInput, type NfseSettings, type Prestador } from "../domain/NfseConfig.ts"
import { standardOf } from "./NationalCities.ts"

/** The spec's defaults, and the issuer's name, CNPJ and e-mail from the account record. */
export const defaultsOf = (account: Account): NfseConfigDefaults => ({
  enabled: true,
  razao_social: account.name,
  invoiceTiming: "IMMEDIATE",
  daysAfterConfirmation: 1,
  enviar_email_destinatario: true,
  serie_dps: "1",
  tipo_retencao_pis_cofins: 0,
  regime_tributario_simples_nacional: 1,
  iss_retido: false,
  natureza_operacao: 1,
  prestador: { cnpj: documentKind(account.document) === "CNPJ" ? account.document : null, email: account.email }
})

type PrestadorInput = NonNullable<NfseConfigInput["prestador"]>

/** A `prestador` as sent (it replaces the stored one whole), its blanks filled from the account. */
const prestadorOf = (input: PrestadorInput, defaults: NfseConfigDefaults): Prestador => {
  const codigoMunicipio = input.codigo_municipio ?? null
  const endereco = input.endereco
  return {
    cnpj: input.cnpj ?? defaults.prestador.cnpj,
    codigo_municipio: codigoMunicipio,
    codigo_opcao_simples_nacional: input.codigo_opcao_simples_nacional ?? null,
    regime_especial_tributacao: input.regime_especial_tributacao ?? null,
    inscricao_municipal: input.inscricao_municipal ?? null,
    inscricao_estadual: input.inscricao_estadual ?? null,
    nome_fantasia: input.nome_fantasia ?? null,
    email: input.email ?? defaults.prestador.email,
    telefone: input.telefone ?? null,
    codigo_municipio_prestacao: input.codigo_municipio_prestacao ?? codigoMunicipio,
    endereco: endereco === undefined ? null : {
      logradouro: endereco.logradouro ?? null,
      numero: endereco.numero ?? null,
      complemento: endereco.complemento ?? null,
      bairro: endereco.bairro ?? null,
      municipio: endereco.municipio ?? null,
      cep: endereco.cep ?? null,
      uf: endereco.uf ?? null
    }
  }
}

/** `prefeitura` merged key by key with what is stored (spec: update). */
const prefeituraOf = (input: NfseConfigInput["prefeitura"], current: NfseSettings["prefeitura"] | undefined): NfseSettings["prefeitura"] => ({
  login: input?.login ?? current?.login ?? null,
  serie_rps: input?.serie_rps ?? current?.serie_rps ?? null,
  proximo_numero_rps: input?.proximo_numero_rps ?? current?.proximo_numero_rps ?? null
})

/**
 * The settings after `input`: a field sent replaces the stored one
 * (`prefeitura` is merged), a field not sent keeps it, and a new
 * configuration starts from `defaults`.
 */
export const buildSettings = (input: NfseConfigInput, current: NfseSettings | undefined, defaults: NfseConfigDefaults): NfseSettings => {
  const pick = <K extends keyof NfseSettings & keyof NfseConfigInput>(key: K, fallback: NfseSettings[K]): NfseSettings[K] =>
    (input[key] ?? current?.[key] ?? fallback) as NfseSettings[K]
  const prestador = input.prestador === undefined
    ? (current?.prestador ?? prestadorOf({}, defaults))
    : prestadorOf(input.prestador, defaults)
  return {
    config_name: pick("config_name", null),
    enabled: pick("enabled", defaults.enabled),
    razao_social: pick("razao_social", defaults.razao_social),
    invoiceTiming: pick("invoiceTiming", defaults.invoiceTiming),
    daysAfterConfirmation: pick("daysAfterConfirmation", defaults.daysAfterConfirmation),
    tipo_nf: pick("tipo_nf", null),
    descricao_servico: pick("descricao_servico", null),
    enviar_email_destinatario: pick("enviar_email_destinatario", defaults.enviar_email_destinatario),
    serie_dps: pick("serie_dps", defaults.serie_dps),
    codigo_tributacao_nacional_iss: pick("codigo_tributacao_nacional_iss", null),
    codigo_nbs: input.codigo_nbs ?? current?.codigo_nbs ?? null,
    tributacao_iss: pick("tributacao_iss", null),
    tipo_retencao_iss: pick("tipo_retencao_iss", null),
    situacao_tributaria_pis_cofins: pick("situacao_tributaria_pis_cofins", null),
    aliquota_pis: pick("aliquota_pis", null),
    aliquota_cofins: pick("aliquota_cofins", null),
    percentual_total_tributos_simples_nacional: pick("percentual_total_tributos_simples_nacional", null),
    aliquota_csll: pick("aliquota_csll", null),
    aliquota_irrf: pick("aliquota_irrf", null),
    tipo_retencao_pis_cofins: pick("tipo_retencao_pis_cofins", defaults.tipo_retencao_pis_cofins),
    percentual_total_tributos_federais: pick("percentual_total_tributos_federais", null),
    percentual_total_tributos_estaduais: pick("percentual_total_tributos_estaduais", null),
    percentual_total_tributos_municipais: pick("percentual_total_tributos_municipais", null),
    regime_tributario_simples_nacional: pick("regime_tributario_simples_nacional", defaults.regime_tributario_simples_nacional),
    item_lista_servico: pick("item_lista_servico", null),
    aliquota_iss: pick("aliquota_iss", null),
    iss_retido: pick("iss_retido", defaults.iss_retido),
    natureza_operacao: pick("natureza_operacao", defaults.natureza_operacao),
    codigo_cnae: pick("codigo_cnae", null),
    codigo_tributario_municipio: pick("codigo_tributario_municipio", null),
    prestador,
    prefeitura: prefeituraOf(input.prefeitura, current?.prefeitura),
    responsavel: input.responsavel === undefined
      ? (current?.responsavel ?? null)
      : { nome: input.responsavel.nome ?? null, cpf: input.responsavel.cpf ?? null }
  }
}

/** The required fields of the spec's table that `settings` lacks, apart from the regime's (below). */
const missingFields = (settings: NfseSettings): ReadonlyArray<string> => {
  const required: ReadonlyArray<readonly [string, unknown]> = [
    ["prestador.cnpj", settings.prestador.cnpj],
    ["prestador.codigo_municipio", settings.prestador.codigo_municipio],
    ...(standardOf(settings) === "nacional"
      ? [
        ["codigo_tributacao_nacional_iss", settings.codigo_tributacao_nacional_iss],
        ["tributacao_iss", settings.tributacao_iss],
        ["tipo_retencao_iss", settings.tipo_retencao_iss]
      ] as const
      : [["item_lista_servico", settings.item_lista_servico], ["aliquota_iss", settings.aliquota_iss]] as const)
  ]
  return required.filter(([, value]) => value === null).map(([field]) => field)
}

/**
 * The tax regime's fields: the Simples Nacional option and the special
 * regime always, and in the national standard what the option requires
 * (1, not optant: PIS/COFINS; 2 MEI or 3 ME/EPP: the Simples percentage).
 */
const missingRegimeField = (settings: NfseSettings): string | undefined => {
  const option = settings.prestador.codigo_opcao_simples_nacional
  if (option === null) return "prestador.codigo_opcao_simples_nacional"
  if (settings.prestador.regime_especial_tributacao === null) return "prestador.regime_especial_tributacao"
  if (standardOf(settings) === "municipal") return undefined
  if (option === 1) {
    if (settings.situacao_tributaria_pis_cofins === null) return "situacao_tributaria_pis_cofins"
    if (settings.aliquota_pis === null) return "aliquota_pis"
    if (settings.aliquota_cofins === null) return "aliquota_cofins"
    return undefined
  }
  return settings.percentual_total_tributos_simples_nacional === null ? "percentual_total_tributos_simples_nacional" : undefined
}

/**
 * Why `settings` cannot be saved, if it cannot: missing fields are 400
 * `MISSING_FIELDS` listing them all; a missing regime field is 500
 * `INTERNAL_ERROR` with the validation message, as the spec documents the
 * provider answering (its quirk, kept so clients that handle it still do).
 * `certificateMissing` are the certificate's fields the request lacks.
 */
export const requiredProblem = (settings: NfseSettings, certificateMissing: ReadonlyArray<string>): MissingFields | InternalError | undefined => {
  const missing = [...missingFields(settings), ...certificateMissing]
  if (missing.length > 0) {
    return new MissingFields({ message: `Campos obrigatórios ausentes: ${missing.join(", ")}`, details: { fields: missing } })
  }
  const regime = missingRegimeField(settings)
  return regime === undefined
    ? undefined
    : new InternalError({ message: `Validation failed: ${regime} is required for the issuer's tax regime`, details: { field: regime } })
}

/** The certificate's fields missing from `input`: a new configuration needs both, and a new certificate comes whole. */
export const certificateGaps = (input: NfseConfigInput, creating: boolean): ReadonlyArray<string> => {
  const sent = input.certificate
  if (sent === undefined && !creating) return []
  const fields: ReadonlyArray<readonly [string, string | undefined]> = [["certificate.pfx_base64", sent?.pfx_base64], ["certificate.password", sent?.password]]
  return fields.filter(([, value]) => value === undefined).map(([field]) => field)
}

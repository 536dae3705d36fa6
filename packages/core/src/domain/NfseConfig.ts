/**
 * The issuer configuration of fiscal service invoices (spec: Fiscal
 * configuration; Endpoints, Fiscal invoices, create configuration). Field
 * names are the spec's, snake case and Portuguese as it writes them, with
 * its two camel-case exceptions (`invoiceTiming`, `daysAfterConfirmation`).
 *
 * Formats are checked by decoding (a bad one is 400 `INVALID_DATA` naming the
 * field); which fields are required depends on the standard and the Simples
 * Nacional option, so presence is the use case's (`nfse/ConfigRules.ts`).
 */
import { Effect, type Option, type Redacted, Schema, SchemaGetter, SchemaIssue } from "effect"
import { documentKind, normalizeDocument } from "../brazil/Documents.ts"
import { parsePercent, percentFromHundredths } from "../money/Rounding.ts"
import { ErrorFields } from "./Errors.ts"
import { Cep, Email, IbgeCityCode, Identifier, Name, optional, Text, Uf } from "./Values.ts"
import { Instant } from "./Wire.ts"
import { AccountId, NfseConfigId } from "./Ids.ts"

/** A value sent as a JSON number or a numeric string, checked by `parse` (`undefined`: refused with `message`). */
const numberLike = <A>(target: Schema.Codec<A, A>, parse: (text: string) => A | undefined, message: string) =>
  Schema.Union([Schema.Number, Schema.String.pipe(Schema.check(Schema.isMaxLength(40)))]).pipe(
    Schema.decodeTo(target, {
      decode: SchemaGetter.transformEffect((input: number | string) => {
        const value = parse(String(input).trim())
        return value === undefined ? Effect.fail(new SchemaIssue.InvalidValue({ message }, input)) : Effect.succeed(value)
      }),
      encode: SchemaGetter.transform((value: A) => value as unknown as number | string)
    })
  )

/** A whole number from `min` to `max`. */
const IntFrom = (min: number, max: number) =>
  numberLike(Schema.Int, (text) => (/^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : undefined), `must be a whole number from ${min} to ${max}`)

/** A code of `digits` digits, kept as text (leading zeros matter). */
const Digits = (digits: number) =>
  numberLike(Schema.String, (text) => (new RegExp(`^\\d{${digits}}$`).test(text) ? text : undefined), `must have exactly ${digits} digits`)

/** A tax rate in percent: 0 to 100 with at most two decimals. */
export const TaxRate = numberLike(Schema.Number, (text) => {
  const hundredths = parsePercent(text)
  return hundredths === undefined || hundredths > 10_000 ? undefined : percentFromHundredths(hundredths)
}, "must be a percentage from 0 to 100 with at most two decimals")

/** The issuer's CNPJ, 14 characters with valid check digits (alphanumeric CNPJ included); punctuation is dropped. */
const Cnpj = numberLike(Schema.String, (text) => {
  const cnpj = normalizeDocument(text)
  return documentKind(cnpj) === "CNPJ" ? cnpj : undefined
}, "must be a CNPJ of 14 characters with valid check digits")

const Cpf = numberLike(Schema.String, (text) => {
  const cpf = normalizeDocument(text)
  return documentKind(cpf) === "CPF" ? cpf : undefined
}, "must be a CPF with valid check digits")

/** `NN.NN`, the item of the municipal service list (LC 116/2003). */
const ItemListaServico = numberLike(Schema.String, (text) => (/^\d{2}\.\d{2}$/.test(text) ? text : undefined), "must have the format NN.NN")

/** The DPS series of the national layout: 1 to 5 digits, not all zeros. */
const SerieDps = numberLike(Schema.String, (text) => (/^(?!0+$)\d{1,5}$/.test(text) ? text : undefined), "must be 1 to 5 digits, not all zeros")

/** CST of PIS/COFINS in the national layout: `00` to `09` (a single digit is read with its leading zero). */
const CstPisCofins = numberLike(Schema.String, (text) => (/^0?\d$/.test(text) ? text.padStart(2, "0") : undefined), "must be a CST from 00 to 09")

/** The largest RPS number the municipal layouts take (15 digits). */
const MAX_RPS = 999_999_999_999_999

export const InvoiceTiming = Schema.Literals(["IMMEDIATE", "AFTER_CONFIRMATION", "DAYS_AFTER_CONFIRMATION"])
export type InvoiceTiming = typeof InvoiceTiming.Type

/** The two standards a note is issued in. */
export const NfseStandard = Schema.Literals(["nacional", "municipal"])
export type NfseStandard = typeof NfseStandard.Type

export const Endereco = Schema.Struct({
  logradouro: Schema.NullOr(Text),
  numero: Schema.NullOr(Name),
  complemento: Schema.NullOr(Text),
  bairro: Schema.NullOr(Text),
  municipio: Schema.NullOr(Text),
  cep: Schema.NullOr(Schema.String),
  uf: Schema.NullOr(Schema.String)
})

const EnderecoInput = Schema.Struct({
  logradouro: optional(Text),
  numero: optional(Name),
  complemento: optional(Text),
  bairro: optional(Text),
  municipio: optional(Text),
  cep: optional(Cep),
  uf: optional(Uf)
})

/** The issuer (`prestador`) as stored and answered; required ones are `null` only until filled. */
export const Prestador = Schema.Struct({
  cnpj: Schema.NullOr(Schema.String),
  codigo_municipio: Schema.NullOr(Schema.String),
  codigo_opcao_simples_nacional: Schema.NullOr(Schema.Int),
  regime_especial_tributacao: Schema.NullOr(Schema.Int),
  inscricao_municipal: Schema.NullOr(Name),
  inscricao_estadual: Schema.NullOr(Name),
  nome_fantasia: Schema.NullOr(Name),
  email: Schema.NullOr(Schema.String),
  telefone: Schema.NullOr(Name),
  codigo_municipio_prestacao: Schema.NullOr(Schema.String),
  endereco: Schema.NullOr(Endereco)
})
export type Prestador = typeof Prestador.Type

const PrestadorInput = Schema.Struct({
  cnpj: optional(Cnpj),
  codigo_municipio: optional(IbgeCityCode),
  codigo_opcao_simples_nacional: optional(IntFrom(1, 3)),
  regime_especial_tributacao: optional(IntFrom(0, 6)),
  inscricao_municipal: optional(Name),
  inscricao_estadual: optional(Name),
  nome_fantasia: optional(Name),
  email: optional(Email),
  telefone: optional(Name),
  codigo_municipio_prestacao: optional(IbgeCityCode),
  endereco: optional(EnderecoInput)
})

/** The city portal's settings; the portal password is kept apart, sealed. */
export const Prefeitura = Schema.Struct({
  login: Schema.NullOr(Name),
  serie_rps: Schema.NullOr(Name),
  /** `null`: numbering starts at the beginning. */
  proximo_numero_rps: Schema.NullOr(Schema.Int)
})
export type Prefeitura = typeof Prefeitura.Type

const PrefeituraInput = Schema.Struct({
  login: optional(Name),
  senha: optional(Name),
  serie_rps: optional(Name),
  proximo_numero_rps: optional(IntFrom(1, MAX_RPS))
})

export const Responsavel = Schema.Struct({ nome: Schema.NullOr(Name), cpf: Schema.NullOr(Schema.String) })

/**
 * Every field of a configuration but its secrets, defaults applied: what is
 * stored as one document and answered as it is.
 */
export const NfseSettings = Schema.Struct({
  config_name: Schema.NullOr(Name),
  enabled: Schema.Boolean,
  razao_social: Schema.NullOr(Name),
  invoiceTiming: InvoiceTiming,
  daysAfterConfirmation: Schema.Int,
  tipo_nf: Schema.NullOr(NfseStandard),
  /**
   * The standard the issuer's city was found to use when the configuration
   * was saved (the national system's municipal parameters), `null` when
   * none could tell; absent from configurations saved before it existed.
   */
  tipo_cidade: Schema.optionalKey(Schema.NullOr(NfseStandard)),
  descricao_servico: Schema.NullOr(Text),
  enviar_email_destinatario: Schema.Boolean,
  serie_dps: Schema.String,
  codigo_tributacao_nacional_iss: Schema.NullOr(Schema.String),
  /**
   * The service's NBS code (9 digits), which the national layout 1.01
   * requires (`cNBS`) and the spec's tables do not list; absent from
   * configurations saved before it existed.
   */
  codigo_nbs: Schema.optionalKey(Schema.NullOr(Schema.String)),
  tributacao_iss: Schema.NullOr(Schema.Int),
  tipo_retencao_iss: Schema.NullOr(Schema.Int),
  situacao_tributaria_pis_cofins: Schema.NullOr(Schema.String),
  aliquota_pis: Schema.NullOr(Schema.Number),
  aliquota_cofins: Schema.NullOr(Schema.Number),
  percentual_total_tributos_simples_nacional: Schema.NullOr(Schema.Number),
  aliquota_csll: Schema.NullOr(Schema.Number),
  aliquota_irrf: Schema.NullOr(Schema.Number),
  tipo_retencao_pis_cofins: Schema.Int,
  percentual_total_tributos_federais: Schema.NullOr(Schema.Number),
  percentual_total_tributos_estaduais: Schema.NullOr(Schema.Number),
  percentual_total_tributos_municipais: Schema.NullOr(Schema.Number),
  regime_tributario_simples_nacional: Schema.Int,
  item_lista_servico: Schema.NullOr(Schema.String),
  aliquota_iss: Schema.NullOr(Schema.Number),
  iss_retido: Schema.Boolean,
  natureza_operacao: Schema.Int,
  codigo_cnae: Schema.NullOr(Name),
  codigo_tributario_municipio: Schema.NullOr(Name),
  prestador: Prestador,
  prefeitura: Prefeitura,
  responsavel: Schema.NullOr(Responsavel)
})
export type NfseSettings = typeof NfseSettings.Type

/** The A1 certificate sent with a configuration: the PKCS#12 file in base64 and its password. */
const CertificateInput = Schema.Struct({
  // A PKCS#12 file of an A1 certificate and its chain is a few kilobytes; 64 KB of base64 is ample.
  pfx_base64: optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(65_536)))),
  password: optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(200))))
})

/** Body of `POST` and `PUT /v1/invoices/notas/config`: every field optional here, required ones checked by the use case. */
export const NfseConfigInput = Schema.Struct({
  id: optional(Identifier),
  config_name: optional(Name),
  enabled: optional(Schema.Boolean),
  razao_social: optional(Name),
  invoiceTiming: optional(InvoiceTiming),
  daysAfterConfirmation: optional(IntFrom(1, 365)),
  tipo_nf: optional(NfseStandard),
  descricao_servico: optional(Text),
  enviar_email_destinatario: optional(Schema.Boolean),
  serie_dps: optional(SerieDps),
  codigo_tributacao_nacional_iss: optional(Digits(6)),
  codigo_nbs: optional(Digits(9)),
  tributacao_iss: optional(IntFrom(1, 4)),
  tipo_retencao_iss: optional(IntFrom(1, 3)),
  situacao_tributaria_pis_cofins: optional(CstPisCofins),
  aliquota_pis: optional(TaxRate),
  aliquota_cofins: optional(TaxRate),
  percentual_total_tributos_simples_nacional: optional(TaxRate),
  aliquota_csll: optional(TaxRate),
  aliquota_irrf: optional(TaxRate),
  tipo_retencao_pis_cofins: optional(IntFrom(0, 2)),
  percentual_total_tributos_federais: optional(TaxRate),
  percentual_total_tributos_estaduais: optional(TaxRate),
  percentual_total_tributos_municipais: optional(TaxRate),
  regime_tributario_simples_nacional: optional(IntFrom(1, 3)),
  item_lista_servico: optional(ItemListaServico),
  aliquota_iss: optional(TaxRate),
  iss_retido: optional(Schema.Boolean),
  natureza_operacao: optional(IntFrom(1, 99)),
  codigo_cnae: optional(Name),
  codigo_tributario_municipio: optional(Name),
  prestador: optional(PrestadorInput),
  prefeitura: optional(PrefeituraInput),
  responsavel: optional(Schema.Struct({ nome: optional(Name), cpf: optional(Cpf) })),
  certificate: optional(CertificateInput)
}).annotate({ identifier: "NfseConfigInput" })
export type NfseConfigInput = typeof NfseConfigInput.Type

/** What was read from the configuration's A1 certificate; the file and its password stay sealed at rest. */
export interface StoredCertificate {
  readonly pfxBase64: Redacted.Redacted<string>
  readonly password: Redacted.Redacted<string>
  readonly cnpj: string
  readonly expiresAt: Date
}

/** A configuration (`nfc_`) as the use cases see it: settings, and the secrets in clear but redacted. */
export interface NfseConfig {
  readonly id: NfseConfigId
  readonly accountId: AccountId
  readonly settings: NfseSettings
  readonly certificate: StoredCertificate
  readonly prefeituraSenha: Option.Option<Redacted.Redacted<string>>
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A configuration as answered: its settings, the standard it issues in, and of its secrets only whether they exist. */
export const NfseConfigView = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  ...NfseSettings.fields,
  /** The standard notes are issued in: `tipo_nf` when sent, else the city's (`prestador.codigo_municipio`). */
  tipo: NfseStandard,
  prefeitura: Schema.Struct({ ...Prefeitura.fields, has_senha: Schema.Boolean }),
  certificate: Schema.Struct({ has_certificate: Schema.Boolean, expiry_date: Schema.NullOr(Instant) }),
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "NfseConfig" })
export type NfseConfigView = typeof NfseConfigView.Type

/** What a new configuration starts from: the spec's defaults and what the account record knows. */
export const NfseConfigDefaults = Schema.Struct({
  enabled: Schema.Boolean,
  razao_social: Schema.NullOr(Schema.String),
  invoiceTiming: InvoiceTiming,
  daysAfterConfirmation: Schema.Int,
  enviar_email_destinatario: Schema.Boolean,
  serie_dps: Schema.String,
  tipo_retencao_pis_cofins: Schema.Int,
  regime_tributario_simples_nacional: Schema.Int,
  iss_retido: Schema.Boolean,
  natureza_operacao: Schema.Int,
  prestador: Schema.Struct({ cnpj: Schema.NullOr(Schema.String), email: Schema.NullOr(Schema.String) })
}).annotate({ identifier: "NfseConfigDefaults" })
export type NfseConfigDefaults = typeof NfseConfigDefaults.Type

export const NfseConfigList = Schema.Struct({
  items: Schema.Array(NfseConfigView),
  defaults: NfseConfigDefaults
}).annotate({ identifier: "NfseConfigList" })

export const NfseConfigRemoved = Schema.Struct({ success: Schema.Literal(true), message: Schema.String, id: Schema.String })

/** 404: no such configuration on the caller's account (the spec's configuration code). */
export class NotaConfigNotFound extends Schema.TaggedError<NotaConfigNotFound>()("NOTA_CONFIG_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: required fields are missing; `details.fields` lists them. */
export class MissingFields extends Schema.TaggedError<MissingFields>()("MISSING_FIELDS", ErrorFields, {
  httpApiStatus: 400
}) {}

/**
 * 400: the issuer could not be registered with its certificate (unreadable
 * file, wrong password, expired, another CNPJ's); nothing is stored.
 * `details` names the field and the `reason`.
 */
export class NfConfigSyncFailed extends Schema.TaggedError<NfConfigSyncFailed>()("NF_CONFIG_SYNC_FAILED", ErrorFields, {
  httpApiStatus: 400
}) {}

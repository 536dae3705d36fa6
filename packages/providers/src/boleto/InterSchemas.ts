/**
 * The bodies of Inter's Cobrança v3 API (`/cobranca/v3/cobrancas`) as the
 * adapter sends and reads them: the field names of Inter's own SDKs
 * (inter-co/pj-sdk-python `inter_sdk_python/billing/models`, inter-co/pj-sdk-java
 * `inter/sdk/billing/models`). Answers are read with the fields the adapter
 * uses; anything else in them is left alone.
 */
import { Money } from "@billing/core"
import { Schema } from "effect"
import { InterViolacao } from "./InterErrors.ts"

/** `situacao` of a cobrança (`BillingSituation`). */
export const Situacao = Schema.Literals([
  "RECEBIDO",
  "A_RECEBER",
  "MARCADO_RECEBIDO",
  "ATRASADO",
  "CANCELADO",
  "EXPIRADO",
  "FALHA_EMISSAO",
  "EM_PROCESSAMENTO",
  "PROTESTO"
])
export type Situacao = typeof Situacao.Type

/** Paid: through the bank (`RECEBIDO`) or marked received by the beneficiary (`MARCADO_RECEBIDO`). */
export const PAID_SITUACOES: ReadonlySet<Situacao> = new Set(["RECEBIDO", "MARCADO_RECEBIDO"])
/** No longer payable: cancelled on request, expired after `numDiasAgenda`, or never issued. */
export const CLOSED_SITUACOES: ReadonlySet<Situacao> = new Set(["CANCELADO", "EXPIRADO", "FALHA_EMISSAO"])

const CalendarDay = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}/)))

/** An amount in reais, a JSON number (`valorNominal`) or a string (`valorTotalRecebido` in the SDKs), read exactly into centavos. */
const Amount = Money.reaisSchema({ min: 0 })

/** `pagador` (`Person`): document, kind, name and the address Inter prints. */
export interface Pagador {
  readonly cpfCnpj: string
  readonly tipoPessoa: "FISICA" | "JURIDICA"
  readonly nome: string
  readonly endereco: string
  readonly numero?: string
  readonly complemento?: string
  readonly bairro?: string
  readonly cidade: string
  readonly uf: string
  readonly cep: string
  readonly email?: string
}

/** `POST /cobranca/v3/cobrancas` (`BillingIssueRequest`); `valorNominal` is written as a number of reais with two decimals. */
export interface CobrancaBody {
  readonly seuNumero: string
  readonly valorNominal: unknown
  readonly dataVencimento: string
  readonly numDiasAgenda: number
  readonly pagador: Pagador
}

/** The answer to a registration (`BillingIssueResponse`): the asynchronous request's id, no codes yet. */
export const IssueAnswer = Schema.Struct({ codigoSolicitacao: Schema.String })

/** `cobranca` of a detail or list item (`BillingRetrievingResponse`). */
export const Cobranca = Schema.Struct({
  codigoSolicitacao: Schema.String,
  seuNumero: Schema.String,
  situacao: Situacao,
  dataVencimento: CalendarDay,
  valorNominal: Amount,
  dataSituacao: Schema.optional(CalendarDay),
  valorTotalRecebido: Schema.optional(Amount)
})

/** `boleto` (`BillingBilletRetrievingResponse`): there once the asynchronous registration is done. */
export const BoletoCodes = Schema.Struct({
  nossoNumero: Schema.String,
  codigoBarras: Schema.String,
  linhaDigitavel: Schema.String
})

/** `pix` (`BillingPixRetrievingResponse`): the Pix Inter puts on the boleto. */
export const PixOnBoleto = Schema.Struct({
  txid: Schema.optional(Schema.String),
  pixCopiaECola: Schema.String
})

/** `GET /cobranca/v3/cobrancas/{codigoSolicitacao}` and each list item (`RetrievedBilling`). */
export const CobrancaDetail = Schema.Struct({
  cobranca: Cobranca,
  boleto: Schema.optional(BoletoCodes),
  pix: Schema.optional(PixOnBoleto)
})
export type CobrancaDetail = typeof CobrancaDetail.Type

/** One page of `GET /cobranca/v3/cobrancas` (`BillingPage`); pages count from 0. */
export const CobrancaPage = Schema.Struct({
  totalPaginas: Schema.Int,
  cobrancas: Schema.Array(CobrancaDetail)
})

/** Inter's error body (the SDKs' `Error`: `title`, `detail`, `timestamp`, `violacoes`). */
export const ErrorBody = Schema.Struct({
  title: Schema.optional(Schema.String),
  detail: Schema.optional(Schema.String),
  violacoes: Schema.optional(Schema.Array(InterViolacao))
})

/**
 * One item of the webhook's callback (`BillingPayload`), posted by Inter to
 * the registered `webhookUrl` as a JSON array when a cobrança changes.
 */
export const CallbackItem = Schema.Struct({
  codigoSolicitacao: Schema.String,
  seuNumero: Schema.optional(Schema.String),
  situacao: Situacao,
  dataHoraSituacao: Schema.optional(Schema.String),
  valorTotalRecebido: Schema.optional(Amount),
  origemRecebimento: Schema.optional(Schema.String),
  nossoNumero: Schema.optional(Schema.String)
})
export const Callback = Schema.Array(CallbackItem)

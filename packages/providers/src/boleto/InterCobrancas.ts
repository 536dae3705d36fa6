/**
 * The routes of Inter's Cobrança v3 API the adapter uses, each decoded:
 * register (`POST /cobrancas`, never repeated here: see `InterHttp`), read
 * one (`GET /cobrancas/{codigoSolicitacao}`), list a period
 * (`GET /cobrancas?dataInicial&dataFinal&…`, every page), cancel
 * (`POST /cobrancas/{codigoSolicitacao}/cancelar`) and the webhook
 * (`PUT /cobrancas/webhook`). Paths, query names and bodies as Inter's SDKs
 * send them (inter-co/pj-sdk-python `billing/billing/BillingClient.py`,
 * `billing/webhooks/BillingWebhookClient.py`).
 */
import { Effect } from "effect"
import type { BoletoBankConfig } from "../config/ProvidersConfig.ts"
import { type InterCallError, decodeAnswer, makeInterHttp, type InterHttp, type InterHttpOptions, type InterRequest } from "./InterHttp.ts"
import { type CobrancaBody, type CobrancaDetail, CobrancaDetail as CobrancaDetailSchema, CobrancaPage, IssueAnswer } from "./InterSchemas.ts"

/** Which date a list filters on (`BillingDateType`). */
export type FiltrarDataPor = "VENCIMENTO" | "EMISSAO" | "PAGAMENTO"

export interface ListQuery {
  readonly dataInicial: string
  readonly dataFinal: string
  readonly filtrarDataPor: FiltrarDataPor
  readonly seuNumero?: string
}

export interface InterCobrancas {
  readonly http: InterHttp
  /** Registers; answers the asynchronous request's `codigoSolicitacao`. Asked once: a timeout is the caller's to resolve. */
  readonly create: (body: CobrancaBody, options?: { readonly retry?: boolean }) => Effect.Effect<string, InterCallError>
  readonly get: (codigoSolicitacao: string) => Effect.Effect<CobrancaDetail, InterCallError>
  /** Every cobrança of the query, all pages. `retry: false` leaves a retryable failure to the caller. */
  readonly list: (query: ListQuery, options?: { readonly retry?: boolean }) => Effect.Effect<ReadonlyArray<CobrancaDetail>, InterCallError>
  /** `motivoCancelamento` has at most 50 characters. */
  readonly cancel: (codigoSolicitacao: string, motivoCancelamento: string) => Effect.Effect<void, InterCallError>
  readonly registerWebhook: (webhookUrl: string) => Effect.Effect<void, InterCallError>
}

/** Items per page asked (Inter's maximum). */
const PAGE_SIZE = 1000
/** Pages asked at most, a guard against an answer whose `totalPaginas` never ends. */
const MAX_PAGES = 1000

export const makeInterCobrancas = Effect.fn("InterCobrancas.make")(function*(config: BoletoBankConfig, options: InterHttpOptions = {}) {
  const http = yield* makeInterHttp(config, options)
  const call = <A>(request: InterRequest, decode: (answer: unknown) => Effect.Effect<A, InterCallError>) => Effect.flatMap(http.send(request), decode)
  const detail = decodeAnswer("the cobrança", CobrancaDetailSchema)
  const page = decodeAnswer("the list of cobranças", CobrancaPage)
  const issued = decodeAnswer("the registration's answer", IssueAnswer)

  const list = Effect.fnUntraced(function*(query: ListQuery, listOptions: { readonly retry?: boolean } = {}) {
    const all: Array<CobrancaDetail> = []
    for (let current = 0; current < MAX_PAGES; current++) {
      const params: Record<string, string> = {
        dataInicial: query.dataInicial,
        dataFinal: query.dataFinal,
        filtrarDataPor: query.filtrarDataPor,
        "paginacao.paginaAtual": String(current),
        "paginacao.itensPorPagina": String(PAGE_SIZE)
      }
      if (query.seuNumero !== undefined) params.seuNumero = query.seuNumero
      const answer = yield* call({ method: "GET", path: [], query: params, ...listOptions }, page)
      all.push(...answer.cobrancas)
      if (current + 1 >= answer.totalPaginas) break
    }
    return all
  })

  return {
    http,
    create: (body, createOptions) => Effect.map(call({ method: "POST", path: [], body, retry: createOptions?.retry ?? false }, issued), (answer) => answer.codigoSolicitacao),
    get: (codigoSolicitacao) => call({ method: "GET", path: [codigoSolicitacao] }, detail),
    list,
    cancel: (codigoSolicitacao, motivoCancelamento) => Effect.asVoid(http.send({ method: "POST", path: [codigoSolicitacao, "cancelar"], body: { motivoCancelamento } })),
    registerWebhook: (webhookUrl) => Effect.asVoid(http.send({ method: "PUT", path: ["webhook"], body: { webhookUrl } }))
  } satisfies InterCobrancas
})

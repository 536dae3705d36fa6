/**
 * A client of one PSP's BCB API Pix: charges (`cob`, `cobv`), devoluções,
 * the Pix received, the webhook. Creations are idempotent by their id: a
 * call whose outcome was unknown is repeated with the same txid (or
 * devolução id), and a PSP that answers that the id is already used is
 * asked (`GET`) for what it holds, which is ours when it matches what was
 * asked.
 */
import { Effect } from "effect"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import { CobAnswer, DevolucaoAnswer, PixPage, type PixReceived } from "./PixApiSchemas.ts"
import type { PspAnswerInvalid, PspProblem } from "./PspErrors.ts"
import { decodeAnswer, makePspHttp, type PspCallError, type PspHttp, type PspHttpOptions, type PspRequest } from "./PspHttp.ts"

/** A `cob` as the engine asks for it (`CobSolicitada`). */
export interface CobBody {
  readonly calendario: { readonly expiracao: number }
  readonly valor: { readonly original: string }
  readonly chave: string
  readonly solicitacaoPagador?: string
}

/** The `devedor` of a `cobv`: a person by CPF or a company by CNPJ (`PessoaFisica`, `PessoaJuridica`). */
export type Devedor = { readonly cpf: string; readonly nome: string } | { readonly cnpj: string; readonly nome: string }

/** A `cobv` as the engine asks for it (`CobVSolicitada`). */
export interface CobvBody {
  readonly calendario: { readonly dataDeVencimento: string; readonly validadeAposVencimento: number }
  readonly devedor: Devedor
  readonly valor: { readonly original: string }
  readonly chave: string
  readonly solicitacaoPagador?: string
}

export type PixApiError = PspCallError | PspAnswerInvalid

export interface PixApiClient {
  readonly psp: PixPsp
  readonly http: PspHttp
  readonly createCob: (txid: string, body: CobBody) => Effect.Effect<CobAnswer, PixApiError>
  readonly createCobv: (txid: string, body: CobvBody) => Effect.Effect<CobAnswer, PixApiError>
  readonly getCob: (txid: string) => Effect.Effect<CobAnswer, PixApiError>
  readonly getCobv: (txid: string) => Effect.Effect<CobAnswer, PixApiError>
  /** `PATCH /cob/{txid}` to `REMOVIDA_PELO_USUARIO_RECEBEDOR`: the charge can no longer be paid. */
  readonly removeCob: (txid: string) => Effect.Effect<CobAnswer, PixApiError>
  /** `PATCH /cobv/{txid}`, the same for a charge with a due date. */
  readonly removeCobv: (txid: string) => Effect.Effect<CobAnswer, PixApiError>
  readonly requestDevolucao: (endToEndId: string, id: string, valor: string) => Effect.Effect<DevolucaoAnswer, PixApiError>
  readonly getDevolucao: (endToEndId: string, id: string) => Effect.Effect<DevolucaoAnswer, PixApiError>
  /** Every Pix received between `inicio` and `fim` (both inclusive, the standard's filter), all pages. */
  readonly receivedPix: (inicio: Date, fim: Date) => Effect.Effect<ReadonlyArray<PixReceived>, PixApiError>
  /** `PUT /webhook/{chave}` for the entry's receiving key. */
  readonly registerWebhook: (webhookUrl: string) => Effect.Effect<void, PixApiError>
}

/** Statuses with which PSPs refuse an id already used (the standard's `…OperacaoInvalida` is a 400; some answer 409 or 422). */
const ALREADY_USED_STATUSES = new Set([400, 409, 422])

/**
 * `create`, or, when the PSP refuses it as a conflict, what `existing` finds
 * if `sameAsAsked`: the earlier attempt of this very request. Anything else
 * fails with the PSP's refusal, which says more than the `GET`'s 404.
 */
export const createOrFind = <A>(
  create: Effect.Effect<A, PixApiError>,
  existing: Effect.Effect<A, PixApiError>,
  sameAsAsked: (found: A) => boolean
) =>
  Effect.catchIf(create, (error): error is PspProblem => error._tag === "PspProblem" && ALREADY_USED_STATUSES.has(error.status), (refusal) =>
    existing.pipe(
      Effect.catchIf((error) => error._tag === "PspProblem" && error.status === 404, () => Effect.fail(refusal)),
      Effect.filterOrFail(sameAsAsked, () => refusal)
    ))

/** Whether a charge the PSP holds is the one asked with `body`: same amount, same receiving key. */
export const sameCharge = (body: CobBody | CobvBody) => (found: CobAnswer) => found.valor.original === body.valor.original && found.chave === body.chave

/** The revision that takes a charge off sale (`CobRevisada`, `CobVRevisada`). */
const removed = { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" } as const

/** Pages of `GET /pix` asked at most, a guard against a PSP whose `quantidadeDePaginas` never ends. */
const MAX_PAGES = 1000

export const makePixApiClient = Effect.fn("PixApiClient.make")(function*(psp: PixPsp, options: PspHttpOptions = {}) {
  const http = yield* makePspHttp(psp, options)
  const call = <A>(request: PspRequest, decode: (answer: unknown) => Effect.Effect<A, PspAnswerInvalid>) =>
    Effect.flatMap(http.send(request), decode)
  const cob = decodeAnswer(psp.name, "the charge", CobAnswer)
  const devolucao = decodeAnswer(psp.name, "the devolução", DevolucaoAnswer)
  const page = decodeAnswer(psp.name, "the list of Pix", PixPage)

  const getCob = (txid: string) => call({ method: "GET", path: ["cob", txid] }, cob)
  const getCobv = (txid: string) => call({ method: "GET", path: ["cobv", txid] }, cob)
  const getDevolucao = (endToEndId: string, id: string) => call({ method: "GET", path: ["pix", endToEndId, "devolucao", id] }, devolucao)

  const receivedPix = Effect.fnUntraced(function*(inicio: Date, fim: Date) {
    const all: Array<PixReceived> = []
    for (let current = 0; current < MAX_PAGES; current++) {
      const query = { inicio: inicio.toISOString(), fim: fim.toISOString(), "paginacao.paginaAtual": String(current) }
      const answer = yield* call({ method: "GET", path: ["pix"], query }, page)
      all.push(...(answer.pix ?? []))
      if (current + 1 >= answer.parametros.paginacao.quantidadeDePaginas) break
    }
    return all
  })

  return {
    psp,
    http,
    getCob,
    getCobv,
    getDevolucao,
    receivedPix,
    createCob: (txid, body) => createOrFind(call({ method: "PUT", path: ["cob", txid], body }, cob), getCob(txid), sameCharge(body)),
    createCobv: (txid, body) => createOrFind(call({ method: "PUT", path: ["cobv", txid], body }, cob), getCobv(txid), sameCharge(body)),
    removeCob: (txid) => call({ method: "PATCH", path: ["cob", txid], body: removed }, cob),
    removeCobv: (txid) => call({ method: "PATCH", path: ["cobv", txid], body: removed }, cob),
    requestDevolucao: (endToEndId, id, valor) =>
      createOrFind(
        call({ method: "PUT", path: ["pix", endToEndId, "devolucao", id], body: { valor } }, devolucao),
        getDevolucao(endToEndId, id),
        (found) => found.valor === valor
      ),
    registerWebhook: (webhookUrl) => Effect.asVoid(http.send({ method: "PUT", path: ["webhook", psp.pixKey.value], body: { webhookUrl } }))
  } satisfies PixApiClient
})

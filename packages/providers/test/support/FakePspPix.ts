/**
 * The fake PSP's money routes: devoluções of a Pix received, the paginated
 * list of Pix received, and Efí's sent Pix. The outcome of the next
 * devolução or send is the test's to choose.
 */
import { type Answer, type Book, devolucaoJson, type FakeDevolucao, type FakeSent, pixJson, problem, spiId } from "./FakePspBook.ts"

const cents = (valor: string) => Math.round(Number(valor) * 100)

/** How long after its settlement a Pix may be returned: the standard refuses a later devolução (`PixDevolucaoInvalida`). */
const RETURN_WINDOW_MILLIS = 90 * 24 * 60 * 60 * 1000

export interface Outcomes {
  /** Statuses the next devoluções take, in order; then `DEVOLVIDO`. */
  readonly devolucoes: Array<FakeDevolucao["status"]>
  /** Statuses the next sends take, in order; then `EM_PROCESSAMENTO` (Efí answers so, the webhook tells the rest). */
  readonly sends: Array<FakeSent["status"]>
}

export const requestDevolucao = (book: Book, outcomes: Outcomes, endToEndId: string, id: string, request: Record<string, any>): Answer => {
  const pix = book.pix.find((item) => item.endToEndId === endToEndId)
  if (pix === undefined) return problem(404, "PixNaoEncontrado", "Pix não encontrado.", `Pix ${endToEndId} não encontrado.`)
  const invalid = (razao: string) => problem(400, "PixDevolucaoInvalida", "Devolução inválida.", razao, [{ razao, propriedade: "devolucao.id", valor: id }])
  if (pix.devolucoes.some((devolucao) => devolucao.id === id)) return invalid("O id da devolução já foi utilizado para este e2eid.")
  const returned = pix.devolucoes.filter((devolucao) => devolucao.status !== "NAO_REALIZADO").reduce((sum, devolucao) => sum + cents(devolucao.valor), 0)
  if (returned + cents(request.valor) > cents(pix.valor)) return invalid("A devolução excederia o valor do Pix.")
  if (Date.now() > Date.parse(pix.horario) + RETURN_WINDOW_MILLIS) return invalid("A devolução viola a janela de 90 dias desde a liquidação do Pix.")
  const status = outcomes.devolucoes.shift() ?? "DEVOLVIDO"
  const now = new Date().toISOString()
  const devolucao: FakeDevolucao = { id, rtrId: spiId("D"), valor: request.valor, status, solicitacao: now, liquidacao: status === "EM_PROCESSAMENTO" ? undefined : now }
  pix.devolucoes.push(devolucao)
  return book.ok(201, devolucaoJson(devolucao))
}

export const getDevolucao = (book: Book, endToEndId: string, id: string): Answer => {
  const devolucao = book.pix.find((item) => item.endToEndId === endToEndId)?.devolucoes.find((item) => item.id === id)
  return devolucao === undefined
    ? problem(404, "PixDevolucaoNaoEncontrada", "Devolução não encontrada.", `Devolução ${id} de ${endToEndId} não encontrada.`)
    : book.ok(200, devolucaoJson(devolucao))
}

/** `GET /pix`: the Pix whose `horario` is within `inicio` and `fim` (inclusive), a page of `pageSize` at a time. */
export const listPix = (book: Book, query: URLSearchParams, pageSize: number): Answer => {
  const inicio = query.get("inicio")!
  const fim = query.get("fim")!
  const size = Number(query.get("paginacao.itensPorPagina") ?? pageSize)
  const current = Number(query.get("paginacao.paginaAtual") ?? 0)
  const matching = book.pix.filter((pix) => pix.horario >= new Date(inicio).toISOString() && pix.horario <= new Date(fim).toISOString())
  const pages = Math.max(1, Math.ceil(matching.length / size))
  const onPage = matching.slice(current * size, (current + 1) * size).map(pixJson)
  return book.ok(200, {
    parametros: { inicio, fim, paginacao: { paginaAtual: current, itensPorPagina: size, quantidadeDePaginas: pages, quantidadeTotalDeItens: matching.length } },
    pix: onPage
  })
}

const sentJson = (send: FakeSent) => ({
  idEnvio: send.idEnvio,
  valor: send.valor,
  status: send.status,
  horario: { solicitacao: send.solicitacao }
})

/** Efí's `PUT /gn/pix/{idEnvio}`: 409 `id_envio_duplicado` to an id already used. */
export const sendPix = (book: Book, outcomes: Outcomes, idEnvio: string, request: Record<string, any>): Answer => {
  if (book.sent.has(idEnvio)) return { status: 409, contentType: "application/json", body: { nome: "id_envio_duplicado", mensagem: "O id de envio informado já foi utilizado em outro pagamento" } }
  const send: FakeSent = { idEnvio, e2eId: spiId("E"), valor: request.valor, chave: request.favorecido.chave, solicitacao: new Date().toISOString(), status: outcomes.sends.shift() ?? "EM_PROCESSAMENTO" }
  book.sent.set(idEnvio, send)
  return book.ok(201, { ...sentJson(send), e2eId: send.e2eId })
}

export const getSent = (book: Book, idEnvio: string): Answer => {
  const send = book.sent.get(idEnvio)
  return send === undefined
    ? problem(404, "PixEnviadoNaoEncontrado", "Não Encontrado", `Pix enviado não encontrado para o idEnvio ${idEnvio}.`)
    : book.ok(200, { ...sentJson(send), endToEndId: send.e2eId, chave: send.chave })
}

/**
 * The fake PSP's books: cobs, Pix received with their devoluções, and Efí's
 * sent Pix, in memory, with the answers the standard gives to each route.
 * A txid or devolução id used twice is refused (`CobOperacaoInvalida`,
 * `PixDevolucaoInvalida`), as the PSPs that refuse duplicates do, so an
 * adapter repeating a request must resolve it by `GET`.
 */
import { Brazil } from "@billing/core"
import { randomBytes } from "node:crypto"

export interface Answer {
  readonly status: number
  readonly body?: unknown
  readonly contentType?: string
}

export interface FakeDevolucao {
  readonly id: string
  readonly rtrId: string
  readonly valor: string
  status: "EM_PROCESSAMENTO" | "DEVOLVIDO" | "NAO_REALIZADO"
  readonly solicitacao: string
  liquidacao: string | undefined
}

export interface FakePix {
  readonly endToEndId: string
  readonly txid: string | undefined
  readonly valor: string
  readonly horario: string
  readonly devolucoes: Array<FakeDevolucao>
}

export interface FakeCob {
  readonly kind: "cob" | "cobv"
  readonly txid: string
  readonly request: Record<string, any>
  readonly criacao: string
  readonly locId: number
  readonly location: string
  readonly pixCopiaECola: string
  status: "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR"
  revisao: number
}

export interface FakeSent {
  readonly idEnvio: string
  readonly e2eId: string
  readonly valor: string
  readonly chave: string
  readonly solicitacao: string
  status: "EM_PROCESSAMENTO" | "REALIZADO" | "NAO_REALIZADO"
}

/** The fake's own ISPB, in every end-to-end id it makes. */
export const FAKE_ISPB = "12345678"
/** Where the fake's locations live (a host without scheme, as the standard writes locations). */
export const LOCATION_HOST = "pix.fakepsp.example"

export const problem = (status: number, tipo: string, title: string, detail?: string, violacoes?: ReadonlyArray<Record<string, string>>): Answer => ({
  status,
  contentType: "application/problem+json",
  body: {
    type: `https://pix.bcb.gov.br/api/v2/error/${tipo}`,
    title,
    status,
    ...(detail === undefined ? {} : { detail }),
    correlationId: randomBytes(8).toString("hex"),
    ...(violacoes === undefined ? {} : { violacoes })
  }
})

const ok = (status: number, body: unknown): Answer => ({ status, body, contentType: "application/json" })

let sequence = 0
/** An end-to-end id of the fake's ISPB; `D` for a return (`rtrId`). */
export const spiId = (kind: "E" | "D", at = Date.now()) =>
  kind + Brazil.makeEndToEndId(FAKE_ISPB, at, `F${String(++sequence).padStart(10, "0")}`)!.slice(1)

const dynamicCode = (location: string) => {
  const built = Brazil.buildBrCode({ kind: "dynamic", location, merchantName: "LOJA EXEMPLO LTDA", merchantCity: "SAO PAULO" })
  if (built._tag === "Failure") throw new Error(`fake PSP: ${built.failure.message}`)
  return built.success
}

export const pixJson = (pix: FakePix) => ({
  endToEndId: pix.endToEndId,
  ...(pix.txid === undefined ? {} : { txid: pix.txid }),
  valor: pix.valor,
  horario: pix.horario,
  ...(pix.devolucoes.length === 0 ? {} : { devolucoes: pix.devolucoes.map(devolucaoJson) })
})

export const devolucaoJson = (devolucao: FakeDevolucao) => ({
  id: devolucao.id,
  rtrId: devolucao.rtrId,
  valor: devolucao.valor,
  natureza: "ORIGINAL",
  horario: { solicitacao: devolucao.solicitacao, ...(devolucao.liquidacao === undefined ? {} : { liquidacao: devolucao.liquidacao }) },
  status: devolucao.status,
  ...(devolucao.status === "NAO_REALIZADO" ? { motivo: "Conta do pagador encerrada" } : {})
})

/** The receiver of every cobv: the merchant of the test certificates. */
const RECEBEDOR = { cnpj: "11444777000161", nome: "LOJA EXEMPLO LTDA", logradouro: "Rua Exemplo, 100", cidade: "São Paulo", uf: "SP", cep: "01001000" }

export const cobJson = (cob: FakeCob, pix: ReadonlyArray<FakePix>) => {
  const { calendario, ...asked } = cob.request
  return {
    ...asked,
    calendario: cob.kind === "cob"
      ? { criacao: cob.criacao, expiracao: calendario.expiracao ?? 86400 }
      : { criacao: cob.criacao, dataDeVencimento: calendario.dataDeVencimento, validadeAposVencimento: calendario.validadeAposVencimento ?? 30 },
    txid: cob.txid,
    revisao: cob.revisao,
    loc: { id: cob.locId, location: cob.location, tipoCob: cob.kind, criacao: cob.criacao, txid: cob.txid },
    location: cob.location,
    status: cob.status,
    pixCopiaECola: cob.pixCopiaECola,
    ...(cob.kind === "cobv" ? { recebedor: RECEBEDOR } : {}),
    ...(pix.length === 0 ? {} : { pix: pix.map(pixJson) })
  }
}

export const makeBook = () => {
  const cobs = new Map<string, FakeCob>()
  const pix: Array<FakePix> = []
  const sent = new Map<string, FakeSent>()
  /** The webhook URL registered per receiving key. */
  const webhooks = new Map<string, string>()
  const pixOf = (txid: string) => pix.filter((item) => item.txid === txid)

  const createCob = (kind: FakeCob["kind"], txid: string, request: Record<string, any>): Answer => {
    if (cobs.has(txid)) {
      return problem(400, kind === "cob" ? "CobOperacaoInvalida" : "CobVOperacaoInvalida", "Cobrança inválida.", "A requisição que busca criar uma cobrança não respeita o schema ou está semanticamente errada.", [
        { razao: "O campo txid encontra-se em uso.", propriedade: `${kind}.txid`, valor: txid }
      ])
    }
    const location = `${LOCATION_HOST}/qr/v2/${kind === "cobv" ? "cobv/" : ""}${randomBytes(16).toString("hex")}`
    const cob: FakeCob = { kind, txid, request, criacao: new Date().toISOString(), locId: cobs.size + 1, location, pixCopiaECola: dynamicCode(location), status: "ATIVA", revisao: 0 }
    cobs.set(txid, cob)
    return ok(201, cobJson(cob, []))
  }

  const getCob = (kind: FakeCob["kind"], txid: string): Answer => {
    const cob = cobs.get(txid)
    return cob === undefined || cob.kind !== kind
      ? problem(404, kind === "cob" ? "CobNaoEncontrado" : "CobVNaoEncontrada", "Cobrança não encontrada.", `Cobrança ${txid} não encontrada.`)
      : ok(200, cobJson(cob, pixOf(txid)))
  }

  const removeCob = (kind: FakeCob["kind"], txid: string, request: Record<string, any>): Answer => {
    const cob = cobs.get(txid)
    if (cob === undefined || cob.kind !== kind) return problem(404, kind === "cob" ? "CobNaoEncontrado" : "CobVNaoEncontrada", "Cobrança não encontrada.")
    if (cob.status !== "ATIVA" || request.status !== "REMOVIDA_PELO_USUARIO_RECEBEDOR") {
      return problem(400, kind === "cob" ? "CobOperacaoInvalida" : "CobVOperacaoInvalida", "Cobrança inválida.", "A cobrança não está ATIVA.")
    }
    cob.status = "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    cob.revisao++
    return ok(200, cobJson(cob, pixOf(txid)))
  }

  return { cobs, pix, sent, webhooks, pixOf, createCob, getCob, removeCob, ok }
}

export type Book = ReturnType<typeof makeBook>

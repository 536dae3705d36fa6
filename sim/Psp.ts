/**
 * A simulated PSP of the BCB API Pix: its own books, in memory, outside the
 * engine (they outlive every crash of it). It holds the charges registered
 * with it (`cob`, `cobv`), the Pix its payers sent to them and the
 * devoluções of those Pix, and answers each route as the standard does: a
 * txid or devolução id used twice is refused (400), so the engine's client
 * must resolve a repeated creation by `GET`; a charge is payable while it is
 * `ATIVA` and within its deadline, once.
 */
import { Brazil, Money } from "@billing/core"
import { Result } from "effect"
import type { CobAnswer, CobBody, CobvBody, DevolucaoAnswer, PixReceived } from "@billing/providers"
import { PspProblem } from "@billing/providers"

export interface SimCob {
  readonly kind: "cob" | "cobv"
  readonly txid: string
  readonly body: CobBody | CobvBody
  /** The instant after which no payer can pay it (the `cob`'s expiry, the `cobv`'s last payable day). */
  readonly payableUntil: number
  readonly pixCopiaECola: string
  status: "ATIVA" | "CONCLUIDA" | "REMOVIDA_PELO_USUARIO_RECEBEDOR"
}

export interface SimDevolucao {
  readonly id: string
  readonly rtrId: string
  readonly valor: string
  readonly at: number
}

/** A Pix received into the PSP's account, paying one of its charges. */
export interface SimPix {
  readonly psp: string
  readonly endToEndId: string
  readonly txid: string
  readonly valor: string
  readonly at: number
  readonly devolucoes: Array<SimDevolucao>
}

const problem = (psp: string, status: number, title: string) =>
  new PspProblem({ psp, status, type: `https://pix.bcb.gov.br/api/v2/error/${title}`, title, detail: null, correlationId: null, violacoes: [], message: `${psp} answered ${status} ${title}` })

/** How long after its settlement a Pix may be returned: the standard refuses a later devolução (BCB API Pix, `PixDevolucaoInvalida`). */
const RETURN_WINDOW_MILLIS = 90 * 24 * 60 * 60 * 1000

/** A provider's amount ("12.34", or a number of reais) in centavos, parsed exactly by the engine's own parser. */
export const cents = (valor: string | number): number => Result.getOrThrow(Money.parseReais(valor))

/** The instant a charge stops being payable: a `cob` `expiracao` seconds after its creation, a `cobv` at the end of its last payable day. */
const payableUntil = (kind: SimCob["kind"], body: CobBody | CobvBody, now: number) =>
  kind === "cob"
    ? now + (body as CobBody).calendario.expiracao * 1000
    : Brazil.endOfSaoPauloDay(Brazil.addDays((body as CobvBody).calendario.dataDeVencimento, (body as CobvBody).calendario.validadeAposVencimento)).getTime()

/** The books and routes of the PSP `name`, whose end-to-end ids carry `letter` and whose returns its `ispb`. */
export const makePsp = (name: string, letter: string, ispb: string) => {
  const cobs = new Map<string, SimCob>()
  const pix: Array<SimPix> = []
  let sequence = 0
  const spiId = (kind: "E" | "D", bank: string, at: number) => `${kind}${Brazil.makeEndToEndId(bank, at, `P${letter}${String(++sequence).padStart(9, "0")}`)!.slice(1)}`
  const answer = (cob: SimCob): CobAnswer => ({
    txid: cob.txid,
    status: cob.status,
    chave: cob.body.chave,
    valor: { original: cob.body.valor.original },
    location: `pix.${name}.sim/qr/v2/${cob.txid}`,
    pixCopiaECola: cob.pixCopiaECola,
    // `CobCompleta`: a concluded charge names the Pix that paid it.
    ...(cob.status === "CONCLUIDA" ? { pix: pix.filter((p) => p.txid === cob.txid).map(pixJson) } : {})
  })
  const code = (txid: string) => {
    const built = Brazil.buildBrCode({ kind: "dynamic", location: `pix.${name}.sim/qr/v2/${txid}`, merchantName: "LOJA SIMULADA", merchantCity: "SAO PAULO" })
    return built._tag === "Success" ? built.success : ""
  }
  const own = (kind: SimCob["kind"], txid: string) => {
    const cob = cobs.get(txid)
    return cob !== undefined && cob.kind === kind ? cob : undefined
  }
  return {
    name,
    ispb,
    cobs,
    pix,
    createCob: (kind: SimCob["kind"], txid: string, body: CobBody | CobvBody, now: number): CobAnswer | PspProblem => {
      if (cobs.has(txid)) return problem(name, 400, "CobOperacaoInvalida")
      const cob: SimCob = { kind, txid, body, payableUntil: payableUntil(kind, body, now), pixCopiaECola: code(txid), status: "ATIVA" }
      cobs.set(txid, cob)
      return answer(cob)
    },
    getCob: (kind: SimCob["kind"], txid: string): CobAnswer | PspProblem => {
      const cob = own(kind, txid)
      return cob === undefined ? problem(name, 404, "CobNaoEncontrado") : answer(cob)
    },
    removeCob: (kind: SimCob["kind"], txid: string): CobAnswer | PspProblem => {
      const cob = own(kind, txid)
      if (cob === undefined) return problem(name, 404, "CobNaoEncontrado")
      if (cob.status !== "ATIVA") return problem(name, 400, "CobOperacaoInvalida")
      cob.status = "REMOVIDA_PELO_USUARIO_RECEBEDOR"
      return answer(cob)
    },
    /** A payer at the bank `payerIspb` pays the charge `txid` in full at `now`; none when it is not payable. */
    pay: (txid: string, payerIspb: string, now: number): SimPix | undefined => {
      const cob = cobs.get(txid)
      if (cob === undefined || cob.status !== "ATIVA" || now > cob.payableUntil) return undefined
      cob.status = "CONCLUIDA"
      const received: SimPix = { psp: name, endToEndId: spiId("E", payerIspb, now), txid, valor: cob.body.valor.original, at: now, devolucoes: [] }
      pix.push(received)
      return received
    },
    requestDevolucao: (endToEndId: string, id: string, valor: string, now: number): DevolucaoAnswer | PspProblem => {
      const paid = pix.find((p) => p.endToEndId === endToEndId)
      if (paid === undefined) return problem(name, 404, "PixNaoEncontrado")
      if (paid.devolucoes.some((d) => d.id === id)) return problem(name, 400, "PixDevolucaoInvalida")
      if (now > paid.at + RETURN_WINDOW_MILLIS) return problem(name, 400, "PixDevolucaoInvalida")
      if (paid.devolucoes.reduce((sum, d) => sum + cents(d.valor), 0) + cents(valor) > cents(paid.valor)) return problem(name, 400, "PixDevolucaoInvalida")
      const devolucao: SimDevolucao = { id, rtrId: spiId("D", ispb, now), valor, at: now }
      paid.devolucoes.push(devolucao)
      return devolucaoJson(devolucao)
    },
    getDevolucao: (endToEndId: string, id: string): DevolucaoAnswer | PspProblem => {
      const found = pix.find((p) => p.endToEndId === endToEndId)?.devolucoes.find((d) => d.id === id)
      return found === undefined ? problem(name, 404, "PixDevolucaoNaoEncontrada") : devolucaoJson(found)
    },
    /** `GET /pix`: the Pix settled within [`inicio`, `fim`], both included. */
    listPix: (inicio: number, fim: number): ReadonlyArray<PixReceived> => pix.filter((p) => p.at >= inicio && p.at <= fim).map(pixJson)
  }
}

export type SimPsp = ReturnType<typeof makePsp>

const devolucaoJson = (d: SimDevolucao): DevolucaoAnswer => ({
  id: d.id,
  rtrId: d.rtrId,
  valor: d.valor,
  status: "DEVOLVIDO",
  horario: { solicitacao: new Date(d.at).toISOString(), liquidacao: new Date(d.at).toISOString() }
})

/** A Pix as the standard reports it, in `GET /pix` and in a callback. */
export const pixJson = (p: SimPix): PixReceived => ({
  endToEndId: p.endToEndId,
  txid: p.txid,
  valor: p.valor,
  horario: new Date(p.at).toISOString(),
  ...(p.devolucoes.length === 0 ? {} : { devolucoes: p.devolucoes.map(devolucaoJson) })
})

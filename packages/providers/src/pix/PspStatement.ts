/**
 * The port's statement from the Pix a PSP lists (`GET /pix`): each Pix
 * received is money in, each devolução returned (`DEVOLVIDO`) money out, by
 * its own SPI id (`rtrId`). The standard filters by the Pix's time, so the
 * caller asks from as far back as a Pix can still be returned and each entry
 * is kept by its own instant; payouts are not in `GET /pix` at all.
 */
import { Money, type PspEntry } from "@billing/core"
import { Option, Result } from "effect"
import type { PixReceived } from "./PixApiSchemas.ts"
import { engineTxid } from "./PspIdentifiers.ts"

const within = (at: Date, from: Date, to: Date) => at.getTime() >= from.getTime() && at.getTime() < to.getTime()

const entry = (endToEndId: string, direction: PspEntry["direction"], valor: string, at: Date, txid: string | null): ReadonlyArray<PspEntry> => {
  const amount = Money.parseReais(valor)
  // `valor` passed the standard's pattern when decoded, so it always parses.
  return Result.isSuccess(amount) ? [{ endToEndId, direction, amount: amount.success, at, txid }] : []
}

/**
 * The entries between `from` (inclusive) and `to` (exclusive), as the
 * port's statement promises, each with the engine's txid of the charge its
 * Pix paid (null for a Pix to the key that paid none of ours): the PSP's
 * list is the operator's key's, and the engine keeps an account's own.
 */
export const statementOf = (received: ReadonlyArray<PixReceived>, from: Date, to: Date): ReadonlyArray<PspEntry> =>
  received.flatMap((pix) => {
    const txid = pix.txid === undefined ? null : Option.getOrNull(engineTxid(pix.txid))
    const credit = within(new Date(pix.horario), from, to) ? entry(pix.endToEndId, "CREDIT", pix.valor, new Date(pix.horario), txid) : []
    const debits = (pix.devolucoes ?? []).flatMap((devolucao) => {
      const at = devolucao.horario.liquidacao ?? devolucao.horario.solicitacao
      return devolucao.status === "DEVOLVIDO" && at !== undefined && within(new Date(at), from, to)
        ? entry(devolucao.rtrId, "DEBIT", devolucao.valor, new Date(at), txid)
        : []
    })
    return [...credit, ...debits]
  })

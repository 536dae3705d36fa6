/**
 * The fakes' own books against the engine's, after the crash loop: what the
 * PSP and Mercado Pago say happened is what the engine recorded, once.
 * Every Pix the PSP received for one of our charges paid that charge; every
 * payment Mercado Pago approved paid its charge and every paid card charge
 * has exactly one; what each returned (devoluções, refunds) is what the
 * engine confirmed; every Pix the PSP sent is one completed withdrawal;
 * every DPS the national system received is one note issued, and every
 * note issued is one it received.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { paidStatuses } from "../sim/Invariants.ts"
import { cents } from "../sim/Psp.ts"
import type { Outside } from "./Outside.ts"

interface ChargeRow {
  readonly id: string
  readonly status: string
  readonly paymentType: string
  readonly endToEndId: string | null
  readonly refunded: string
}

/** Every charge with the sum of its confirmed refunds. */
const chargesWithRefunds = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<ChargeRow>`
  SELECT c.id, c.status, c.payment_type AS "paymentType", c.end_to_end_id AS "endToEndId",
    coalesce((SELECT sum(r.amount_cents) FROM refunds r WHERE r.charge_id = c.id AND r.status = 'CONFIRMED'), 0)::text AS refunded
  FROM charges c`)

/** The PSP's received Pix against the charges they paid. */
const pixAgree = (outside: Outside, charges: ReadonlyArray<ChargeRow>) => {
  const paid = new Set<string>(paidStatuses())
  const byEndToEnd = new Map(charges.filter((c) => c.endToEndId !== null).map((c) => [c.endToEndId!, c]))
  return outside.psp.book.pix.flatMap((pix) => {
    const charge = byEndToEnd.get(pix.endToEndId)
    if (charge === undefined || !paid.has(charge.status)) return [`Pix ${pix.endToEndId} received at the PSP, no charge paid by it (${charge?.status ?? "none"})`]
    const returned = pix.devolucoes.filter((d) => d.status === "DEVOLVIDO").reduce((sum, d) => sum + cents(d.valor), 0)
    return returned === Number(charge.refunded) ? [] : [`charge ${charge.id}: ${returned} returned at the PSP, ${charge.refunded} refunds confirmed`]
  })
}

/** Mercado Pago's payments against the card charges. */
const cardsAgree = (outside: Outside, charges: ReadonlyArray<ChargeRow>) => {
  const paid = new Set<string>(paidStatuses())
  return charges.filter((c) => c.paymentType === "CREDIT_CARD" && !c.id.startsWith("SANDBOX_")).flatMap((charge) => {
    const approved = outside.mercadoPago.paymentsOf(charge.id).filter((p) => p.status === "approved" && p.captured)
    if (approved.length !== (paid.has(charge.status) ? 1 : 0)) return [`card charge ${charge.id} ${charge.status}: ${approved.length} approved payments at Mercado Pago`]
    const refunded = approved.flatMap((p) => p.refunds).reduce((sum, r) => sum + cents(r.amount), 0)
    return refunded === Number(charge.refunded) ? [] : [`card charge ${charge.id}: ${refunded} refunded at Mercado Pago, ${charge.refunded} confirmed`]
  })
}

/** The PSP's sends against the withdrawals. */
const sendsAgree = (outside: Outside) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ endToEndId: string | null; status: string; amountCents: string }>`
    SELECT end_to_end_id AS "endToEndId", status, amount_cents::text AS "amountCents" FROM withdrawals`).pipe(
    Effect.map((withdrawals) => {
      const completed = new Map(withdrawals.filter((w) => w.status === "COMPLETED").map((w) => [w.endToEndId, w]))
      const sent = [...outside.psp.book.sent.values()].filter((s) => s.status === "REALIZADO")
      const unmatched = sent.filter((s) => cents(s.valor) !== Number(completed.get(s.e2eId)?.amountCents))
      return [
        ...unmatched.map((s) => `Pix ${s.e2eId} of ${s.valor} sent by the PSP, no completed withdrawal of it`),
        ...(completed.size === sent.length ? [] : [`${completed.size} withdrawals completed, ${sent.length} Pix sent by the PSP`])
      ]
    })
  )

/** Sefin Nacional's DPS against the notes. */
const notesAgree = (outside: Outside) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ id: string; status: string; chave: string | null }>`
    SELECT id, status, chave_acesso AS chave FROM notas`).pipe(
    Effect.map((notas) => {
      const issued = notas.filter((n) => n.status === "ISSUED" || n.status === "AUTHORIZED")
      const ours = new Map(issued.map((n) => [n.chave, n]))
      const received = [...outside.sefin.books.dps.entries()]
      const theirs = new Set(received.map(([, dps]) => dps.chave))
      return [
        ...received.filter(([, dps]) => !ours.has(dps.chave)).map(([id, dps]) => `DPS ${id} (${dps.chave}) received by the national system, no note issued of it`),
        ...issued.filter((n) => !theirs.has(n.chave!)).map((n) => `note ${n.id} ${n.status}, its chave ${n.chave} unknown to the national system`),
        ...(issued.length === received.length ? [] : [`${issued.length} notes issued, ${received.length} DPS received by the national system`])
      ]
    })
  )

/** What the fakes' books and the engine's disagree on, one line each. */
export const providerBooksAgree = (outside: Outside) =>
  Effect.gen(function*() {
    const charges = yield* chargesWithRefunds
    return [
      ...pixAgree(outside, charges),
      ...cardsAgree(outside, charges),
      ...(yield* sendsAgree(outside)),
      ...(yield* notesAgree(outside)),
      // What a fake found off its provider's contract, in our requests or its own answers.
      ...outside.psp.violations.map((v) => `PSP contract: ${v}`),
      ...outside.sefin.violations.map((v) => `Sefin Nacional contract: ${v}`)
    ]
  }).pipe(Effect.orDie)

/**
 * The simulated PSPs' books against ours. Every Pix a PSP received for one
 * of our charges is credited once, to that charge, for its amount; nothing
 * is credited that no PSP received (and the Pix was paid at the PSP the
 * charge records, where its refunds go); every devolução a PSP made is a
 * refund we confirmed, and every Pix refund we confirmed is one the PSP
 * made. During the run, a Pix received after the last poll that reached
 * every PSP may still wait for that poll (its callback lost), and a
 * devolução made may wait for its refund's next ask (the process died
 * before recording the answer); at the end nothing may wait. The engine's
 * own reconciliation report must then agree, day by day.
 */
import { Billing, Brazil } from "@billing/core"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Engine } from "./Engine.ts"
import { type Invariant, paidStatuses } from "./InvariantKit.ts"
import { cents, type SimPix } from "./Psp.ts"
import { QUICK_PAYER_BANK } from "./PspClient.ts"
import { Psps } from "./Psps.ts"
import { START } from "./World.ts"


/** Our txid behind a PSP's (`BLNG` and ours). */
const ourTxid = (pspTxid: string) => pspTxid.slice(4)

interface PixCharge {
  readonly id: string
  readonly txid: string
  readonly status: string
  readonly amount: string
  readonly endToEndId: string | null
  readonly psp: string | null
  readonly payments: number
}

const pixCharges = (sandbox: boolean) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<PixCharge>`
      SELECT c.id, c.txid, c.status, c.amount_cents::text AS amount, c.end_to_end_id AS "endToEndId", c.psp,
        (SELECT count(*)::int FROM ledger_entries e WHERE e.kind = 'PAYMENT' AND e.reference_id = c.id) AS payments
      FROM charges c JOIN accounts a ON a.id = c.account_id WHERE c.payment_type = 'PIX' AND a.sandbox = ${sandbox} ORDER BY c.id`.pipe(Effect.orDie))

const describe = (pix: SimPix) => `Pix ${pix.endToEndId} of ${pix.valor} at ${pix.psp} for txid ${ourTxid(pix.txid)}`

/**
 * A Pix the simulated quick payer made the instant the PSP registered a
 * charge (`callbackEarly`), before the engine had answered anyone: when the
 * engine's process then died inside that creation, the charge was rolled
 * back and no row has its txid. In the world no payer could have had that
 * charge's code (it is handed out only after the commit), so nobody's money
 * is missing; the engine rightly credits nothing (it logs the txid as
 * unknown). Only such a Pix may name no charge: a committed charge is never
 * deleted. Found by a year-long run (seed 1, day 269).
 */
const paidBeforeAnyAnswer = (pix: SimPix) => pix.endToEndId.startsWith(`E${QUICK_PAYER_BANK}`)

/** Each Pix received (up to the last complete poll during the run, every one at the end) is its charge's one credited payment. */
export const pixCreditedOnce: Invariant = {
  name: "pixCreditedOnce",
  check: (final) =>
    Effect.gen(function*() {
      const psps = yield* Psps
      const horizon = final ? Number.POSITIVE_INFINITY : psps.polledUntil()
      const byTxid = new Map((yield* pixCharges(false)).map((c) => [c.txid, c]))
      return psps.books.flatMap((book) => book.pix).filter((pix) => pix.at <= horizon).flatMap((pix) => {
        const charge = byTxid.get(ourTxid(pix.txid))
        if (charge === undefined) return paidBeforeAnyAnswer(pix) ? [] : [`${describe(pix)}: no charge of ours has the txid`]
        if (charge.endToEndId !== pix.endToEndId) return [`${describe(pix)}: not credited; charge ${charge.id} is ${charge.status} with ${charge.endToEndId ?? "no Pix"}`]
        if (Number(charge.amount) !== cents(pix.valor)) return [`${describe(pix)}: credited to ${charge.id} of ${charge.amount} centavos`]
        return charge.payments === 1 ? [] : [`${describe(pix)}: charge ${charge.id} has ${charge.payments} payments`]
      })
    })
}

/** Every production Pix charge we hold paid was paid by a Pix its PSP received, for its amount. */
export const pixReceivedBehindCredits: Invariant = {
  name: "pixReceivedBehindCredits",
  check: () =>
    Effect.gen(function*() {
      const received = new Map((yield* Psps).books.flatMap((book) => book.pix).map((pix) => [pix.endToEndId, pix]))
      const paid = new Set<string>(paidStatuses())
      return (yield* pixCharges(false)).filter((c) => paid.has(c.status)).flatMap((charge) => {
        const pix = charge.endToEndId === null ? undefined : received.get(charge.endToEndId)
        if (pix === undefined) return [`charge ${charge.id} is ${charge.status} by ${charge.endToEndId ?? "no Pix"}, which no PSP received`]
        if (ourTxid(pix.txid) !== charge.txid || cents(pix.valor) !== Number(charge.amount)) return [`charge ${charge.id} is paid by ${describe(pix)}`]
        return pix.psp === charge.psp ? [] : [`charge ${charge.id} records ${charge.psp} but was paid at ${pix.psp}, where its refunds must go`]
      })
    })
}

/** Devoluções at the PSPs and our confirmed Pix refunds of production charges are the same money, id for id. */
export const devolucoesAgree: Invariant = {
  name: "devolucoesAgree",
  check: (final) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const refunds = yield* sql<{ id: string; status: string; amount: string; returnId: string | null }>`
        SELECT r.id, r.status, r.amount_cents::text AS amount, r.return_identification AS "returnId" FROM refunds r JOIN accounts a ON a.id = r.account_id
        WHERE r.payment_type = 'PIX' AND NOT a.sandbox ORDER BY r.id`.pipe(Effect.orDie)
      // A devolução's id is the refund's id without its underscores (the engine's `pspReference`).
      const byReference = new Map(refunds.map((r) => [r.id.replace(/[^A-Za-z0-9]/g, ""), r]))
      const made = (yield* Psps).books.flatMap((book) => book.pix.flatMap((pix) => pix.devolucoes.map((d) => ({ ...d, psp: book.name }))))
      const found = made.flatMap((d) => {
        const refund = byReference.get(d.id)
        if (refund === undefined) return [`devolução ${d.id} (${d.rtrId}) of ${d.valor} at ${d.psp}: no refund of ours`]
        if (refund.status === "PROCESSING" && !final) return []
        return refund.status === "CONFIRMED" && refund.returnId === d.rtrId && Number(refund.amount) === cents(d.valor)
          ? []
          : [`devolução ${d.id} (${d.rtrId}) of ${d.valor} at ${d.psp}: refund ${refund.id} is ${refund.status} of ${refund.amount} by ${refund.returnId ?? "nothing"}`]
      })
      const returned = new Set(made.map((d) => d.rtrId))
      const unbacked = refunds.filter((r) => r.status === "CONFIRMED" && (r.returnId === null || !returned.has(r.returnId)))
        .map((r) => `refund ${r.id} is CONFIRMED by ${r.returnId ?? "nothing"}, which no PSP made`)
      return [...found, ...unbacked]
    })
}

/** At the end, the engine's reconciliation report of the production accounts shows no difference on any day of the run. */
export const reconciled: Invariant = {
  name: "reconciled",
  finalOnly: true,
  check: () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const engine = yield* Engine
      const accounts = yield* sql<{ id: string }>`SELECT id FROM accounts WHERE NOT sandbox ORDER BY id`.pipe(Effect.orDie)
      const last = Brazil.saoPauloDate(yield* Clock.currentTimeMillis)
      const found: Array<string> = []
      for (const { id } of accounts) {
        for (let date = Brazil.saoPauloDate(START); date <= last; date = Brazil.addDays(date, 1)) {
          const ran = yield* engine.run(Billing.reconciliation({ date }).pipe(Billing.asAccount(id)), { crashable: false })
          if (ran._tag !== "Done" || ran.exit._tag === "Failure") {
            found.push(`${id} ${date}: the report could not be made`)
            continue
          }
          const report = ran.exit.value
          if (report.missingInLedger.length > 0 || report.missingInProvider.length > 0 || report.differing.length > 0) {
            found.push(`${id} ${date}: missing in ledger ${JSON.stringify(report.missingInLedger)}, missing at the PSPs ${JSON.stringify(report.missingInProvider)}, differing ${JSON.stringify(report.differing)}`)
          }
        }
      }
      return found
    })
}

/**
 * The simulated acquirer's and city's books against ours. A production
 * card charge is paid with us exactly when the acquirer approved a payment
 * under its reference (one in review, or not yet asked about, may still be
 * open during the run; at the end every review is over), refused or never
 * charged otherwise, and the acquirer refunded what we confirmed. The city
 * never got two notes under one DPS number, issued no note we do not hold
 * as issued (under the number it gave), canceled none we hold as standing,
 * and holds at most one standing note per charge.
 */
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { CardBook } from "./CardAcquirer.ts"
import { CityBook } from "./City.ts"
import { type Invariant, paidStatuses } from "./InvariantKit.ts"

export const cardBooksAgree: Invariant = {
  name: "cardBooksAgree",
  check: (final) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const book = yield* CardBook
      const now = yield* Clock.currentTimeMillis
      const charges = yield* sql<{ id: string; status: string; refunded: string }>`
        SELECT c.id, c.status, coalesce((SELECT sum(r.amount_cents) FROM refunds r WHERE r.charge_id = c.id AND r.status = 'CONFIRMED'), 0)::text AS refunded
        FROM charges c JOIN accounts a ON a.id = c.account_id WHERE c.payment_type = 'CREDIT_CARD' AND NOT a.sandbox ORDER BY c.id`.pipe(Effect.orDie)
      const paid = new Set<string>(paidStatuses())
      return charges.flatMap((charge) => {
        const payment = book.payments.get(charge.id)
        const approved = payment?.answer._tag === "Approved"
        const decided = payment !== undefined && now >= payment.reviewUntil
        const refunded = payment === undefined ? 0 : [...payment.refunds.values()].reduce((a, b) => a + b, 0)
        if (paid.has(charge.status) && !(approved && decided)) return [`card charge ${charge.id} is ${charge.status}; the acquirer has ${payment === undefined ? "no payment" : `${payment.answer._tag}${decided ? "" : " in review"}`}`]
        if (approved && decided && !paid.has(charge.status) && (final || charge.status !== "PROCESSING")) {
          return [`the acquirer charged the card of ${charge.id}, which is ${charge.status}`]
        }
        return refunded === Number(charge.refunded) ? [] : [`card charge ${charge.id}: the acquirer refunded ${refunded}, we confirmed ${charge.refunded}`]
      })
    })
}

interface OurNote {
  readonly id: string
  readonly chargeId: string | null
  readonly status: string
  readonly numero: string | null
  readonly key: string
}

export const cityBooksAgree: Invariant = {
  name: "cityBooksAgree",
  check: (final) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const city = yield* CityBook
      const notes = yield* sql<OurNote>`
        SELECT id, charge_id AS "chargeId", status, numero, issuer_cnpj || '/' || serie || '/' || dps_number AS key FROM notas ORDER BY id`.pipe(Effect.orDie)
      const byKey = new Map(notes.map((n) => [n.key, n]))
      const byId = new Map(notes.map((n) => [n.id, n]))
      const found = [...city.violations]
      const standingPerCharge = new Map<string, number>()
      for (const dps of city.dps.values()) {
        if (dps.decided?._tag !== "Authorized") continue
        const ours = byKey.get(dps.key)
        const settled = ["ISSUED", "AUTHORIZED", "CANCELED", "REPLACED"]
        if (ours === undefined || ours.id !== dps.notaId) found.push(`the city issued DPS ${dps.key} for note ${dps.notaId}; we hold ${ours?.id ?? "nothing"} under it`)
        else if (ours.status === "PROCESSING" && !final) continue
        else if (!settled.includes(ours.status) || ours.numero !== dps.decided.numero) found.push(`the city issued DPS ${dps.key} as ${dps.decided.numero}; note ${ours.id} is ${ours.status} numbered ${ours.numero ?? "nothing"}`)
        else if (dps.canceledAt !== undefined && ours.status !== "CANCELED") found.push(`the city canceled DPS ${dps.key}; note ${ours.id} is ${ours.status}`)
        const charge = byId.get(dps.notaId)?.chargeId
        if (charge != null && dps.canceledAt === undefined && byId.get(dps.notaId)?.status !== "REPLACED") standingPerCharge.set(charge, (standingPerCharge.get(charge) ?? 0) + 1)
      }
      for (const [charge, n] of standingPerCharge) if (n > 1) found.push(`the city holds ${n} standing notes of charge ${charge}`)
      return found
    })
}

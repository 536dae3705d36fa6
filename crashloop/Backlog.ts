/**
 * What the engine still has in flight, counted in SQL: the loop waits for
 * all of it to drain (with every process up and every fault over) before it
 * checks the books, since "every webhook arrives at least once" and "every
 * card answer is learned" are promises about the end, not about any moment.
 *
 * A card charge whose request died before it reached the acquirer is not
 * in flight in this sense: nothing will ever answer it, and the engine
 * rightly waits out its answer window (`CARD_ANSWER_WINDOW_MILLIS`, 15
 * minutes) before it expires it, since it cannot tell it from an answer
 * late in coming. Only card charges the acquirer did take count here.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { nothingDueLeft } from "../sim/Invariants.ts"

export interface Backlog {
  readonly eventsNotFannedOut: number
  readonly deliveriesPending: number
  readonly cardsUnanswered: number
  readonly refundsInFlight: number
  readonly withdrawalsInFlight: number
  readonly notasDue: number
  readonly notasUnanswered: number
  readonly cyclesDue: number
}

type Counted = "eventsNotFannedOut" | "deliveriesPending" | "refundsInFlight" | "withdrawalsInFlight" | "notasDue" | "notasUnanswered"

const counts = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<Record<Counted, string>>`
  SELECT
    (SELECT count(*) FROM outbox WHERE processed_at IS NULL)::text AS "eventsNotFannedOut",
    (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::text AS "deliveriesPending",
    (SELECT count(*) FROM refunds WHERE status = 'PROCESSING')::text AS "refundsInFlight",
    (SELECT count(*) FROM withdrawals WHERE status = 'PROCESSING')::text AS "withdrawalsInFlight",
    (SELECT count(*) FROM nota_schedules WHERE due_at <= now())::text AS "notasDue",
    (SELECT count(*) FROM notas WHERE status = 'PROCESSING')::text AS "notasUnanswered"`).pipe(Effect.orDie)

/** Card charges waiting for the acquirer's answer. */
export const unansweredCards = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ id: string }>`
  SELECT id FROM charges WHERE payment_type = 'CREDIT_CARD' AND status = 'PROCESSING' ORDER BY id`).pipe(
  Effect.map((rows) => rows.map((row) => row.id)),
  Effect.orDie
)

/** The backlog now: each kind of work still in flight (card charges only those `taken` by the acquirer), and the cycles a job of the billing run would still take today. */
export const backlog = Effect.fn("CrashLoop.backlog")(function*(taken: (chargeId: string) => boolean) {
  const [row] = yield* counts
  const due = yield* nothingDueLeft.check(false)
  return {
    eventsNotFannedOut: Number(row!.eventsNotFannedOut),
    deliveriesPending: Number(row!.deliveriesPending),
    cardsUnanswered: (yield* unansweredCards).filter(taken).length,
    refundsInFlight: Number(row!.refundsInFlight),
    withdrawalsInFlight: Number(row!.withdrawalsInFlight),
    notasDue: Number(row!.notasDue),
    notasUnanswered: Number(row!.notasUnanswered),
    cyclesDue: due.length
  } satisfies Backlog
})

export const isDrained = (b: Backlog) => Object.values(b).every((n) => n === 0)

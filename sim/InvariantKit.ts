/**
 * What every invariant is made of: a name, a check that answers one line
 * per violation found (none: it holds), and the helpers their SQL shares.
 * Each is checked independently of the code that wrote the rows: by SQL on
 * the engine's tables, or against what the simulated world itself saw (the
 * receiver's requests, the providers' books).
 */
import { type ChargeStatus, ChargeTransitions } from "@billing/core"
import { Context, Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { CardBook } from "./CardAcquirer.ts"
import type { CityBook } from "./City.ts"
import type { Engine } from "./Engine.ts"
import type { Psps } from "./Psps.ts"
import type { Receipt } from "./Receiver.ts"

/**
 * Every request a merchant's webhook endpoint got: the simulator's
 * in-process receiver's, or the crash loop's real HTTP receiver's.
 */
export class Receipts extends Context.Service<Receipts, { readonly all: () => ReadonlyArray<Receipt> }>()("sim/Receipts") {}

/** What a check of the books alone reads: the database and what the webhook endpoint got (the crash loop has no more). */
export type BookServices = SqlClient.SqlClient | Receipts

/** What a check may read: the books, the simulated providers' books, and the engine (for its own reports). */
export type InvariantServices = BookServices | Psps | CardBook | CityBook | Engine

export interface Invariant<R = InvariantServices> {
  readonly name: string
  /** Checked only once the run is over and every fault has healed (webhooks arrive at least once by the end). */
  readonly finalOnly?: boolean
  /** `final`: the run is over and every fault has healed, so nothing may be left in flight. */
  readonly check: (final: boolean) => Effect.Effect<ReadonlyArray<string>, never, R>
}

/**
 * The statuses a charge can only be in once it was paid: `PAID` and every
 * status the transition table reaches from it (refunded, disputed, charged
 * back), derived from `rules/ChargeTransitions` rather than listed here.
 */
export const paidStatuses = (): ReadonlyArray<ChargeStatus> => {
  const reached = new Set<ChargeStatus>([ChargeTransitions.paymentConfirmed.to])
  for (let grew = true; grew;) {
    grew = false
    for (const t of Object.values(ChargeTransitions)) {
      if (!reached.has(t.to) && t.from.some((s: ChargeStatus) => reached.has(s))) {
        reached.add(t.to)
        grew = true
      }
    }
  }
  return [...reached]
}

export const list = (values: ReadonlyArray<string>) => values as Array<string>

/** Runs `query` and prints each row it found as one violation. */
export const rows = <Row extends object>(query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<Row>, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(Effect.orDie(query(sql)), (found) => found.map((row) => JSON.stringify(row))))

/**
 * Plan changes charge what the rules say (spec: Subscriptions, upgrade and
 * downgrade rules), worked out here from the prices and the days the
 * engine's prorata invoice names, not by the engine's `rules/Prorata`:
 * an upgrade's prorata is the price difference times the share of the
 * cycle left, rounded up, charged once on a charge and invoice of that
 * amount; a downgrade charges nothing.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { BookServices, Invariant } from "./InvariantKit.ts"

interface ChangeRow {
  readonly subscriptionId: string
  readonly interval: string
  readonly body: string
  readonly fromCents: string | null
  readonly toCents: string | null
  readonly chargeCents: string | null
  readonly invoiceCents: string | null
  readonly line: string | null
}

interface PlanChangeBody {
  readonly type: string
  readonly currentAmount: number
  readonly newAmount: number
  readonly prorataAmount: number
  readonly chargeId: string | null
}

/** The days of one cycle of each recurrence the workload sells (a month has 28 to 31). */
const CYCLE_DAYS: Readonly<Record<string, readonly [number, number]>> = { DAILY: [1, 1], WEEKLY: [7, 7], MONTHLY: [28, 31] }

/** The days left and the cycle's days, as the prorata invoice line names them (`Proporcional 5/7 dias: ...`). */
const daysOf = (line: string | null) => {
  const found = line === null ? null : /^Proporcional (\d+)\/(\d+) dias/.exec(line)
  return found === null ? undefined : { remaining: Number(found[1]), cycle: Number(found[2]) }
}

/** What is wrong with one upgrade: its amounts against the prices, its prorata against the days, its charge and invoice against its prorata. */
const upgradeProblems = (row: ChangeRow, change: PlanChangeBody): ReadonlyArray<string> => {
  const found: Array<string> = []
  if (change.currentAmount !== Number(row.fromCents) || change.newAmount !== Number(row.toCents)) found.push(`amounts ${change.currentAmount}->${change.newAmount} are not the prices ${row.fromCents}->${row.toCents}`)
  if (change.prorataAmount === 0) return found
  const days = daysOf(row.line)
  const [shortest, longest] = CYCLE_DAYS[row.interval] ?? [1, 366]
  if (days === undefined || days.cycle < shortest || days.cycle > longest || days.remaining < 0 || days.remaining > days.cycle) {
    found.push(`prorata line "${row.line}" names no sound days for a ${row.interval} cycle`)
  } else {
    const diff = change.newAmount - change.currentAmount
    const expected = Math.ceil((diff * days.remaining) / days.cycle)
    if (change.prorataAmount !== expected) found.push(`prorata ${change.prorataAmount}, the rules say ${expected} (${diff} x ${days.remaining}/${days.cycle}, rounded up)`)
  }
  if (Number(row.chargeCents) !== change.prorataAmount || Number(row.invoiceCents) !== change.prorataAmount) {
    found.push(`charged ${row.chargeCents} on an invoice of ${row.invoiceCents} for a prorata of ${change.prorataAmount}`)
  }
  return found
}

export const prorataAsRuled: Invariant<BookServices> = {
  name: "prorataAsRuled",
  check: () => Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const changes = yield* sql<ChangeRow>`
      SELECT sc.subscription_id AS "subscriptionId", s.interval, sc.body, pf.amount_cents::text AS "fromCents", pt.amount_cents::text AS "toCents",
        c.amount_cents::text AS "chargeCents", i.total_cents::text AS "invoiceCents", l.name AS line
      FROM subscription_changes sc JOIN subscriptions s ON s.id = sc.subscription_id
      LEFT JOIN prices pf ON pf.id = sc.body::jsonb ->> 'fromPriceId' LEFT JOIN prices pt ON pt.id = sc.body::jsonb ->> 'toPriceId'
      LEFT JOIN charges c ON c.id = sc.body::jsonb ->> 'chargeId' LEFT JOIN invoices i ON i.charge_id = c.id
      LEFT JOIN invoice_lines l ON l.invoice_id = i.id AND l.type = 'PRORATA_UPGRADE'
      WHERE sc.kind = 'PLAN' ORDER BY sc.subscription_id, sc.position`.pipe(Effect.orDie)
    return changes.flatMap((row) => {
      const change = JSON.parse(row.body) as PlanChangeBody
      const problems = change.type === "UPGRADE"
        ? upgradeProblems(row, change)
        : change.type === "DOWNGRADE" && (change.prorataAmount !== 0 || change.chargeId !== null)
        ? [`a downgrade charged ${change.prorataAmount} (${change.chargeId})`]
        : []
      return problems.map((p) => `${row.subscriptionId} ${change.type}: ${p}`)
    })
  })
}

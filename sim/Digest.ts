/**
 * What a run left in the database, in a few numbers and one hash: the
 * day's counts a run prints, and the digest two runs of one seed must share.
 * Only what the seed decides goes in: ids made by the simulated `Ids`,
 * statuses, amounts, instants of the simulated clock, the sandbox
 * accounts' Pix keys and every charge's BR Code (drawn from the seeded
 * `Random`), the notes and their DPS numbers; never the ids the database
 * draws itself (webhook deliveries') nor secrets.
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export interface Counts {
  readonly charges: number
  readonly paid: number
  readonly refunds: number
  readonly subscriptions: number
  readonly invoices: number
  readonly notas: number
  readonly events: number
  readonly delivered: number
  readonly failed: number
  readonly ledgerLines: number
}

/** The counts of the things a day makes. */
export const counts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<Record<keyof Counts, string>>`
    SELECT (SELECT count(*) FROM charges)::text AS charges,
      (SELECT count(*) FROM charges WHERE paid_at IS NOT NULL)::text AS paid,
      (SELECT count(*) FROM refunds)::text AS refunds,
      (SELECT count(*) FROM subscriptions)::text AS subscriptions,
      (SELECT count(*) FROM invoices)::text AS invoices,
      (SELECT count(*) FROM notas)::text AS notas,
      (SELECT count(*) FROM outbox)::text AS events,
      (SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered')::text AS delivered,
      (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed')::text AS failed,
      (SELECT count(*) FROM ledger_lines)::text AS "ledgerLines"`.pipe(Effect.orDie)
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])) as unknown as Counts
})

const hash = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16)

/**
 * Per table, its rows' count and money, and every charge's, note's and
 * event's identity with its status, each hashed apart (a replay that differs
 * names the table where), and all of them hashed together.
 */
export const digest = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* Effect.all({
    chargeTotals: sql`SELECT status, count(*)::text AS n, sum(amount_cents)::text AS cents FROM charges GROUP BY status ORDER BY status`,
    refundTotals: sql`SELECT status, count(*)::text AS n, sum(amount_cents)::text AS cents FROM refunds GROUP BY status ORDER BY status`,
    invoiceTotals: sql`SELECT status, count(*)::text AS n, sum(total_cents)::text AS cents FROM invoices GROUP BY status ORDER BY status`,
    subscriptions: sql`SELECT status, count(*)::text AS n FROM subscriptions GROUP BY status ORDER BY status`,
    cycles: sql`SELECT status, count(*)::text AS n FROM billing_cycles GROUP BY status ORDER BY status`,
    books: sql`SELECT holder, book, count(*)::text AS n, sum(amount_cents)::text AS cents FROM ledger_lines GROUP BY holder, book ORDER BY holder, book`,
    deliveries: sql`SELECT status, count(*)::text AS n FROM webhook_deliveries GROUP BY status ORDER BY status`,
    charges: sql`SELECT id, status, amount_cents::text AS cents, paid_at, psp, end_to_end_id, emv FROM charges ORDER BY id`,
    pixKeys: sql`SELECT id, pix_key FROM accounts ORDER BY id`,
    notas: sql`SELECT id, invoice_id, status, issuer_cnpj, serie, dps_number::text, numero, amount::text FROM notas ORDER BY id`,
    events: sql`SELECT id::text, account_id, event, created_at FROM outbox ORDER BY id`
  }).pipe(Effect.orDie)
  const byTable = Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, hash(rows)]))
  return { all: hash(Object.values(tables)), byTable }
})

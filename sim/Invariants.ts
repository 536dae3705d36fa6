/**
 * What must hold of the books after every simulated day, checked by SQL on
 * the engine's tables (and on what the webhook receiver got), independently
 * of the code that wrote them. Each invariant answers the violations it
 * found, one line each; none found means it holds.
 */
import { type BillingJobName, Brazil, ChargeStatuses, type CycleStatus, ENDED_NOTA_STATUSES, jobTakesCycle, NamedOnlyEventNames, type PaymentMethodInput, type SubscriptionStatus } from "@billing/core"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { cardBooksAgree, cityBooksAgree } from "./ProviderInvariants.ts"
import { devolucoesAgree, pixCreditedOnce, pixReceivedBehindCredits, reconciled } from "./PspInvariants.ts"
import { oneEventPerChange } from "./EventInvariants.ts"
import { type BookServices, type Invariant, list, paidStatuses, Receipts, rows } from "./InvariantKit.ts"
import { couponsWithinLimits, noBookEverBelowZero, retainedIsBlocked, splitsAddUp } from "./MoneyInvariants.ts"
import { prorataAsRuled } from "./PlanInvariants.ts"

export { type BookServices, type Invariant, paidStatuses, Receipts } from "./InvariantKit.ts"

/** Every ledger entry's lines sum to zero. */
export const entriesBalance: Invariant<BookServices> = {
  name: "entriesBalance",
  check: () => rows((sql) => sql`
    SELECT entry_id, sum(amount_cents)::text AS total FROM ledger_lines
    GROUP BY entry_id HAVING sum(amount_cents) <> 0 ORDER BY entry_id`)
}

/** Every account book's balance is the sum of its lines and its last line's balance after; only DEBT goes below zero. */
export const booksFollowLines: Invariant<BookServices> = {
  name: "booksFollowLines",
  check: () => rows((sql) => sql`
    WITH sums AS (
      SELECT holder, book, sum(amount_cents) AS total FROM ledger_lines WHERE holder <> 'HOUSE' GROUP BY holder, book
    ), last AS (
      SELECT DISTINCT ON (holder, book) holder, book, balance_after_cents FROM ledger_lines WHERE holder <> 'HOUSE' ORDER BY holder, book, seq DESC
    )
    SELECT coalesce(b.holder, s.holder) AS holder, coalesce(b.book, s.book) AS book, b.balance_cents::text AS balance,
      s.total::text AS lines, l.balance_after_cents::text AS "lastBalanceAfter"
    FROM ledger_balances b FULL JOIN sums s ON s.holder = b.holder AND s.book = b.book
    LEFT JOIN last l ON l.holder = b.holder AND l.book = b.book
    WHERE b.balance_cents IS DISTINCT FROM coalesce(s.total, CASE WHEN b.holder IS NULL THEN NULL ELSE 0 END)
      OR (l.holder IS NOT NULL AND l.balance_after_cents IS DISTINCT FROM b.balance_cents)
      OR (b.book = 'DEBT' AND b.balance_cents > 0) OR (b.book <> 'DEBT' AND b.balance_cents < 0)
    ORDER BY 1, 2`)
}

/** No charge's refunds (those not refused) pass what it was paid, and only a paid charge has any. */
export const refundsWithinPaid: Invariant<BookServices> = {
  name: "refundsWithinPaid",
  check: () => rows((sql) => sql`
    SELECT c.id, c.status, c.amount_cents::text AS paid, sum(r.amount_cents)::text AS refunded FROM refunds r JOIN charges c ON c.id = r.charge_id
    WHERE r.status <> 'ERROR'
    GROUP BY c.id, c.status, c.amount_cents
    HAVING sum(r.amount_cents) > c.amount_cents OR c.status <> ALL (${list(paidStatuses())})
    ORDER BY c.id`)
}

/** A paid charge has exactly one payment credited (one `PAYMENT` entry, a Pix its end-to-end id); an unpaid one none. */
export const paidOnce: Invariant<BookServices> = {
  name: "paidOnce",
  check: () => rows((sql) => sql`
    SELECT c.id, c.status, c.payment_type, count(e.id)::int AS payments, c.end_to_end_id FROM charges c
    LEFT JOIN ledger_entries e ON e.kind = 'PAYMENT' AND e.reference_id = c.id
    GROUP BY c.id, c.status, c.payment_type, c.end_to_end_id
    HAVING count(e.id) <> CASE WHEN c.status = ANY (${list(paidStatuses())}) THEN 1 ELSE 0 END
      OR (c.payment_type = 'PIX' AND c.status = ANY (${list(paidStatuses())}) AND c.end_to_end_id IS NULL)
    ORDER BY c.id`)
}

/** Every charge is in a status the engine knows. */
export const knownStatuses: Invariant<BookServices> = {
  name: "knownStatuses",
  check: () => rows((sql) => sql`SELECT id, status FROM charges WHERE status <> ALL (${list(ChargeStatuses)}) ORDER BY id`)
}

/**
 * Each subscription cycle has at most one invoice of its own and at most one
 * paid charge; an upgrade's prorata invoice sits on the cycle it was made in
 * beside it (`PlanInvariants.ts` checks those).
 */
export const cyclesBilledOnce: Invariant<BookServices> = {
  name: "cyclesBilledOnce",
  check: () => rows((sql) => sql`
    SELECT 'invoices' AS what, subscription_id, cycle_number, count(*)::int AS n FROM invoices i
    WHERE NOT EXISTS (SELECT 1 FROM invoice_lines l WHERE l.invoice_id = i.id AND l.type = 'PRORATA_UPGRADE')
    GROUP BY subscription_id, cycle_number HAVING count(*) > 1
    UNION ALL
    SELECT 'paid charges', subscription_id, cycle_number, count(*)::int FROM charges
    WHERE cycle_number IS NOT NULL AND status = ANY (${list(paidStatuses())})
    GROUP BY subscription_id, cycle_number HAVING count(*) > 1
    ORDER BY 2, 3`)
}

/** São Paulo's date (UTC-3 all year since 2019) at the clock's instant. */
const saoPauloToday = Effect.map(Clock.currentTimeMillis, Brazil.saoPauloDate)

/** The billing run's jobs that a day's passes must leave nothing to (a stalled card waits for its lease by design). */
const DUE_JOBS: ReadonlyArray<BillingJobName> = ["issue", "periodEnd", "retry", "overdue", "dunningEnd"]

/**
 * Nothing due is skipped: once the day's last pass ran, no cycle is left that
 * a job of the billing run would take today (by the rules' own table,
 * `jobTakesCycle`): every cycle due was issued, every overdue one marked,
 * every period end and dunning end applied.
 */
export const nothingDueLeft: Invariant<SqlClient.SqlClient> = {
  name: "nothingDueLeft",
  check: () => Effect.gen(function*() {
    const today = yield* saoPauloToday
    const sql = yield* SqlClient.SqlClient
    const cycles = yield* sql<{
      subscriptionId: string; subscriptionStatus: SubscriptionStatus; cancelAtPeriodEnd: boolean
      status: CycleStatus; cycleNumber: number; paymentMethod: PaymentMethodInput; issueDate: string; dueDate: string
      nextAttemptOn: string | null; heldReason: string | null; overdueAt: Date | null; attemptCount: number
    }>`
      SELECT c.subscription_id AS "subscriptionId", s.status AS "subscriptionStatus", s.cancel_at_period_end AS "cancelAtPeriodEnd",
        c.status, c.cycle_number AS "cycleNumber", c.payment_method AS "paymentMethod", c.issue_date::text AS "issueDate",
        c.due_date::text AS "dueDate", c.next_attempt_on::text AS "nextAttemptOn", c.held_reason AS "heldReason",
        c.overdue_at AS "overdueAt", c.attempt_count AS "attemptCount"
      FROM billing_cycles c JOIN subscriptions s ON s.id = c.subscription_id
      ORDER BY c.subscription_id, c.cycle_number`.pipe(Effect.orDie)
    return cycles.flatMap((c) =>
      DUE_JOBS.filter((job) => jobTakesCycle(job, { ...c, claimed: false }, { status: c.subscriptionStatus, cancelAtPeriodEnd: c.cancelAtPeriodEnd }, today))
        .map((job) => `${job} left undone on ${today}: ${c.subscriptionId} cycle ${c.cycleNumber} (${c.status}, subscription ${c.subscriptionStatus})`)
    )
  })
}

/** An invoice's lines, less its discount, are its total. */
export const invoicesEqualLines: Invariant<BookServices> = {
  name: "invoicesEqualLines",
  check: () => rows((sql) => sql`
    SELECT i.id, (i.total_cents + i.discount_cents)::text AS expected, coalesce(sum(l.net_amount_cents), 0)::text AS lines
    FROM invoices i LEFT JOIN invoice_lines l ON l.invoice_id = i.id
    GROUP BY i.id, i.total_cents, i.discount_cents
    HAVING i.total_cents + i.discount_cents <> coalesce(sum(l.net_amount_cents), 0)
    ORDER BY i.id`)
}

/** No invoice is issued after its subscription's cancellation took effect. */
export const noBillingAfterCancel: Invariant<BookServices> = {
  name: "noBillingAfterCancel",
  check: () => rows((sql) => sql`
    SELECT i.id AS invoice, s.id AS subscription, i.created_at, s.canceled_at FROM invoices i
    JOIN subscriptions s ON s.id = i.subscription_id
    WHERE s.canceled_at IS NOT NULL AND i.created_at > s.canceled_at
    ORDER BY i.id`)
}

/** A charge has at most one standing note, and a DPS number names one note of its issuer and series. */
export const notesOnce: Invariant<BookServices> = {
  name: "notesOnce",
  check: () => rows((sql) => sql`
    SELECT 'standing notes' AS what, charge_id AS key, count(*)::int AS n FROM notas
    WHERE charge_id IS NOT NULL AND status <> ALL (${list(ENDED_NOTA_STATUSES)}) GROUP BY charge_id HAVING count(*) > 1
    UNION ALL
    SELECT 'dps number', issuer_cnpj || '/' || serie || '/' || dps_number, count(*)::int FROM notas
    GROUP BY issuer_cnpj, serie, dps_number HAVING count(*) > 1
    ORDER BY 1, 2`)
}

/** Every request the receiver got was signed right, and every copy of one delivery carries the same event and body. */
export const webhookCopiesAgree: Invariant<BookServices> = {
  name: "webhookCopiesAgree",
  check: () => Receipts.useSync((receipts) => {
    const found: Array<string> = []
    const first = new Map<string, { readonly event: string; readonly bodyMd5: string; readonly url: string }>()
    for (const r of receipts.all()) {
      if (!r.signatureValid) found.push(`bad signature: ${r.event} to ${r.url} at ${new Date(r.at).toISOString()}`)
      const seen = first.get(r.id)
      if (seen === undefined) first.set(r.id, r)
      else if (seen.event !== r.event || seen.bodyMd5 !== r.bodyMd5 || seen.url !== r.url) found.push(`copies of ${r.event} to ${r.url} differ`)
    }
    return found
  })
}

/**
 * By the end, every event reached each registration that takes it (active
 * when the event was fanned out, naming it or taking all but the opt-in
 * ones), and the receiver holds an accepted, signed copy of each.
 */
export const everyEventDelivered: Invariant<BookServices> = {
  name: "everyEventDelivered",
  finalOnly: true,
  check: () => Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const missing = yield* sql<{ outbox: string; event: string; webhook: string; status: string | null }>`
      SELECT o.id::text AS outbox, o.event, w.id AS webhook, (SELECT string_agg(d.status, ',') FROM webhook_deliveries d
        WHERE d.webhook_id = w.id AND d.event = o.event AND d.body = o.body AND d.created_at = o.created_at) AS status
      FROM outbox o JOIN webhooks w ON w.account_id = o.account_id AND w.status = 'active' AND w.created_at <= o.processed_at
        AND ((jsonb_array_length(w.events) = 0 AND o.event <> ALL (${list(NamedOnlyEventNames)})) OR w.events @> jsonb_build_array(o.event))
      WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.event = o.event AND d.body = o.body
        AND d.created_at = o.created_at AND d.status = 'delivered')
      UNION ALL
      SELECT o.id::text, o.event, '-', 'never fanned out' FROM outbox o WHERE o.processed_at IS NULL
      ORDER BY 1, 3`.pipe(Effect.orDie)
    // Bodies by their digest: a year's million deliveries, whole, filled the process's heap.
    const delivered = yield* sql<{ id: string; bodyMd5: string }>`SELECT id, md5(body) AS "bodyMd5" FROM webhook_deliveries WHERE status = 'delivered'`.pipe(Effect.orDie)
    const accepted = new Set((yield* Receipts).all().filter((r) => r.answer === 200 && r.signatureValid).map((r) => `${r.id}\n${r.bodyMd5}`))
    const unseen = delivered.filter((d) => !accepted.has(`${d.id}\n${d.bodyMd5}`)).map((d) => `delivered but never accepted by the receiver: ${d.id}`)
    return [...missing.map((row) => JSON.stringify(row)), ...unseen]
  })
}

/**
 * The invariants of the engine's own books (its tables and what the webhook
 * endpoint got), which hold of any run of the engine: the simulator's, and
 * the crash loop's on the real processes (`crashloop/`).
 */
export const ofTheBooks: ReadonlyArray<Invariant<BookServices>> = [
  entriesBalance,
  booksFollowLines,
  refundsWithinPaid,
  paidOnce,
  knownStatuses,
  cyclesBilledOnce,
  nothingDueLeft,
  invoicesEqualLines,
  noBillingAfterCancel,
  notesOnce,
  webhookCopiesAgree,
  everyEventDelivered,
  oneEventPerChange,
  splitsAddUp,
  noBookEverBelowZero,
  retainedIsBlocked,
  couponsWithinLimits,
  prorataAsRuled
]

/** Those that compare the engine's books with the simulated providers' own (and the engine's reconciliation report). */
export const withTheProviders: ReadonlyArray<Invariant> = [
  pixCreditedOnce,
  pixReceivedBehindCredits,
  devolucoesAgree,
  cardBooksAgree,
  cityBooksAgree,
  reconciled
]

export const all: ReadonlyArray<Invariant> = [...ofTheBooks, ...withTheProviders]

export interface Violation {
  readonly invariant: string
  readonly detail: string
}

/** Checks `invariants` (the final-only ones when `final`); the violations found, in their order. */
export const checkAll = Effect.fn("Invariants.checkAll")(function*<R>(invariants: ReadonlyArray<Invariant<R>>, options: { readonly final: boolean }) {
  const found: Array<Violation> = []
  for (const invariant of invariants) {
    if (invariant.finalOnly === true && !options.final) continue
    for (const detail of yield* invariant.check(options.final)) found.push({ invariant: invariant.name, detail })
  }
  return found
})

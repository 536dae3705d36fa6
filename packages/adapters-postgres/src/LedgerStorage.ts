/**
 * The ledger on `effect/sql`. Entries and lines are appended with multi-row
 * statements; the database moves the balances (migration 0015), so this
 * adapter never computes one.
 */
import {
  cents,
  Counterparty,
  type EntryToPost,
  HOUSE,
  Ledger,
  LedgerLine,
  type LineDraft,
  railDirection,
  RAILS_BOOK,
  Receivable,
  Rules,
  STATEMENT_BOOKS,
  SubscriptionId,
  type WalletBalance
} from "@billing/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { CentsColumn, decodeRows, jsonColumn, withSeq } from "./Rows.ts"
import { constants, first, inScope, orDie } from "./Statements.ts"

const lineColumns = (sql: SqlClient.SqlClient) =>
  sql`l.seq::text AS seq, l.id, l.entry_id AS "entryId", l.holder, l.book, l.amount_cents AS amount,
    l.balance_after_cents AS "balanceAfter", l.category, l.title, l.description, l.payment_method AS "paymentMethod",
    l.charge_id AS "chargeId", l.subscription_id AS "subscriptionId", l.end_to_end_id AS "endToEndId",
    l.counterparty::text AS counterparty, l.reference_id AS "referenceId", n.note, l.created_at AS "createdAt"`

const LineRow = withSeq({
  ...LedgerLine.fields,
  amount: CentsColumn,
  balanceAfter: Schema.NullOr(CentsColumn),
  counterparty: jsonColumn(Counterparty)
})
const decodeLines = decodeRows(LineRow)

const ReceivableRow = Schema.Struct({
  ...Receivable.fields,
  amount: CentsColumn,
  settlesOn: Schema.String,
  subscriptionId: Schema.NullOr(SubscriptionId)
})
const decodeReceivables = decodeRows(ReceivableRow)
/** A receivable's `amount` is what it will still settle: what refunds took of it before is not. */
const receivableColumns = (sql: SqlClient.SqlClient) =>
  sql`r.id, r.holder, r.charge_id AS "chargeId", r.installment, r.amount_cents - r.refunded_cents AS amount, r.payment_method AS "paymentMethod",
    to_char(r.settles_on, 'YYYY-MM-DD') AS "settlesOn"`

/** A Pix through the rails as its line in the rails book moved it: signed, its direction read from the sign (`railDirection`). */
const decodeRail = decodeRows(Schema.Struct({
  endToEndId: Schema.String,
  amount: CentsColumn,
  at: Schema.Date
}))

const decodeDays = decodeRows(Schema.Struct({ day: Schema.String, amount: CentsColumn, count: Schema.Int }))

const decodeBalances = decodeRows(Schema.Struct({ holder: Schema.String, book: Schema.String, balance: CentsColumn }))

/**
 * The lines of `entries` in the order they are inserted: by holder, each
 * holder's lines in the order its entries gave them (a book's credit comes
 * before the debits of the same entry).
 */
const insertionOrder = (entries: ReadonlyArray<EntryToPost>) =>
  entries
    .flatMap((entry) => entry.lines.map((line, i) => ({ entryId: entry.id, id: entry.lineIds[i]!, line })))
    .map((row, position) => ({ ...row, position }))
    .sort((a, b) => (a.line.holder < b.line.holder ? -1 : a.line.holder > b.line.holder ? 1 : a.position - b.position))

type Service = Ledger["Service"]

const lineValues = (sql: SqlClient.SqlClient, row: { readonly entryId: string; readonly id: string; readonly line: LineDraft }, ord: number, at: Date) => {
  const l = row.line
  return sql`(${ord}::int, ${row.id}::text, ${row.entryId}::text, ${l.holder}::text, ${l.book}::text, ${l.amount}::bigint, ${l.category}::text,
    ${l.title}::text, ${l.description}::text, ${l.paymentMethod}::text, ${l.chargeId}::text, ${l.subscriptionId}::text, ${l.endToEndId}::text,
    ${l.counterparty === null ? null : JSON.stringify(l.counterparty)}::jsonb, ${l.referenceId}::text, ${at}::timestamptz)`
}

/**
 * Writes the lines with one statement: it locks the books they move (in
 * holder order, so two writers never deadlock), and gives each account
 * line its book's balance after it, in insertion order. The database's
 * statement trigger checks all of it and moves the balances.
 */
const insertLines = (sql: SqlClient.SqlClient, rows: ReturnType<typeof insertionOrder>, at: Date) =>
  orDie(sql`WITH v (ord, id, entry_id, holder, book, amount_cents, category, title, description, payment_method, charge_id,
      subscription_id, end_to_end_id, counterparty, reference_id, created_at) AS (
      VALUES ${sql.csv(rows.map((row, ord) => lineValues(sql, row, ord, at)))}),
    locked AS (
      SELECT b.holder, b.book, b.balance_cents FROM ledger_balances b
      WHERE (b.holder, b.book) IN (SELECT holder, book FROM v WHERE holder <> ${HOUSE})
      ORDER BY b.holder, b.book FOR UPDATE)
    INSERT INTO ledger_lines (id, entry_id, holder, book, amount_cents, balance_after_cents, category, title, description,
      payment_method, charge_id, subscription_id, end_to_end_id, counterparty, reference_id, created_at)
    SELECT v.id, v.entry_id, v.holder, v.book, v.amount_cents,
      k.balance_cents + sum(v.amount_cents) OVER (PARTITION BY v.holder, v.book ORDER BY v.ord),
      v.category, v.title, v.description, v.payment_method, v.charge_id, v.subscription_id, v.end_to_end_id, v.counterparty,
      v.reference_id, v.created_at
    FROM v LEFT JOIN locked k ON k.holder = v.holder AND k.book = v.book
    ORDER BY v.ord`)

/** Appends entries not posted before (one per kind and reference) with their lines; which of `entries` were posted now. */
const post = (sql: SqlClient.SqlClient): Service["post"] => (entries, at) =>
  Effect.gen(function*() {
    if (entries.length === 0) return []
    const inserted = yield* orDie(sql<{ id: string }>`INSERT INTO ledger_entries (id, account_id, kind, reference_id, created_at)
      VALUES ${sql.csv(entries.map((e) => sql`(${e.id}, ${e.accountId}, ${e.kind}, ${e.referenceId}, ${at})`))}
      ON CONFLICT (kind, reference_id) DO NOTHING RETURNING id`)
    const posted = new Set(inserted.map((row) => row.id))
    const rows = insertionOrder(entries.filter((e) => posted.has(e.id)))
    if (rows.length > 0) yield* insertLines(sql, rows, at)
    return entries.map((e) => posted.has(e.id))
  })

/** The four books of each account; a book never moved reads zero. */
const balances = (sql: SqlClient.SqlClient): Service["balances"] => (accountIds) =>
  Effect.gen(function*() {
    const rows = accountIds.length === 0 ? [] : yield* orDie(sql`SELECT holder, book, balance_cents AS balance FROM ledger_balances
      WHERE holder IN ${sql.in([...accountIds])}`).pipe(Effect.flatMap(decodeBalances))
    const of = (holder: string, book: string) => rows.find((row) => row.holder === holder && row.book === book)?.balance ?? cents(0)
    return new Map<string, WalletBalance>(accountIds.map((id) => [id, { available: of(id, "AVAILABLE"), receivable: of(id, "RECEIVABLE"), retained: of(id, "RETAINED"), debt: of(id, "DEBT") }]))
  })

/** An account's statement lines, newest first: the books its holder sees. */
const statement = (sql: SqlClient.SqlClient): Service["statement"] => (accountId, filter) =>
  orDie(sql`SELECT ${lineColumns(sql)} FROM ledger_lines l LEFT JOIN ledger_line_notes n ON n.line_id = l.id
    WHERE l.holder = ${accountId} AND l.book IN ${constants(sql, STATEMENT_BOOKS)} ${beforeCursor(sql, filter.beforeSeq, sql`l.seq`)}
    ${filter.direction === null ? sql`` : filter.direction === "CREDIT" ? sql`AND l.amount_cents > 0` : sql`AND l.amount_cents < 0`}
    ${filter.category === null ? sql`` : sql`AND l.category = ${filter.category}`}
    ${filter.from === null ? sql`` : sql`AND l.created_at >= ${filter.from}`}
    ${filter.to === null ? sql`` : sql`AND l.created_at <= ${filter.to}`}
    ORDER BY l.seq DESC LIMIT ${filter.limit + 1}`).pipe(
    Effect.flatMap(decodeLines),
    Effect.map((lines) => ({ lines: lines.slice(0, filter.limit), hasMore: lines.length > filter.limit }))
  )

/** Keeps a note on a line of the account; none when the line is not its. */
const setNote = (sql: SqlClient.SqlClient): Service["setNote"] => (accountId, lineId, note, at) =>
  Effect.gen(function*() {
    const owned = yield* orDie(sql`SELECT 1 FROM ledger_lines WHERE id = ${lineId} AND holder = ${accountId}`)
    if (owned.length === 0) return Option.none()
    yield* orDie(sql`INSERT INTO ledger_line_notes (line_id, note, updated_at) VALUES (${lineId}, ${note}, ${at})
      ON CONFLICT (line_id) DO UPDATE SET note = EXCLUDED.note, updated_at = EXCLUDED.updated_at`)
    const lines = yield* orDie(sql`SELECT ${lineColumns(sql)} FROM ledger_lines l LEFT JOIN ledger_line_notes n ON n.line_id = l.id
      WHERE l.id = ${lineId}`).pipe(Effect.flatMap(decodeLines))
    return first(lines)
  })

/** Settles receivables whose day came, a batch at a time, each with its charge's subscription. */
const settleDue = (sql: SqlClient.SqlClient): Service["settleDue"] => (day, limit, scope, at) =>
  orDie(sql`WITH due AS (
      SELECT id FROM receivables WHERE settled_at IS NULL AND settles_on <= ${day}::date AND ${inScope(sql, scope, sql`receivables.holder`)}
      ORDER BY settles_on, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE receivables r SET settled_at = ${at} FROM due, charges c WHERE r.id = due.id AND c.id = r.charge_id
    RETURNING ${receivableColumns(sql)}, c.subscription_id AS "subscriptionId"`).pipe(Effect.flatMap(decodeReceivables))

/** The account's Pix through the clearing book between `from` and `to`, as the PSP's statement would show them. */
const railMovements = (sql: SqlClient.SqlClient): Service["railMovements"] => (accountId, from, to) =>
  orDie(sql`SELECT l.end_to_end_id AS "endToEndId", l.amount_cents AS amount, l.created_at AS at
    FROM ledger_entries e JOIN ledger_lines l ON l.entry_id = e.id
    WHERE e.account_id = ${accountId} AND e.created_at >= ${from} AND e.created_at < ${to}
      AND l.book IN ${constants(sql, [RAILS_BOOK])} AND l.payment_method = 'PIX' AND l.end_to_end_id IS NOT NULL
    ORDER BY l.created_at, l.id`).pipe(
    Effect.flatMap(decodeRail),
    Effect.map((rows) => rows.map(({ amount, at, endToEndId }) => ({ endToEndId, direction: railDirection(amount), amount: cents(Math.abs(amount)), at })))
  )

/** Takes `amount` from the open receivables of a charge, the last installment first (a refund drawn from what is to come). */
const takeReceivables = (sql: SqlClient.SqlClient): Service["takeReceivables"] => (holder, chargeId, amount) =>
  Effect.gen(function*() {
    const open = yield* orDie(sql<{ id: string; left: string }>`SELECT id, (amount_cents - refunded_cents)::text AS left FROM receivables
      WHERE holder = ${holder} AND charge_id = ${chargeId} AND settled_at IS NULL AND refunded_cents < amount_cents
      ORDER BY installment DESC FOR UPDATE`)
    const taken = Rules.takeInOrder(open.map((row) => ({ receivableId: row.id, remaining: cents(Number(row.left)) })), amount)
      .map((t) => ({ receivableId: t.receivableId, holder, amount: t.paid }))
    if (taken.length > 0) {
      yield* orDie(sql`UPDATE receivables SET refunded_cents = refunded_cents + v.take
        FROM (VALUES ${sql.csv(taken.map((t) => sql`(${t.receivableId}, ${t.amount}::bigint)`))}) AS v (id, take) WHERE receivables.id = v.id`)
    }
    return taken
  })

/** Gives back what `takeReceivables` took, to the receivables not settled meanwhile; what it gave back. */
const restoreReceivables = (sql: SqlClient.SqlClient): Service["restoreReceivables"] => (taken) =>
  taken.length === 0 ? Effect.succeed([]) : orDie(sql<{ id: string }>`UPDATE receivables SET refunded_cents = refunded_cents - v.back
    FROM (VALUES ${sql.csv(taken.map((t) => sql`(${t.receivableId}, ${t.amount}::bigint)`))}) AS v (id, back)
    WHERE receivables.id = v.id AND receivables.settled_at IS NULL RETURNING receivables.id`).pipe(
    Effect.map((rows) => {
      const restored = new Set(rows.map((row) => row.id))
      return taken.filter((t) => restored.has(t.receivableId))
    })
  )

export const LedgerStorageLive = Layer.effect(Ledger, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Ledger.of({
    post: post(sql),
    balances: balances(sql),
    lockBooks: (holders) =>
      holders.length === 0 ? Effect.void : orDie(sql`SELECT 1 FROM ledger_balances WHERE holder IN ${sql.in([...holders])}
        ORDER BY holder, book FOR UPDATE`).pipe(Effect.asVoid),
    lockBalance: (accountId, book) =>
      orDie(sql<{ balance: string }>`SELECT balance_cents::text AS balance FROM ledger_balances
        WHERE holder = ${accountId} AND book = ${book} FOR UPDATE`).pipe(
        Effect.map((rows) => cents(Number(rows[0]?.balance ?? 0)))
      ),
    statement: statement(sql),
    setNote: setNote(sql),
    insertReceivables: (receivables) =>
      receivables.length === 0 ? Effect.void : orDie(sql`INSERT INTO receivables (id, holder, charge_id, installment, amount_cents, payment_method, settles_on)
        VALUES ${sql.csv(receivables.map((r) => sql`(${r.id}, ${r.holder}, ${r.chargeId}, ${r.installment}, ${r.amount}, ${r.paymentMethod}, ${r.settlesOn}::date)`))}`),
    settleDue: settleDue(sql),
    railMovements: railMovements(sql),
    takeReceivables: takeReceivables(sql),
    restoreReceivables: restoreReceivables(sql),
    receivableDays: (accountId, from, to) =>
      orDie(sql`SELECT to_char(settles_on, 'YYYY-MM-DD') AS day, sum(amount_cents - refunded_cents) AS amount, count(*)::int AS count FROM receivables
        WHERE holder = ${accountId} AND settled_at IS NULL AND refunded_cents < amount_cents AND settles_on BETWEEN ${from}::date AND ${to}::date
        GROUP BY settles_on ORDER BY settles_on`).pipe(Effect.flatMap(decodeDays)),
    receivablesOn: (accountId, day, limit) =>
      orDie(sql`SELECT ${receivableColumns(sql)}, NULL AS "subscriptionId" FROM receivables r
        WHERE r.holder = ${accountId} AND r.settled_at IS NULL AND r.refunded_cents < r.amount_cents AND r.settles_on = ${day}::date
        ORDER BY r.charge_id, r.installment LIMIT ${limit}`).pipe(Effect.flatMap(decodeReceivables))
  })
}))

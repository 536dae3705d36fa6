/**
 * Charges, the sandbox payment queue and fee schedules on `effect/sql`.
 * Status changes are single conditional UPDATEs (`WHERE status IN (…)`), so
 * PostgreSQL decides races: under READ COMMITTED a second updater re-checks
 * the condition after the first commits and finds nothing to change.
 */
import { type Charge, Charges, cents, FeeSchedules, SandboxPayments } from "@billing/core"
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { makeBatchWriter } from "./BatchWriter.ts"
import { inTransaction, readThrough } from "./ReadThrough.ts"

/**
 * Statements that may write charges at once in group commit. Two keep the
 * database busy while the next batch gathers; more only make batches smaller.
 */
const BATCH_WRITERS = 2

interface ChargeRow {
  readonly id: string
  readonly account_id: string
  readonly master_account_id: string
  readonly payment_type: Charge["paymentType"]
  readonly status: Charge["status"]
  readonly amount_cents: string | number | bigint
  readonly fee_cents: string | number | bigint
  readonly fee_fixed_cents: string | number | bigint
  readonly fee_percent_hundredths: number
  readonly net_cents: string | number | bigint
  readonly txid: string
  readonly emv: string | null
  readonly external_txid: string | null
  readonly description: string | null
  readonly metadata: string | null
  readonly customer: string | null
  readonly split: string | null
  readonly due_date: string | null
  readonly expires_at: Date
  readonly paid_at: Date | null
  readonly end_to_end_id: string | null
  readonly payer: string | null
  readonly canceled_at: Date | null
  readonly archived_at: Date | null
  readonly attempts: number
  readonly external_id: string | null
  readonly customer_id: string | null
  readonly card: string | null
  readonly boleto: string | null
  readonly address: string | null
  readonly notifications: string | null
  readonly failure_reason: string | null
  readonly created_at: Date
  readonly updated_at: Date
}

const json = <A>(text: string | null): A | null => (text === null ? null : (JSON.parse(text) as A))
const date = (d: Date | null) => (d === null ? null : new Date(d))

const toCharge = (r: ChargeRow): Charge => ({
  id: r.id,
  accountId: r.account_id,
  masterAccountId: r.master_account_id,
  paymentType: r.payment_type,
  status: r.status,
  amount: cents(Number(r.amount_cents)),
  fee: cents(Number(r.fee_cents)),
  feeFixed: cents(Number(r.fee_fixed_cents)),
  feePercentHundredths: Number(r.fee_percent_hundredths),
  net: cents(Number(r.net_cents)),
  txid: r.txid,
  emv: r.emv,
  externalTxid: r.external_txid,
  description: r.description,
  metadata: json(r.metadata),
  customer: json(r.customer),
  split: json(r.split),
  dueDate: r.due_date,
  expiresAt: new Date(r.expires_at),
  paidAt: date(r.paid_at),
  endToEndId: r.end_to_end_id,
  payer: json(r.payer),
  canceledAt: date(r.canceled_at),
  archivedAt: date(r.archived_at),
  attempts: Number(r.attempts),
  externalId: r.external_id,
  customerId: r.customer_id,
  card: json(r.card),
  boleto: json(r.boleto),
  address: json(r.address),
  notifications: json(r.notifications),
  failureReason: r.failure_reason,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at)
})

const OPEN = ["PENDING", "PROCESSING", "AWAITING_PAYMENT"]

export const ChargesStorageLive = Layer.effectContext(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)
  const columns = sql`id, account_id, master_account_id, payment_type, status, amount_cents::text AS amount_cents,
    fee_cents::text AS fee_cents, fee_fixed_cents::text AS fee_fixed_cents, fee_percent_hundredths, net_cents::text AS net_cents,
    txid, emv, external_txid, description, metadata, customer, split, to_char(due_date, 'YYYY-MM-DD') AS due_date, expires_at,
    paid_at, end_to_end_id, payer, canceled_at, archived_at, attempts, external_id, customer_id, card, boleto, address, notifications, failure_reason, created_at, updated_at`
  const scoped = (scope: Parameters<Charges["Service"]["find"]>[0]) =>
    scope._tag === "Account" ? sql`account_id = ${scope.accountId}` : sql`master_account_id = ${scope.masterAccountId}`
  const text = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))
  const insertColumns = sql`(id, account_id, master_account_id, payment_type, status, amount_cents, fee_cents, fee_fixed_cents,
    fee_percent_hundredths, net_cents, txid, emv, external_txid, description, metadata, customer, split, due_date, expires_at,
    paid_at, attempts, external_id, customer_id, card, boleto, address, notifications, failure_reason, created_at, updated_at)`
  const values = (c: Charge) =>
    sql`(${c.id}, ${c.accountId}, ${c.masterAccountId}, ${c.paymentType}, ${c.status}, ${c.amount}, ${c.fee}, ${c.feeFixed},
      ${c.feePercentHundredths}, ${c.net}, ${c.txid}, ${c.emv}, ${c.externalTxid}, ${c.description}, ${text(c.metadata)},
      ${text(c.customer)}, ${text(c.split)}, ${c.dueDate}::date, ${c.expiresAt}, ${c.paidAt}, ${c.attempts}, ${c.externalId},
      ${c.customerId}, ${text(c.card)}, ${text(c.boleto)}, ${text(c.address)}, ${text(c.notifications)}, ${c.failureReason},
      ${c.createdAt}, ${c.updatedAt})`
  const insertRow = (c: Charge) => sql`INSERT INTO charges ${insertColumns} VALUES ${values(c)}`
  const insertRows = (rows: ReadonlyArray<Charge>) => sql`INSERT INTO charges ${insertColumns} VALUES ${sql.csv(rows.map(values))}`
  // A charge inserted on its own (a Pix charge: one row, no event) is its own
  // transaction, so those go through group commit; inside a transaction the
  // row must commit with the transaction's other writes.
  const insertBatched = yield* makeBatchWriter<Charge>({
    writeMany: (rows) => run(insertRows(rows)),
    writeOne: (row) => run(insertRow(row)),
    writers: BATCH_WRITERS,
    maxBatch: 64
  })

  const charges = Charges.of({
    insert: (c) => Effect.flatMap(inTransaction(sql), (tx) => (tx ? run(insertRow(c)) : insertBatched(c))),
    insertUnlessDuplicate: (c) =>
      Effect.gen(function*() {
        const inserted = yield* run(sql<{ id: string }>`${insertRow(c)}
          ON CONFLICT (account_id, external_id) WHERE external_id IS NOT NULL DO NOTHING
          RETURNING id`)
        if (inserted.length > 0) return { inserted: true } as const
        const existing = yield* run(sql<{ id: string }>`SELECT id FROM charges WHERE account_id = ${c.accountId} AND external_id = ${c.externalId}`)
        if (existing[0] === undefined) return yield* Effect.die(new Error("duplicate externalId without a charge"))
        return { inserted: false, existingId: existing[0].id } as const
      }),
    findForDocument: (id) =>
      run(sql<ChargeRow>`SELECT ${columns} FROM charges WHERE id = ${id}`).pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toCharge))
      ),
    find: (scope, id) =>
      run(sql<ChargeRow>`SELECT ${columns} FROM charges WHERE id = ${id} AND ${scoped(scope)}`).pipe(
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toCharge))
      ),
    list: (scope, q) =>
      Effect.gen(function*() {
        const where = sql`${scoped(scope)}
          ${q.from === null ? sql`` : sql`AND created_at >= ${q.from}`}
          ${q.to === null ? sql`` : sql`AND created_at <= ${q.to}`}`
        const [count] = yield* run(sql<{ n: string }>`SELECT count(*)::text AS n FROM charges WHERE ${where}`)
        const rows = yield* run(sql<ChargeRow>`SELECT ${columns} FROM charges WHERE ${where}
          ORDER BY created_at DESC, id LIMIT ${q.limit} OFFSET ${q.offset}`)
        return { items: rows.map(toCharge), total: Number(count?.n ?? 0) }
      }),
    transition: (id, from, to, changes, at) =>
      run(sql<ChargeRow>`UPDATE charges SET
          status = ${to},
          updated_at = ${at},
          paid_at = COALESCE(${changes.paidAt ?? null}, paid_at),
          end_to_end_id = COALESCE(${changes.endToEndId ?? null}, end_to_end_id),
          payer = COALESCE(${text(changes.payer)}, payer),
          canceled_at = COALESCE(${changes.canceledAt ?? null}, canceled_at),
          archived_at = COALESCE(${changes.archivedAt ?? null}, archived_at),
          failure_reason = COALESCE(${changes.failureReason ?? null}, failure_reason)
        WHERE id = ${id} AND status IN ${sql.in([...from])}
        RETURNING ${columns}`).pipe(Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toCharge))),
    expireDue: (now, limit) =>
      run(sql<ChargeRow>`UPDATE charges SET status = 'EXPIRED', updated_at = ${now}
        WHERE id IN (
          SELECT id FROM charges WHERE status IN ${sql.in(OPEN)} AND expires_at < ${now}
          ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
        ) AND status IN ${sql.in(OPEN)}
        RETURNING ${columns}`).pipe(Effect.map((rows) => rows.map(toCharge)))
  })

  const sandboxPayments = SandboxPayments.of({
    enqueue: (chargeId, accountId, at) =>
      run(sql`INSERT INTO sandbox_payments (charge_id, account_id, requested_at) VALUES (${chargeId}, ${accountId}, ${at})
        ON CONFLICT (charge_id) DO NOTHING`),
    claimPending: (limit) =>
      run(sql<{ charge_id: string; account_id: string }>`SELECT charge_id, account_id FROM sandbox_payments
        WHERE processed_at IS NULL ORDER BY requested_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`).pipe(
        Effect.map((rows) => rows.map((r) => ({ chargeId: r.charge_id, accountId: r.account_id })))
      ),
    markProcessed: (chargeId, at) => run(sql`UPDATE sandbox_payments SET processed_at = ${at} WHERE charge_id = ${chargeId}`)
  })

  const feeSchedule = yield* readThrough(sql, (accountId: string, method: string) =>
    run(sql<{ fixed_cents: string; percent_hundredths: number }>`SELECT fixed_cents::text AS fixed_cents, percent_hundredths
      FROM account_fees WHERE account_id = ${accountId} AND payment_method = ${method}`).pipe(
      Effect.map((rows) =>
        Option.map(Option.fromNullishOr(rows[0]), (r) => ({ fixed: cents(Number(r.fixed_cents)), percentHundredths: Number(r.percent_hundredths) }))
      )
    ), { cacheEmpty: true })
  const fees = FeeSchedules.of({ find: feeSchedule.get })

  return Context.make(Charges, charges).pipe(Context.add(SandboxPayments, sandboxPayments), Context.add(FeeSchedules, fees))
}))

/**
 * Charges on `effect/sql`.
 * Status changes are single conditional UPDATEs (`WHERE status IN (…)`), so
 * PostgreSQL decides races: under READ COMMITTED a second updater re-checks
 * the condition after the first commits and finds nothing to change.
 */
import {
  AccountId,
  Charge,
  ChargeAddress,
  ChargeBoleto,
  ChargeCard,
  ChargeCustomer,
  ChargeId,
  ChargeMetadata,
  Charges,
  ChargeSplitPart,
  ChargeTransitions,
  NotificationKind,
  PixPayer,
  SubscriptionId
} from "@billing/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { makeBatchWriter } from "./BatchWriter.ts"
import { stalledCardAttempt } from "./CycleClaims.ts"
import { inTransaction } from "./ReadThrough.ts"
import { accountIdsOf, CentsColumn, decodeRows, jsonColumn, jsonText } from "./Rows.ts"
import { containsPattern, firstOf, inScope, insertRecords, orDie } from "./Statements.ts"

/**
 * Statements that may write charges at once in group commit. Two keep the
 * database busy while the next batch gathers; more only make batches smaller.
 */
const BATCH_WRITERS = 2

/** A charge row: the entity, with its centavos as `bigint` and its JSON blocks as text. */
const ChargeRow = Schema.Struct({
  ...Charge.fields,
  amount: CentsColumn,
  fee: CentsColumn,
  feeFixed: CentsColumn,
  net: CentsColumn,
  metadata: jsonColumn(ChargeMetadata),
  customer: jsonColumn(ChargeCustomer),
  split: jsonColumn(Schema.Array(ChargeSplitPart)),
  payer: jsonColumn(PixPayer),
  card: jsonColumn(ChargeCard),
  boleto: jsonColumn(ChargeBoleto),
  address: jsonColumn(ChargeAddress),
  notifications: jsonColumn(Schema.Array(NotificationKind))
})
const decodeCharges = decodeRows(ChargeRow)
const decodeTotals = decodeRows(Schema.Struct({ total: CentsColumn }))
const decodeIds = decodeRows(Schema.Struct({ id: ChargeId }))
const decodeAddresses = decodeRows(Schema.Struct({ id: SubscriptionId, address: Schema.fromJsonString(ChargeAddress) }))

/** What every statement of the storage needs: the client and the charge's select list. */
interface ChargeTable {
  readonly sql: SqlClient.SqlClient
  /** Named as the entity's fields; the split parts are rows of their own, gathered in position order. */
  readonly columns: Statement.Fragment
}

const selectList = (sql: SqlClient.SqlClient) =>
  sql`id, account_id AS "accountId", master_account_id AS "masterAccountId", payment_type AS "paymentType", status,
    amount_cents AS amount, fee_cents AS fee, fee_fixed_cents AS "feeFixed", fee_percent_hundredths AS "feePercentHundredths",
    net_cents AS net, txid, emv, psp, external_txid AS "externalTxid", description, metadata, customer,
    (SELECT json_agg(json_build_object('accountId', s.account_id, 'accountNumber', s.account_number, 'type', s.type,
        'value', s.value, 'amount', s.amount_cents) ORDER BY s.position)::text
      FROM charge_splits s WHERE s.charge_id = charges.id) AS split,
    to_char(due_date, 'YYYY-MM-DD') AS "dueDate", expires_at AS "expiresAt", paid_at AS "paidAt", end_to_end_id AS "endToEndId", payer,
    canceled_at AS "canceledAt", archived_at AS "archivedAt", attempts, external_id AS "externalId", customer_id AS "customerId", card,
    boleto, address, notifications, failure_reason AS "failureReason", subscription_id AS "subscriptionId",
    cycle_number AS "cycleNumber", created_at AS "createdAt", updated_at AS "updatedAt"`

const decodeOne = firstOf(decodeCharges)

/** A charge as a row of `charges` (its split parts go to `charge_splits`). */
const chargeRecord = (c: Charge) => ({
  id: c.id,
  account_id: c.accountId,
  master_account_id: c.masterAccountId,
  payment_type: c.paymentType,
  status: c.status,
  amount_cents: c.amount,
  fee_cents: c.fee,
  fee_fixed_cents: c.feeFixed,
  fee_percent_hundredths: c.feePercentHundredths,
  net_cents: c.net,
  txid: c.txid,
  emv: c.emv,
  psp: c.psp,
  external_txid: c.externalTxid,
  description: c.description,
  metadata: jsonText(c.metadata),
  customer: jsonText(c.customer),
  due_date: c.dueDate,
  expires_at: c.expiresAt,
  paid_at: c.paidAt,
  attempts: c.attempts,
  external_id: c.externalId,
  customer_id: c.customerId,
  card: jsonText(c.card),
  boleto: jsonText(c.boleto),
  address: jsonText(c.address),
  notifications: jsonText(c.notifications),
  failure_reason: c.failureReason,
  subscription_id: c.subscriptionId,
  cycle_number: c.cycleNumber,
  created_at: c.createdAt,
  updated_at: c.updatedAt
})

const insertRows = (sql: SqlClient.SqlClient, rows: ReadonlyArray<Charge>) => insertRecords(sql, "charges", rows.map(chargeRecord))

/** The split parts of `charges`, in one statement (none when they have no split). */
const insertSplits = (sql: SqlClient.SqlClient, charges: ReadonlyArray<Charge>) => {
  const parts = charges.flatMap((c) => (c.split ?? []).map((p, position) => ({ c, p, position })))
  return parts.length === 0 ? Effect.void : orDie(sql`INSERT INTO charge_splits
    (charge_id, position, account_id, account_number, type, value, amount_cents)
    VALUES ${sql.csv(parts.map(({ c, p, position }) =>
      sql`(${c.id}, ${position}, ${p.accountId}, ${p.accountNumber}, ${p.type}, ${p.value}, ${p.amount})`))}`)
}

const hasSplit = (c: Charge) => c.split !== null && c.split.length > 0

const insertWithSplit = (sql: SqlClient.SqlClient, c: Charge) => Effect.andThen(orDie(insertRows(sql, [c])), insertSplits(sql, [c]))

type Scope = Parameters<Charges["Service"]["find"]>[0]

const scoped = (sql: SqlClient.SqlClient, scope: Scope) =>
  scope._tag === "Account" ? sql`account_id = ${scope.accountId}` : sql`master_account_id = ${scope.masterAccountId}`

/**
 * A charge inserted on its own without split parts (a Pix charge: one row,
 * no event) is its own transaction, so those go through group commit;
 * inside a transaction, or with split rows to write alongside, the charge
 * must commit with the other writes.
 */
const insert = (sql: SqlClient.SqlClient, insertBatched: (c: Charge) => Effect.Effect<void>) => (c: Charge) =>
  Effect.flatMap(inTransaction(sql), (tx) =>
    tx ? insertWithSplit(sql, c)
    : !hasSplit(c) ? insertBatched(c)
    : sql.withTransaction(insertWithSplit(sql, c)).pipe(Effect.catchTag("SqlError", Effect.die)))

const insertUnlessDuplicate = ({ sql }: ChargeTable) => (c: Charge) =>
  Effect.gen(function*() {
    const inserted = yield* orDie(sql<{ id: string }>`${insertRows(sql, [c])}
      ON CONFLICT (account_id, external_id) WHERE external_id IS NOT NULL DO NOTHING
      RETURNING id`)
    if (inserted.length > 0) return yield* Effect.as(insertSplits(sql, [c]), { inserted: true } as const)
    const existing = yield* orDie(sql`SELECT id FROM charges WHERE account_id = ${c.accountId} AND external_id = ${c.externalId}`).pipe(
      Effect.flatMap(decodeIds)
    )
    if (existing[0] === undefined) return yield* Effect.die(new Error("duplicate externalId without a charge"))
    return { inserted: false, existingId: existing[0].id } as const
  })

const insertMany = ({ sql }: ChargeTable) => (rows: ReadonlyArray<Charge>) =>
  rows.length === 0 ? Effect.void : Effect.andThen(orDie(insertRows(sql, rows)), insertSplits(sql, rows))

const lockOwn = ({ sql, columns }: ChargeTable): Charges["Service"]["lockOwn"] => (accountId, key) =>
  orDie(sql`SELECT ${columns} FROM charges WHERE account_id = ${accountId}
    AND ${"chargeId" in key ? sql`id = ${key.chargeId}` : sql`end_to_end_id = ${key.endToEndId}`} FOR UPDATE`).pipe(Effect.flatMap(decodeOne))

/** The filters of a charge list, each only when the query sets it. */
const listFilter = (sql: SqlClient.SqlClient, scope: Scope, q: Parameters<Charges["Service"]["list"]>[1]) => {
  const pattern = q.search === null ? null : containsPattern(q.search)
  return sql`${scoped(sql, scope)}
    ${q.from === null ? sql`` : sql`AND created_at >= ${q.from}`}
    ${q.to === null ? sql`` : sql`AND created_at <= ${q.to}`}
    ${q.status === null ? sql`` : sql`AND status = ${q.status}`}
    ${q.paymentType === null ? sql`` : sql`AND payment_type = ${q.paymentType}`}
    ${q.accountId === null ? sql`` : sql`AND account_id = ${q.accountId}`}
    ${q.document === null ? sql`` : sql`AND customer::jsonb ->> 'documentNumber' = ${q.document}`}
    ${pattern === null ? sql`` : sql`AND (id ILIKE ${pattern} OR description ILIKE ${pattern} OR external_txid ILIKE ${pattern}
      OR customer::jsonb ->> 'name' ILIKE ${pattern} OR customer::jsonb ->> 'email' ILIKE ${pattern}
      OR customer::jsonb ->> 'documentNumber' ILIKE ${pattern})`}`
}

const list = ({ sql, columns }: ChargeTable): Charges["Service"]["list"] => (scope, q) =>
  Effect.gen(function*() {
    const where = listFilter(sql, scope, q)
    const [count] = yield* orDie(sql<{ n: string }>`SELECT count(*)::text AS n FROM charges WHERE ${where}`)
    const rows = yield* orDie(sql`SELECT ${columns} FROM charges WHERE ${where}
      ORDER BY created_at DESC, id LIMIT ${q.limit} OFFSET ${q.offset}`)
    return { items: yield* decodeCharges(rows), total: Number(count?.n ?? 0) }
  })

const billingAddresses = ({ sql }: ChargeTable) => (ids: ReadonlyArray<SubscriptionId>) =>
  ids.length === 0 ? Effect.succeed(new Map<SubscriptionId, ChargeAddress>()) : orDie(sql`
    SELECT DISTINCT ON (subscription_id) subscription_id AS id, address FROM charges
    WHERE subscription_id IN ${sql.in([...ids])} AND address IS NOT NULL ORDER BY subscription_id, created_at, id`).pipe(
    Effect.flatMap(decodeAddresses),
    Effect.map((rows) => new Map(rows.map((row) => [row.id, row.address])))
  )

/** The statuses an acquirer's answer moves a card charge from: one still waiting for it. */
const unanswered = ChargeTransitions.cardApproved

/**
 * Cancels the subscription's open charges but a card charge still waiting
 * for its acquirer: the card may have been charged, so the card jobs record
 * its answer (an approval stays paid, and refundable) rather than a cancel
 * hiding a captured payment.
 */
const cancelOpenOfSubscription = ({ sql, columns }: ChargeTable) => (subscriptionId: string, at: Date) =>
  orDie(sql`UPDATE charges SET status = ${ChargeTransitions.canceled.to}, canceled_at = ${at}, updated_at = ${at}
    WHERE subscription_id = ${subscriptionId} AND status IN ${sql.in([...ChargeTransitions.canceled.from])}
      AND NOT (payment_type = 'CREDIT_CARD' AND status IN ${sql.in([...unanswered.from])})
    RETURNING ${columns}`).pipe(Effect.flatMap(decodeCharges))

/** What the customer paid: its charges that are paid (a confirmed payment's status). */
const paidByCustomer = ({ sql }: ChargeTable) => (accountId: AccountId, customerId: string) =>
  orDie(sql`SELECT coalesce(sum(amount_cents), 0) AS total FROM charges
    WHERE account_id = ${accountId} AND customer_id = ${customerId} AND status = ${ChargeTransitions.paymentConfirmed.to}`).pipe(
    Effect.flatMap(decodeTotals),
    Effect.map((rows) => rows[0]!.total)
  )

const transition = ({ sql, columns }: ChargeTable): Charges["Service"]["transition"] => (id, move, changes, at) =>
  orDie(sql`UPDATE charges SET
      status = ${move.to},
      updated_at = ${at},
      paid_at = COALESCE(${changes.paidAt ?? null}, paid_at),
      end_to_end_id = COALESCE(${changes.endToEndId ?? null}, end_to_end_id),
      payer = COALESCE(${jsonText(changes.payer)}, payer),
      canceled_at = COALESCE(${changes.canceledAt ?? null}, canceled_at),
      archived_at = COALESCE(${changes.archivedAt ?? null}, archived_at),
      failure_reason = COALESCE(${changes.failureReason ?? null}, failure_reason),
      psp = COALESCE(${changes.psp ?? null}, psp)
    WHERE id = ${id} AND status IN ${sql.in([...move.from])}
    RETURNING ${columns}`).pipe(Effect.flatMap(decodeOne))

const transitionMany = ({ sql, columns }: ChargeTable): Charges["Service"]["transitionMany"] => (move, rows, at) =>
  rows.length === 0 ? Effect.succeed([]) : orDie(sql`UPDATE charges SET status = ${move.to}, updated_at = ${at},
      paid_at = COALESCE(v.v_paid_at, charges.paid_at), failure_reason = COALESCE(v.v_failure_reason, charges.failure_reason)
    FROM (VALUES ${sql.csv(rows.map((r) => sql`(${r.id}, ${r.paidAt ?? null}::timestamptz, ${r.failureReason ?? null}::text)`))})
      AS v (v_id, v_paid_at, v_failure_reason)
    WHERE charges.id = v.v_id AND charges.status IN ${sql.in([...move.from])}
    RETURNING ${columns}`).pipe(Effect.flatMap(decodeCharges))

const expired = ChargeTransitions.expired

/** A charge of a production account paid by `paymentType`: its provider is a real one. */
const atRealProvider = (sql: SqlClient.SqlClient, paymentType: "BOLETO" | "CREDIT_CARD" | "PIX") =>
  sql`charges.payment_type = ${paymentType} AND EXISTS (SELECT 1 FROM accounts a WHERE a.id = charges.account_id AND NOT a.sandbox)`

/** A charge that is a boleto of a production account: registered at a real bank, written off there before it expires. */
const bankBoleto = (sql: SqlClient.SqlClient) => atRealProvider(sql, "BOLETO")

/**
 * The boleto charge of a "nosso número" at the bank (indexed by migration
 * 0029, as Pix txids are by 0026): a production account's only, since the
 * sandbox's boletos were never registered there. The newest first, should
 * two banks ever have given one number.
 */
const boletoByTxid = ({ sql, columns }: ChargeTable, lock: boolean) => (txid: string) =>
  orDie(sql`SELECT ${columns} FROM charges WHERE txid = ${txid} AND ${bankBoleto(sql)}
    ORDER BY created_at DESC, id LIMIT 1 ${lock ? sql`FOR UPDATE` : sql``}`).pipe(Effect.flatMap(decodeOne))

/**
 * Claims the due bank boletos or PSP Pix as `claimUnansweredCards` claims
 * card charges: locked and skipped by other claimers, their `updated_at`
 * moved to `now` (the lease), so one charge's closing (a boleto's write-off,
 * a Pix taken off sale) is asked by one worker at a time and, refused or
 * unanswered, not again before `untouchedSince` catches up.
 */
const dueAtProvider = ({ sql, columns }: ChargeTable): Charges["Service"]["dueAtProvider"] => (paymentType, now, untouchedSince, limit, scope) =>
  orDie(sql`WITH due AS MATERIALIZED (
      SELECT ${columns} FROM charges WHERE status IN ${sql.in([...expired.from])} AND expires_at < ${now} AND updated_at <= ${untouchedSince}
        AND ${atRealProvider(sql, paymentType)} AND ${inScope(sql, scope, sql`charges.account_id`)}
      ORDER BY expires_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED),
    claimed AS (UPDATE charges SET updated_at = ${now} FROM due WHERE charges.id = due.id RETURNING charges.id)
    SELECT due.* FROM due JOIN claimed ON claimed.id = due.id`).pipe(Effect.flatMap(decodeCharges))

const accountsWithOpenBankBoletos = ({ sql }: ChargeTable) => (limit: number) =>
  orDie(sql`SELECT DISTINCT account_id AS "accountId" FROM charges
    WHERE status IN ${sql.in([...expired.from])} AND ${bankBoleto(sql)} ORDER BY account_id LIMIT ${limit}`).pipe(Effect.flatMap(accountIdsOf))

/**
 * The due rows are taken once (a materialized CTE), then joined by id: as `id IN (...)` the planner
 * could run the subquery again for every open charge, and did, for minutes, once 700,000 charges
 * were open under statistics taken while the index was empty.
 */
const expireDue = ({ sql, columns }: ChargeTable): Charges["Service"]["expireDue"] => (now, limit, scope) =>
  orDie(sql`WITH due AS MATERIALIZED (
      SELECT id AS due_id FROM charges WHERE status IN ${sql.in([...expired.from])} AND expires_at < ${now}
        AND ${inScope(sql, scope, sql`charges.account_id`)} AND NOT (${bankBoleto(sql)})
        AND NOT (${atRealProvider(sql, "CREDIT_CARD")}) AND NOT (${atRealProvider(sql, "PIX")})
      ORDER BY expires_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE charges SET status = ${expired.to}, updated_at = ${now}
    FROM due WHERE charges.id = due.due_id AND status IN ${sql.in([...expired.from])}
    RETURNING ${columns}`).pipe(Effect.flatMap(decodeCharges))

const nextExpiry = ({ sql }: ChargeTable) => (accountId: AccountId, after: Date) =>
  orDie(sql<{ at: Date | null }>`SELECT min(expires_at) AS at FROM charges
    WHERE account_id = ${accountId} AND status IN ${sql.in([...expired.from])} AND expires_at >= ${after}`).pipe(
    Effect.map((rows) => Option.fromNullishOr(rows[0]?.at ?? null))
  )

/**
 * The due rows are taken once, locked and skipped by other claimers, and
 * answered as they were (a CTE's rows are its snapshot's), their `updated_at`
 * then moved to `at`. Not a billing run's attempt: those are the stalled-card job's.
 */
const claimUnansweredCards = ({ sql, columns }: ChargeTable): Charges["Service"]["claimUnansweredCards"] => (at, untouchedSince, limit, scope) =>
  orDie(sql`WITH due AS MATERIALIZED (
      SELECT ${columns} FROM charges WHERE status IN ${sql.in([...unanswered.from])} AND payment_type = 'CREDIT_CARD'
        AND NOT ${stalledCardAttempt(sql)} AND updated_at <= ${untouchedSince} AND ${inScope(sql, scope, sql`charges.account_id`)}
      ORDER BY expires_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED),
    claimed AS (UPDATE charges SET updated_at = ${at} FROM due WHERE charges.id = due.id RETURNING charges.id)
    SELECT due.* FROM due JOIN claimed ON claimed.id = due.id`).pipe(Effect.flatMap(decodeCharges))

const endCardClaims = ({ sql }: ChargeTable): Charges["Service"]["endCardClaims"] => (claimed, at) =>
  claimed.length === 0 ? Effect.void : orDie(sql`UPDATE charges SET updated_at = v.v_before
    FROM (VALUES ${sql.csv(claimed.map((c) => sql`(${c.id}, ${c.updatedAt}::timestamptz)`))}) AS v (v_id, v_before)
    WHERE charges.id = v.v_id AND charges.updated_at = ${at} AND charges.status IN ${sql.in([...unanswered.from])}`)

/** Open charges past their deadline, on the index the expiry job walks (production boletos and card charges included: they wait for their provider). */
const expiryBacklog = ({ sql }: ChargeTable): Charges["Service"]["expiryBacklog"] => (now, cap) =>
  orDie(sql<{ due: string; oldest: Date | null }>`SELECT
    (SELECT count(*) FROM (SELECT 1 FROM charges WHERE status IN ${sql.in([...expired.from])} AND expires_at < ${now} LIMIT ${cap}) t)::text AS due,
    (SELECT min(expires_at) FROM charges WHERE status IN ${sql.in([...expired.from])} AND expires_at < ${now}) AS oldest`).pipe(
    Effect.map(([row]) => ({ due: Number(row!.due), oldest: row!.oldest?.toISOString() ?? null }))
  )

export const ChargesStorageLive = Layer.effect(Charges, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const table: ChargeTable = { sql, columns: selectList(sql) }
  const { columns } = table
  const insertBatched = yield* makeBatchWriter<Charge>({
    writeMany: (rows) => orDie(insertRows(sql, rows)),
    writeOne: (row) => orDie(insertRows(sql, [row])),
    writers: BATCH_WRITERS,
    maxBatch: 64
  })
  return Charges.of({
    insert: insert(sql, insertBatched),
    insertUnlessDuplicate: insertUnlessDuplicate(table),
    insertMany: insertMany(table),
    findForDocument: (id) => orDie(sql`SELECT ${columns} FROM charges WHERE id = ${id}`).pipe(Effect.flatMap(decodeOne)),
    find: (scope, id) => orDie(sql`SELECT ${columns} FROM charges WHERE id = ${id} AND ${scoped(sql, scope)}`).pipe(Effect.flatMap(decodeOne)),
    lockOwn: lockOwn(table),
    pixTxidsOf: (accountId, txids) =>
      txids.length === 0 ? Effect.succeed([]) : orDie(sql<{ txid: string }>`SELECT txid FROM charges
        WHERE txid IN ${sql.in([...txids])} AND payment_type = 'PIX' AND account_id = ${accountId}`).pipe(Effect.map((rows) => rows.map((row) => row.txid))),
    lockByPixTxid: (txid) =>
      orDie(sql`SELECT ${columns} FROM charges WHERE txid = ${txid} AND payment_type = 'PIX' FOR UPDATE`).pipe(Effect.flatMap(decodeOne)),
    lockBoletoByTxid: boletoByTxid(table, true),
    findBoletoByTxid: boletoByTxid(table, false),
    dueAtProvider: dueAtProvider(table),
    accountsWithOpenBankBoletos: accountsWithOpenBankBoletos(table),
    list: list(table),
    billingAddresses: billingAddresses(table),
    listBySubscription: (accountId, subscriptionId) =>
      orDie(sql`SELECT ${columns} FROM charges WHERE account_id = ${accountId} AND subscription_id = ${subscriptionId}
        ORDER BY created_at, id`).pipe(Effect.flatMap(decodeCharges)),
    cancelOpenOfSubscription: cancelOpenOfSubscription(table),
    paidByCustomer: paidByCustomer(table),
    transition: transition(table),
    transitionMany: transitionMany(table),
    expireDue: expireDue(table),
    nextExpiry: nextExpiry(table),
    claimUnansweredCards: claimUnansweredCards(table),
    expiryBacklog: expiryBacklog(table),
    endCardClaims: endCardClaims(table)
  })
}))

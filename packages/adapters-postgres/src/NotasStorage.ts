/**
 * Fiscal invoices and the notes charges are owed, on `effect/sql`. A DPS
 * number is taken under a transaction-scoped advisory lock of its issuer's
 * series and recorded in `nota_dps_numbers` with the note, so it is never
 * handed out twice; workers claim due schedules and unanswered notes with a
 * lease and `SKIP LOCKED`.
 */
import { AccountId, ChargeId, type DpsIssuer, NfseConfigId, SubscriptionId, ENDED_NOTA_STATUSES, Nota, NotaError, Notas, type NotaChanges, NotaStatus, NotaTransitions, Tomador } from "@billing/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { CentsColumn, decodeRows, Int8, jsonText } from "./Rows.ts"
import { constants, containsPattern, firstOf, inScope, orDie } from "./Statements.ts"

const NotaRow = Schema.Struct({
  ...Nota.fields,
  seq: Schema.String,
  dpsNumber: Int8,
  amount: CentsColumn,
  tomador: Tomador,
  errors: Schema.Array(NotaError)
})
const decodeNotas = decodeRows(NotaRow)
const ScheduleRow = Schema.Struct({ accountId: AccountId, chargeId: ChargeId, configId: NfseConfigId, dueAt: Schema.NullOr(Schema.Date) })
const decodeSchedules = decodeRows(ScheduleRow)
const decodeSubjects = decodeRows(Schema.Struct({
  chargeId: ChargeId,
  invoiceId: Schema.String,
  subscriptionId: Schema.NullOr(SubscriptionId),
  cycleNumber: Schema.NullOr(Schema.Int),
  subscriptionConfigId: Schema.NullOr(Schema.String)
}))
const SummaryRow = Schema.Struct({ status: NotaStatus, count: Int8, amount: Schema.Union([Schema.BigInt, Schema.String]) })
const decodeSummary = decodeRows(SummaryRow)

/** Column of the table for each changeable field of a note. */
const CHANGE_COLUMNS: { readonly [K in keyof Required<NotaChanges>]: string } = {
  numero: "numero",
  chaveAcesso: "chave_acesso",
  errors: "errors",
  xml: "xml",
  cancelReason: "cancel_reason",
  replacedBy: "replaced_by",
  authorizedAt: "authorized_at",
  canceledAt: "canceled_at",
  dpsNumber: "dps_number",
  issuedAt: "issued_at",
  configId: "config_id",
  serie: "serie",
  descricao: "descricao",
  tomador: "tomador"
}

type Service = Notas["Service"]

/** What every statement of the notes shares: the client, the note's columns, the ended statuses. */
interface NotaTable {
  readonly sql: SqlClient.SqlClient
  readonly columns: Statement.Fragment
  /** A canceled or replaced note makes room for the next of its invoice (the partial unique index of migration 0028 says the same). */
  readonly ended: Statement.Fragment
}

const notaColumns = (sql: SqlClient.SqlClient) =>
  sql`n.id, n.seq::text AS seq, n.account_id AS "accountId", n.invoice_id AS "invoiceId", n.charge_id AS "chargeId",
    n.subscription_id AS "subscriptionId", n.cycle_number AS "cycleNumber", n.config_id AS "configId", n.standard, n.status, n.serie,
    n.dps_number AS "dpsNumber", n.numero, n.chave_acesso AS "chaveAcesso", n.amount, n.descricao, n.tomador, n.errors, n.xml,
    n.cancel_reason AS "cancelReason", n.replaced_by AS "replacedBy", n.issued_at AS "issuedAt", n.authorized_at AS "authorizedAt",
    n.canceled_at AS "canceledAt", n.created_at AS "createdAt", n.updated_at AS "updatedAt"`

const firstNota = (statement: Effect.Effect<ReadonlyArray<unknown>, unknown>) => orDie(statement).pipe(Effect.flatMap(firstOf(decodeNotas)))

/** The environment a DPS number belongs to: sandbox numbers never take a production issuer's. */
const environmentOf = (issuer: DpsIssuer) => (issuer.sandbox ? "sandbox" : "production")

const assignments = (sql: SqlClient.SqlClient, changes: NotaChanges): ReadonlyArray<Statement.Fragment> =>
  Object.entries(changes).flatMap(([field, value]) => {
    const column = CHANGE_COLUMNS[field as keyof NotaChanges]
    if (value === undefined) return []
    // JSON columns take their JSON text.
    return [field === "errors" || field === "tomador" ? sql`${sql.literal(column)} = ${jsonText(value)}::jsonb` : sql`${sql.literal(column)} = ${value}`]
  })

const update = ({ columns, sql }: NotaTable, accountId: AccountId, id: string, from: ReadonlyArray<string>, set: ReadonlyArray<Statement.Fragment>) =>
  firstNota(sql`UPDATE notas n SET ${sql.csv(set)} WHERE n.account_id = ${accountId} AND n.id = ${id}
    AND n.status IN ${constants(sql, from)} RETURNING ${columns}`)

const recordNumber = ({ sql }: NotaTable, issuer: DpsIssuer, serie: string, dpsNumber: number, notaId: string) =>
  orDie(sql`INSERT INTO nota_dps_numbers (account_id, environment, issuer_cnpj, serie, dps_number, nota_id)
    VALUES (${issuer.accountId}, ${environmentOf(issuer)}, ${issuer.cnpj}, ${serie}, ${dpsNumber}, ${notaId})`)

// Two statements: a statement's snapshot is taken before it waits for the lock, so the largest number is read after it.
const nextDpsNumber = ({ sql }: NotaTable): Service["nextDpsNumber"] => (issuer, serie, from) =>
  orDie(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${issuer.accountId}:${environmentOf(issuer)}:${issuer.cnpj}:${serie}`}, 28))`).pipe(
    Effect.andThen(orDie(sql<{ next: string }>`SELECT GREATEST(${from}, COALESCE(max(dps_number) + 1, 1))::text AS next
      FROM nota_dps_numbers WHERE account_id = ${issuer.accountId} AND environment = ${environmentOf(issuer)} AND issuer_cnpj = ${issuer.cnpj}
        AND serie = ${serie}`)),
    Effect.map((rows) => Number(rows[0]!.next))
  )

const insert = (table: NotaTable): Service["insert"] => (n, issuer) =>
  orDie(table.sql<{ id: string }>`INSERT INTO notas (id, account_id, invoice_id, charge_id, subscription_id, cycle_number, config_id, standard,
      status, environment, issuer_cnpj, serie, dps_number, numero, chave_acesso, amount, descricao, tomador, errors, xml, cancel_reason,
      replaced_by, issued_at, authorized_at, canceled_at, created_at, updated_at)
    VALUES (${n.id}, ${n.accountId}, ${n.invoiceId}, ${n.chargeId}, ${n.subscriptionId}, ${n.cycleNumber}, ${n.configId}, ${n.standard},
      ${n.status}, ${environmentOf(issuer)}, ${issuer.cnpj}, ${n.serie}, ${n.dpsNumber}, ${n.numero}, ${n.chaveAcesso}, ${n.amount}, ${n.descricao},
      ${jsonText(n.tomador)}::jsonb, ${jsonText(n.errors)}::jsonb, ${n.xml}, ${n.cancelReason}, ${n.replacedBy}, ${n.issuedAt}, ${n.authorizedAt},
      ${n.canceledAt}, ${n.createdAt}, ${n.updatedAt})
    ON CONFLICT (account_id, invoice_id) WHERE status NOT IN ${table.ended} DO NOTHING RETURNING id`).pipe(
    Effect.tap((rows) => (rows.length === 0 ? Effect.void : recordNumber(table, issuer, n.serie, n.dpsNumber, n.id))),
    Effect.map((rows) => rows.length === 1)
  )

const reissue = (table: NotaTable): Service["reissue"] => (accountId, id, issuer, changes, at) =>
  update(table, accountId, id, NotaTransitions.reissued.from, [
    table.sql`status = ${NotaTransitions.reissued.to}`,
    table.sql`environment = ${environmentOf(issuer)}`,
    table.sql`issuer_cnpj = ${issuer.cnpj}`,
    ...assignments(table.sql, changes),
    table.sql`updated_at = ${at}`
  ]).pipe(Effect.tap((found) => (Option.isNone(found) ? Effect.void : recordNumber(table, issuer, found.value.serie, found.value.dpsNumber, id))))

// The standing note of the invoice id, else its latest; else a cycle's note by its charge's id; else the note of that own id.
const find = ({ columns, ended, sql }: NotaTable): Service["find"] => (accountId, id) =>
  firstNota(sql`SELECT ${columns} FROM notas n WHERE n.account_id = ${accountId} AND (n.invoice_id = ${id} OR n.charge_id = ${id} OR n.id = ${id})
    ORDER BY (n.invoice_id = ${id}) DESC, (n.charge_id IS NOT DISTINCT FROM ${id}) DESC, (n.status NOT IN ${ended}) DESC, n.seq DESC LIMIT 1`)

const listFilters = (sql: SqlClient.SqlClient, accountId: AccountId, f: Parameters<Service["list"]>[1]) => [
  sql`n.account_id = ${accountId}`,
  f.statuses === null ? sql`true` : sql`n.status IN ${constants(sql, f.statuses)}`,
  f.taxId === null ? sql`true` : sql`n.tomador->>'document' = ${f.taxId}`,
  f.customerName === null ? sql`true` : sql`n.tomador->>'name' ILIKE ${containsPattern(f.customerName)}`,
  f.search === null ? sql`true` : sql`(n.invoice_id ILIKE ${containsPattern(f.search)} OR n.descricao ILIKE ${containsPattern(f.search)}
    OR n.tomador->>'name' ILIKE ${containsPattern(f.search)} OR n.tomador->>'document' = ${f.search})`,
  f.from === null ? sql`true` : sql`n.created_at >= ${f.from}`,
  f.to === null ? sql`true` : sql`n.created_at <= ${f.to}`
]

const list = ({ columns, sql }: NotaTable): Service["list"] => (accountId, filter) => {
  const where = sql.and(listFilters(sql, accountId, filter))
  return Effect.all({
    rows: orDie(sql`SELECT ${columns} FROM notas n WHERE ${where} ${beforeCursor(sql, filter.lastKey, sql`n.seq`)}
      ORDER BY n.seq DESC LIMIT ${filter.limit + 1}`).pipe(Effect.flatMap(decodeNotas)),
    total: orDie(sql<{ total: string }>`SELECT count(*)::text AS total FROM notas n WHERE ${where}`).pipe(Effect.map((rows) => Number(rows[0]!.total)))
  }).pipe(Effect.map(({ rows, total }) => ({ items: rows.slice(0, filter.limit), total, lastKey: rows.length > filter.limit ? rows[filter.limit - 1]!.seq : null })))
}

const summary = ({ sql }: NotaTable): Service["summary"] => (accountId) =>
  orDie(sql`SELECT status, count(*) AS count, sum(amount)::text AS amount FROM notas WHERE account_id = ${accountId} GROUP BY status ORDER BY status`).pipe(
    Effect.flatMap(decodeSummary),
    Effect.map((rows) => rows.map((r) => ({ status: r.status, count: r.count, amount: BigInt(r.amount) })))
  )

/**
 * A note the city took (its DPS recorded: `xml` set) is asked about once
 * `staleBefore` passed; one never recorded as sent (its first send may still
 * be in flight, or its process died before sending) only once `unsentBefore`
 * passed, so a send in flight is never doubled by the worker. The claim is
 * its own column (`claimed_until`), not the note's `updated_at`, which the
 * note's view shows.
 */
const claimProcessing = ({ columns, sql }: NotaTable): Service["claimProcessing"] => (staleBefore, unsentBefore, leaseUntil, limit, scope) =>
  orDie(sql`WITH claimable AS (
      SELECT account_id AS claimed_account, id AS claimed_id FROM notas WHERE status IN ${constants(sql, NotaTransitions.sent.from)}
        AND (updated_at < ${unsentBefore} OR (xml IS NOT NULL AND updated_at < ${staleBefore}))
        AND (claimed_until IS NULL OR claimed_until < ${staleBefore}) AND ${inScope(sql, scope, sql`notas.account_id`)}
      ORDER BY updated_at, account_id, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE notas n SET claimed_until = ${leaseUntil} FROM claimable WHERE n.account_id = claimable.claimed_account AND n.id = claimable.claimed_id
    RETURNING ${columns}`).pipe(Effect.flatMap(decodeNotas))

const scheduleColumns = (sql: SqlClient.SqlClient, alias: string) =>
  sql`${sql.literal(alias)}.account_id AS "accountId", ${sql.literal(alias)}.charge_id AS "chargeId", ${sql.literal(alias)}.config_id AS "configId",
    ${sql.literal(alias)}.due_at AS "dueAt"`

const schedulesOf = ({ sql }: NotaTable): Service["schedulesOf"] => (charges) =>
  charges.length === 0
    ? Effect.succeed([])
    : orDie(sql`SELECT ${scheduleColumns(sql, "s")} FROM nota_schedules s
      WHERE (s.account_id, s.charge_id) IN (${sql.csv(charges.map((c) => sql`(${c.accountId}, ${c.chargeId})`))})`).pipe(Effect.flatMap(decodeSchedules))

const claimDue = ({ sql }: NotaTable): Service["claimDue"] => (now, leaseUntil, limit, scope) =>
  orDie(sql`WITH claimable AS (
      SELECT account_id AS a, charge_id AS c FROM nota_schedules s WHERE due_at <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now})
        AND ${inScope(sql, scope, sql`s.account_id`)}
      ORDER BY due_at, account_id, charge_id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE nota_schedules s SET claimed_until = ${leaseUntil} FROM claimable WHERE s.account_id = claimable.a AND s.charge_id = claimable.c
    RETURNING ${scheduleColumns(sql, "s")}`).pipe(Effect.flatMap(decodeSchedules))

const backlog = ({ sql }: NotaTable): Service["backlog"] => (now, cap) => {
  const unanswered = constants(sql, NotaTransitions.sent.from)
  return orDie(sql<{ due: string; oldest_due: Date | null; unanswered: string; oldest_unanswered: Date | null }>`SELECT
    (SELECT count(*) FROM (SELECT 1 FROM nota_schedules WHERE due_at <= ${now} LIMIT ${cap}) t)::text AS due,
    (SELECT min(due_at) FROM nota_schedules WHERE due_at <= ${now}) AS oldest_due,
    (SELECT count(*) FROM (SELECT 1 FROM notas WHERE status IN ${unanswered} LIMIT ${cap}) t)::text AS unanswered,
    (SELECT min(issued_at) FROM notas WHERE status IN ${unanswered}) AS oldest_unanswered`).pipe(
    Effect.map(([row]) => ({
      due: { due: Number(row!.due), oldest: row!.oldest_due?.toISOString() ?? null },
      unanswered: { due: Number(row!.unanswered), oldest: row!.oldest_unanswered?.toISOString() ?? null }
    }))
  )
}

const subjectOf = ({ sql }: NotaTable): Service["subjectOf"] => (accountId, id) =>
  orDie(sql`SELECT c.id AS "chargeId", COALESCE(i.id, c.id) AS "invoiceId", c.subscription_id AS "subscriptionId",
      c.cycle_number AS "cycleNumber", s.nf_config_id AS "subscriptionConfigId"
    FROM charges c LEFT JOIN invoices i ON i.charge_id = c.id AND i.account_id = c.account_id
    LEFT JOIN subscriptions s ON s.id = c.subscription_id AND s.account_id = c.account_id
    WHERE c.account_id = ${accountId} AND (c.id = ${id} OR i.id = ${id})
    ORDER BY (i.id = ${id}) DESC NULLS LAST, i.created_at LIMIT 1`).pipe(Effect.flatMap(firstOf(decodeSubjects)))

export const NotasStorageLive = Layer.effect(Notas, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const table: NotaTable = { sql, columns: notaColumns(sql), ended: constants(sql, ENDED_NOTA_STATUSES) }
  return Notas.of({
    nextDpsNumber: nextDpsNumber(table),
    insert: insert(table),
    reissue: reissue(table),
    transition: (accountId, id, transition, changes, at) =>
      update(table, accountId, id, transition.from, [sql`status = ${transition.to}`, ...assignments(sql, changes), sql`updated_at = ${at}`]),
    find: find(table),
    list: list(table),
    summary: summary(table),
    claimProcessing: claimProcessing(table),
    schedule: (s, at) =>
      orDie(sql`INSERT INTO nota_schedules (account_id, charge_id, config_id, due_at, created_at)
        VALUES (${s.accountId}, ${s.chargeId}, ${s.configId}, ${s.dueAt}, ${at}) ON CONFLICT (account_id, charge_id) DO NOTHING`),
    schedulesOf: schedulesOf(table),
    setDue: (rows) =>
      Effect.forEach(rows, (r) =>
        orDie(sql`UPDATE nota_schedules SET due_at = ${r.dueAt}, claimed_until = NULL
          WHERE account_id = ${r.accountId} AND charge_id = ${r.chargeId}`), { discard: true }),
    claimDue: claimDue(table),
    backlog: backlog(table),
    nextDue: (accountId, after) =>
      orDie(sql<{ at: Date | null }>`SELECT min(due_at) AS at FROM nota_schedules WHERE account_id = ${accountId} AND due_at > ${after}`).pipe(
        Effect.map((rows) => Option.fromNullishOr(rows[0]?.at))
      ),
    subjectOf: subjectOf(table),
    configOfCharge: (accountId, chargeId) =>
      orDie(sql<{ configId: string }>`SELECT config_id AS "configId" FROM nota_schedules WHERE account_id = ${accountId} AND charge_id = ${chargeId}`).pipe(
        Effect.map((rows) => Option.fromNullishOr(rows[0]?.configId))
      )
  })
}))

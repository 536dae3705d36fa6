/**
 * Webhook deliveries on `effect/sql`: fanned out from the outbox and leased
 * with `FOR UPDATE SKIP LOCKED` in single statements, so any number of
 * workers share them and two never send one delivery at once; results
 * written back in batches; listed newest first by a keyset cursor (`seq`).
 * Statuses come from `DeliveryTransitions`, as constants: the queue's
 * partial index (migration 0020) names `pending`, and a statement uses it
 * only so.
 */
import {
  attemptTransition,
  DeliveryTransitions,
  LEASED_DELIVERY_STATUS,
  NEW_DELIVERY_STATUS,
  QUEUED_DELIVERY_STATUSES,
  queuedDeliveryFilter,
  WebhookDeliveries,
  WebhookDelivery
} from "@billing/core"
import { type Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { decodeRows, withoutSeq, withSeq } from "./Rows.ts"
import { constants, first, orDie } from "./Statements.ts"

const decodeDeliveries = decodeRows(withSeq(WebhookDelivery.fields))
const decodeCounters = decodeRows(Schema.Struct({
  delivered: Schema.NumberFromString,
  failed: Schema.NumberFromString,
  inFlight: Schema.NumberFromString,
  pending: Schema.NumberFromString,
  oldestPendingAt: Schema.NullOr(Schema.Date)
}))

/** What every statement needs: the client and the delivery's select list. */
interface DeliveryTable {
  readonly sql: SqlClient.SqlClient
  /** A delivery in flight is a pending one under a lease (migration 0020); its status reads `sending`. */
  readonly columns: Statement.Fragment
}

type Service = WebhookDeliveries["Service"]

/** That `status` (the column, qualified as the statement needs) is a queued one: constants, which the queue's partial index matches. */
const queued = (sql: SqlClient.SqlClient, status: Statement.Fragment = sql`status`) => sql`${status} IN ${constants(sql, QUEUED_DELIVERY_STATUSES)}`

const selectList = (sql: SqlClient.SqlClient) =>
  sql`id, seq::text AS seq, account_id AS "accountId", webhook_id AS "webhookId", event, body,
    CASE WHEN ${queued(sql)} AND lease_until IS NOT NULL THEN ${LEASED_DELIVERY_STATUS}::text ELSE status END AS status, attempt,
    response_status_code AS "responseStatusCode", error, created_at AS "createdAt", delivered_at AS "deliveredAt"`

/** A pending delivery no live lease holds. */
const due = (sql: SqlClient.SqlClient, now: Date) => sql`${queued(sql, sql`q.status`)} AND (q.lease_until IS NULL OR q.lease_until < ${now})`

/** A status as the API lists it (`queuedDeliveryFilter`): a queued row with or without a lease, or the status rows hold. */
const statusIs = (sql: SqlClient.SqlClient, status: string) => {
  const filter = queuedDeliveryFilter(status)
  return filter === null ? sql`status = ${status}` : sql`${queued(sql)} AND lease_until IS ${filter.leased ? sql`NOT NULL` : sql`NULL`}`
}

const insertMany = ({ sql }: DeliveryTable): Service["insertMany"] => (rows) =>
  rows.length === 0 ? Effect.void : orDie(sql`INSERT INTO webhook_deliveries ${
    sql.insert(rows.map((d) => ({
      id: d.id,
      account_id: d.accountId,
      webhook_id: d.webhookId,
      event: d.event,
      body: d.body,
      status: d.status,
      attempt: d.attempt,
      created_at: d.createdAt
    })) as unknown as Arr.NonEmptyReadonlyArray<Record<string, unknown>>)
  }`)

/** Turns outbox events into deliveries, one per active registration that takes the event. */
const fanOut = ({ sql }: DeliveryTable): Service["fanOut"] => (limit, { namedOnly, at }) =>
  orDie(sql<{ event: string; method: string | null; count: string; amount: string }>`
    WITH events AS (
      SELECT id, account_id, event, body, created_at FROM outbox
      WHERE processed_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ), marked AS (
      UPDATE outbox SET processed_at = ${at} FROM events WHERE outbox.id = events.id RETURNING outbox.id
    ), inserted AS (
      INSERT INTO webhook_deliveries (id, account_id, webhook_id, event, body, status, attempt, created_at, ordering_key)
      SELECT 'whe_' || replace(gen_random_uuid()::text, '-', ''), e.account_id, w.id, e.event, e.body, ${NEW_DELIVERY_STATUS}::text, 0, e.created_at,
        coalesce(j.doc ->> 'subscriptionId', j.doc ->> 'chargeId', j.doc ->> 'formId')
      FROM events e
      CROSS JOIN LATERAL (SELECT e.body::jsonb AS doc) j
      JOIN webhooks w ON w.account_id = e.account_id AND w.status = 'active'
        AND ((jsonb_array_length(w.events) = 0 AND e.event <> ALL (ARRAY[${sql.csv(namedOnly.map((name) => sql`${name}`))}]::text[]))
          OR w.events @> jsonb_build_array(e.event))
      ORDER BY e.id, w.created_at, w.id
      RETURNING 1
    )
    SELECT e.event, e.body::jsonb ->> 'paymentMethod' AS method, count(*)::text AS count,
      coalesce(sum(round((e.body::jsonb ->> 'amount')::numeric * 100)) FILTER (WHERE jsonb_typeof(e.body::jsonb -> 'amount') = 'number'), 0)::text AS amount
    FROM events e JOIN marked m ON m.id = e.id GROUP BY 1, 2`).pipe(
    Effect.map((rows) => rows.map((r) => ({ event: r.event, method: r.method, count: Number(r.count), amount: Number(r.amount) })))
  )

/**
 * The pipeline's waiting work: unprocessed outbox events and due deliveries,
 * each counted up to `cap` and dated by its oldest, and the deliveries under
 * a live lease. Each count walks a partial index (the outbox's unprocessed,
 * the deliveries' queue) no further than `cap` rows.
 */
const backlog = ({ sql }: DeliveryTable): Service["backlog"] => (now, cap) =>
  orDie(sql<{ events: string; oldest_event: Date | null; due: string; oldest_due: Date | null; in_flight: string }>`SELECT
    (SELECT count(*) FROM (SELECT 1 FROM outbox WHERE processed_at IS NULL LIMIT ${cap}) t)::text AS events,
    (SELECT min(created_at) FROM (SELECT created_at FROM outbox WHERE processed_at IS NULL ORDER BY id LIMIT 1) t) AS oldest_event,
    (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries q WHERE ${due(sql, now)} LIMIT ${cap}) t)::text AS due,
    (SELECT min(created_at) FROM (SELECT created_at FROM webhook_deliveries q WHERE ${due(sql, now)} ORDER BY seq LIMIT 1) t) AS oldest_due,
    (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries q WHERE ${queued(sql, sql`q.status`)} AND q.lease_until >= ${now} LIMIT ${cap}) t)::text AS in_flight`).pipe(
    Effect.map(([row]) => ({
      events: { due: Number(row!.events), oldest: row!.oldest_event?.toISOString() ?? null },
      deliveries: { due: Number(row!.due), oldest: row!.oldest_due?.toISOString() ?? null },
      inFlight: Number(row!.in_flight)
    }))
  )

/** Leases due deliveries, at most `room` per registration, one ordering key's deliveries in order. */
const lease = ({ sql, columns }: DeliveryTable): Service["lease"] => ({ limit, room, now, leaseUntil }) => {
  const roomRows = room.of.size === 0
    ? sql`SELECT NULL::text AS webhook_id, 0 AS n WHERE false`
    : sql`SELECT * FROM (VALUES ${sql.csv([...room.of].map(([id, n]) => sql`(${id}::text, ${n}::int)`))}) AS v (webhook_id, n)`
  // The registrations with deliveries waiting, found one index descent each (a loose index scan of the queue):
  // every lease visiting every registration took 430 ms with 10,000 idle ones, against 9 ms with none.
  return orDie(sql`
    WITH RECURSIVE room AS (${roomRows}),
    waiting (webhook_id) AS (
      (SELECT webhook_id FROM webhook_deliveries WHERE ${queued(sql)} ORDER BY webhook_id LIMIT 1)
      UNION ALL
      SELECT (SELECT q.webhook_id FROM webhook_deliveries q WHERE ${queued(sql, sql`q.status`)} AND q.webhook_id > w.webhook_id
        ORDER BY q.webhook_id LIMIT 1)
      FROM waiting w WHERE w.webhook_id IS NOT NULL
    ),
    picked AS (
      SELECT d.id AS picked_id FROM waiting w
      LEFT JOIN room r ON r.webhook_id = w.webhook_id
      CROSS JOIN LATERAL (
        SELECT q.id, q.seq FROM webhook_deliveries q
        WHERE q.webhook_id = w.webhook_id AND ${due(sql, now)}
          AND (q.ordering_key IS NULL OR NOT EXISTS (
            SELECT 1 FROM webhook_deliveries e
            WHERE e.webhook_id = q.webhook_id AND e.ordering_key = q.ordering_key AND e.seq < q.seq AND ${queued(sql, sql`e.status`)}))
        ORDER BY q.seq
        LIMIT greatest(0, coalesce(r.n, ${room.others}::int))
        FOR UPDATE OF q SKIP LOCKED
      ) d
      WHERE w.webhook_id IS NOT NULL
      ORDER BY row_number() OVER (PARTITION BY w.webhook_id ORDER BY d.seq), d.seq
      LIMIT ${limit}
    )
    UPDATE webhook_deliveries SET lease_until = ${leaseUntil}, attempt = attempt + 1
    FROM picked WHERE webhook_deliveries.id = picked.picked_id
    RETURNING ${columns}`).pipe(Effect.flatMap(decodeDeliveries), Effect.map(withoutSeq))
}

/** Hands leased deliveries back, each only under the lease it was taken with. */
const release = ({ sql }: DeliveryTable): Service["release"] => (leases) =>
  leases.length === 0 ? Effect.void : orDie(sql`
    UPDATE webhook_deliveries d SET lease_until = NULL, attempt = d.attempt - 1
    FROM jsonb_to_recordset(${JSON.stringify(leases.map((l) => ({ id: l.id, until: l.leaseUntil.toISOString() })))}::jsonb) AS r (id text, until timestamptz)
    WHERE d.id = r.id AND ${queued(sql, sql`d.status`)} AND d.lease_until = r.until`)

/**
 * Writes outcomes and the registrations' counters; one JSON parameter for a
 * whole batch (a VALUES list of 500 rows is 3,000 parameters to bind and
 * plan). Each outcome moves its delivery by its own transition
 * (`attemptTransition`: a worker's under its lease, a manual resend's
 * from any status), so each row carries its `from` statuses.
 */
const completeMany = ({ sql }: DeliveryTable): Service["completeMany"] => (outcomes) => {
  if (outcomes.length === 0) return Effect.void
  const rows = outcomes.map((o) => {
    const transition = attemptTransition(o.status, o.lease !== null)
    return {
      id: o.id,
      status: transition.to,
      from: transition.from,
      code: o.responseStatusCode,
      error: o.error,
      at: o.at.toISOString(),
      lease: o.lease?.toISOString() ?? null
    }
  })
  const [delivered, failed] = [DeliveryTransitions.delivered.to, DeliveryTransitions.failed.to]
  return orDie(sql`
    WITH results AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS r (id text, status text, "from" text[], code int, error text, at timestamptz, lease timestamptz)
    ), updated AS (
      UPDATE webhook_deliveries d SET status = r.status, response_status_code = r.code, error = r.error, lease_until = NULL,
        attempt = d.attempt + CASE WHEN r.lease IS NULL THEN 1 ELSE 0 END, delivered_at = CASE WHEN r.status = ${delivered}::text THEN r.at END
      FROM results r WHERE d.id = r.id AND d.status = ANY (r."from") AND (r.lease IS NULL OR d.lease_until = r.lease)
      RETURNING d.webhook_id, d.status
    )
    INSERT INTO webhook_counters (webhook_id, delivered, failed)
    SELECT webhook_id, count(*) FILTER (WHERE status = ${delivered}::text), count(*) FILTER (WHERE status = ${failed}::text)
    FROM updated GROUP BY webhook_id
    ORDER BY webhook_id
    ON CONFLICT (webhook_id) DO UPDATE SET delivered = webhook_counters.delivered + excluded.delivered,
      failed = webhook_counters.failed + excluded.failed`)
}

const counters = ({ sql }: DeliveryTable): Service["counters"] => (webhookId) =>
  orDie(sql`SELECT coalesce(c.delivered, 0)::text AS delivered, coalesce(c.failed, 0)::text AS failed,
      q."inFlight"::text AS "inFlight", q.pending::text AS pending, q."oldestPendingAt"
    FROM (SELECT count(*) FILTER (WHERE lease_until IS NOT NULL) AS "inFlight", count(*) FILTER (WHERE lease_until IS NULL) AS pending,
        min(created_at) FILTER (WHERE lease_until IS NULL) AS "oldestPendingAt"
      FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND ${queued(sql)}) AS q
    LEFT JOIN webhook_counters c ON c.webhook_id = ${webhookId}`).pipe(
    Effect.flatMap(decodeCounters),
    Effect.map((rows) => rows[0]!)
  )

const list = ({ sql, columns }: DeliveryTable): Service["list"] => (accountId, o) =>
  orDie(sql`SELECT ${columns} FROM webhook_deliveries
    WHERE account_id = ${accountId}
      ${beforeCursor(sql, o.after)}
      ${o.event === null ? sql`` : sql`AND event = ${o.event}`}
      ${o.status === null ? sql`` : sql`AND ${statusIs(sql, o.status)}`}
    ORDER BY seq DESC LIMIT ${o.limit + 1}`).pipe(
    Effect.flatMap(decodeDeliveries),
    Effect.map((rows) => ({
      items: withoutSeq(rows.slice(0, o.limit)),
      nextPageToken: rows.length > o.limit ? rows[o.limit - 1]!.seq : null
    }))
  )

export const WebhookDeliveriesStorageLive = Layer.effect(WebhookDeliveries, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const table: DeliveryTable = { sql, columns: selectList(sql) }
  return WebhookDeliveries.of({
    insertMany: insertMany(table),
    fanOut: fanOut(table),
    lease: lease(table),
    release: release(table),
    completeMany: completeMany(table),
    counters: counters(table),
    backlog: backlog(table),
    find: (accountId, id) =>
      orDie(sql`SELECT ${table.columns} FROM webhook_deliveries WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.flatMap(decodeDeliveries),
        Effect.map((rows) => first(withoutSeq(rows)))
      ),
    list: list(table)
  })
}))

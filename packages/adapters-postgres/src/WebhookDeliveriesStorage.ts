/**
 * Webhook deliveries on `effect/sql`: leased with `FOR UPDATE SKIP LOCKED`
 * so two workers never send one delivery at once; listed newest first by a
 * keyset cursor (`seq`).
 */
import { WebhookDeliveries, WebhookDelivery } from "@billing/core"
import { type Array as Arr, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { decodeRows, withoutSeq, withSeq } from "./Rows.ts"
import { first, run } from "./Statements.ts"

const decodeDeliveries = decodeRows(withSeq(WebhookDelivery.fields))

export const WebhookDeliveriesStorageLive = Layer.effect(WebhookDeliveries, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const deliveryColumns = sql`id, seq::text AS seq, account_id AS "accountId", webhook_id AS "webhookId", event, body, status, attempt,
    response_status_code AS "responseStatusCode", error, created_at AS "createdAt", delivered_at AS "deliveredAt"`
  return WebhookDeliveries.of({
    insertMany: (rows) =>
      rows.length === 0 ? Effect.void : run(sql`INSERT INTO webhook_deliveries ${
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
      }`),
    lease: (limit, now, leaseUntil) =>
      run(sql`
        UPDATE webhook_deliveries SET status = 'sending', lease_until = ${leaseUntil}, attempt = attempt + 1
        WHERE id IN (
          SELECT id FROM webhook_deliveries
          WHERE status = 'pending' OR (status = 'sending' AND lease_until < ${now})
          ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED
        )
        RETURNING ${deliveryColumns}`).pipe(Effect.flatMap(decodeDeliveries), Effect.map(withoutSeq)),
    complete: (id, o) =>
      run(sql`UPDATE webhook_deliveries SET
          status = ${o.status},
          response_status_code = ${o.responseStatusCode},
          error = ${o.error},
          lease_until = NULL,
          attempt = attempt + ${o.countAttempt ? 1 : 0},
          delivered_at = ${o.status === "delivered" ? o.at : null}
        WHERE id = ${id}`),
    find: (accountId, id) =>
      run(sql`SELECT ${deliveryColumns} FROM webhook_deliveries WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.flatMap(decodeDeliveries),
        Effect.map((rows) => first(withoutSeq(rows)))
      ),
    list: (accountId, o) =>
      run(sql`SELECT ${deliveryColumns} FROM webhook_deliveries
        WHERE account_id = ${accountId}
          ${beforeCursor(sql, o.after)}
          ${o.event === null ? sql`` : sql`AND event = ${o.event}`}
          ${o.status === null ? sql`` : sql`AND status = ${o.status}`}
        ORDER BY seq DESC LIMIT ${o.limit + 1}`).pipe(
        Effect.flatMap(decodeDeliveries),
        Effect.map((rows) => ({
          items: withoutSeq(rows.slice(0, o.limit)),
          nextPageToken: rows.length > o.limit ? rows[o.limit - 1]!.seq : null
        }))
      )
  })
}))

/** Webhook registrations on `effect/sql`; the events a registration takes are a `jsonb` list (empty: all). */
import { WebhookRegistration, Webhooks } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { firstOf, run } from "./Statements.ts"

const decodeWebhooks = decodeRows(WebhookRegistration)

export const WebhooksStorageLive = Layer.effect(Webhooks, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const webhookColumns = sql`id, account_id AS "accountId", url, events, secret, auth_token AS "authToken", status, created_at AS "createdAt"`
  return Webhooks.of({
    insert: (r) =>
      run(sql`INSERT INTO webhooks (id, account_id, url, events, secret, auth_token, status, created_at)
        VALUES (${r.id}, ${r.accountId}, ${r.url}, ${JSON.stringify(r.events)}::jsonb, ${r.secret}, ${r.authToken}, ${r.status}, ${r.createdAt})`),
    list: (accountId) =>
      run(sql`SELECT ${webhookColumns} FROM webhooks WHERE account_id = ${accountId} ORDER BY created_at, id`).pipe(
        Effect.flatMap(decodeWebhooks)
      ),
    find: (accountId, id) =>
      run(sql`SELECT ${webhookColumns} FROM webhooks WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.flatMap(firstOf(decodeWebhooks))
      ),
    update: (r) =>
      run(sql`UPDATE webhooks SET url = ${r.url}, events = ${JSON.stringify(r.events)}::jsonb, status = ${r.status}, auth_token = ${r.authToken}
        WHERE account_id = ${r.accountId} AND id = ${r.id}`),
    remove: (accountId, id) =>
      run(sql<{ id: string }>`DELETE FROM webhooks WHERE account_id = ${accountId} AND id = ${id} RETURNING id`).pipe(
        Effect.map((rows) => rows.length > 0)
      ),
    subscribersOf: (accountId, event) =>
      run(sql`SELECT ${webhookColumns} FROM webhooks
        WHERE account_id = ${accountId} AND status = 'active' AND (jsonb_array_length(events) = 0 OR events @> jsonb_build_array(${event}::text))
        ORDER BY created_at, id`).pipe(Effect.flatMap(decodeWebhooks))
  })
}))

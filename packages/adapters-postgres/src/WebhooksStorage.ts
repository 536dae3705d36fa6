/**
 * Webhook registrations on `effect/sql`; the events a registration takes are
 * a `jsonb` list (empty: all).
 *
 * The signing `secret` and the `authToken` of a registration are sealed at
 * rest (AES-GCM under a key derived from the installation's secret key, bound
 * to the registration and the field): a database dump alone cannot forge a
 * merchant's webhooks nor present its receiver's token. Rows of an earlier
 * version, kept in clear, are sealed in place when the layer starts.
 */
import { DeliveryTransitions, SecretBox, SecretKey, WebhookRegistration, Webhooks } from "@billing/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { constants, orDie } from "./Statements.ts"

const decodeWebhooks = decodeRows(WebhookRegistration)

export const WebhooksStorageLive = Layer.effect(Webhooks, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const key = yield* SecretBox.deriveSealingKey(Redacted.value((yield* SecretKey).material), "webhooks")
  const context = (id: string, field: "secret" | "authToken") => `webhook:${id}:${field}`
  const seal = (id: string, field: "secret" | "authToken", value: string) => SecretBox.seal(key, value, context(id, field))
  const sealNullable = (id: string, value: string | null) => (value === null ? Effect.succeed(null) : seal(id, "authToken", value))
  // A value that does not open was altered or sealed under another key: the row cannot be used, which is a defect.
  const open = (id: string, field: "secret" | "authToken", value: string) =>
    SecretBox.isSealed(value)
      ? Effect.flatMap(SecretBox.open(key, value, context(id, field)), Option.match({
        onNone: () => Effect.die(new Error(`the ${field} of webhook ${id} does not open with BILLING_SECRET_KEY`)),
        onSome: Effect.succeed
      }))
      : Effect.succeed(value)
  const opened = (rows: ReadonlyArray<unknown>) =>
    Effect.flatMap(decodeWebhooks(rows), (registrations) =>
      Effect.forEach(registrations, (r) =>
        Effect.all({
          secret: open(r.id, "secret", r.secret),
          authToken: r.authToken === null ? Effect.succeed(null) : open(r.id, "authToken", r.authToken)
        }).pipe(Effect.map((fields): WebhookRegistration => ({ ...r, ...fields })))))
  const webhookColumns = sql`id, account_id AS "accountId", url, events, secret, auth_token AS "authToken", status, created_at AS "createdAt"`

  // Rows of an earlier version: sealed once, each only if it is still the clear value read.
  const clear = yield* orDie(sql`SELECT ${webhookColumns} FROM webhooks
    WHERE secret NOT LIKE 'sealed:%' OR (auth_token IS NOT NULL AND auth_token NOT LIKE 'sealed:%')`).pipe(Effect.flatMap(decodeWebhooks))
  yield* Effect.forEach(clear, (r) =>
    Effect.gen(function*() {
      const secret = SecretBox.isSealed(r.secret) ? r.secret : yield* seal(r.id, "secret", r.secret)
      const authToken = r.authToken === null || SecretBox.isSealed(r.authToken) ? r.authToken : yield* seal(r.id, "authToken", r.authToken)
      yield* orDie(sql`UPDATE webhooks SET secret = ${secret}, auth_token = ${authToken}
        WHERE id = ${r.id} AND secret = ${r.secret} AND auth_token IS NOT DISTINCT FROM ${r.authToken}`)
    }), { discard: true })

  return Webhooks.of({
    insert: (r) =>
      Effect.gen(function*() {
        const secret = yield* seal(r.id, "secret", r.secret)
        const authToken = yield* sealNullable(r.id, r.authToken)
        yield* orDie(sql`INSERT INTO webhooks (id, account_id, url, events, secret, auth_token, status, created_at)
          VALUES (${r.id}, ${r.accountId}, ${r.url}, ${JSON.stringify(r.events)}::jsonb, ${secret}, ${authToken}, ${r.status}, ${r.createdAt})`)
      }),
    list: (accountId) =>
      orDie(sql`SELECT ${webhookColumns} FROM webhooks WHERE account_id = ${accountId} ORDER BY created_at, id`).pipe(Effect.flatMap(opened)),
    find: (accountId, id) =>
      orDie(sql`SELECT ${webhookColumns} FROM webhooks WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.flatMap(opened),
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      ),
    update: (r) =>
      Effect.flatMap(sealNullable(r.id, r.authToken), (authToken) =>
        orDie(sql`UPDATE webhooks SET url = ${r.url}, events = ${JSON.stringify(r.events)}::jsonb, status = ${r.status}, auth_token = ${authToken}
          WHERE account_id = ${r.accountId} AND id = ${r.id}`)),
    remove: (accountId, id) =>
      orDie(sql<{ id: string }>`DELETE FROM webhooks WHERE account_id = ${accountId} AND id = ${id} RETURNING id`).pipe(
        Effect.tap((rows) =>
          // What still waited for it, leased or not, can never be sent (leases only read registrations that exist): failed,
          // as a send to an inactive registration is. An attempt in flight then finds its lease gone and records nothing.
          rows.length === 0 ? Effect.void : orDie(sql`UPDATE webhook_deliveries
            SET status = ${DeliveryTransitions.registrationRemoved.to}, error = 'webhook registration removed', lease_until = NULL
            WHERE webhook_id = ${id} AND status IN ${constants(sql, DeliveryTransitions.registrationRemoved.from)}`)),
        Effect.map((rows) => rows.length > 0)
      ),
    findMany: (ids) =>
      ids.length === 0 ? Effect.succeed([]) : orDie(sql`SELECT ${webhookColumns} FROM webhooks WHERE id IN ${sql.in([...ids])}`).pipe(Effect.flatMap(opened)),
    findActiveAt: (accountId, url) =>
      orDie(sql`SELECT ${webhookColumns} FROM webhooks WHERE account_id = ${accountId} AND url = ${url} AND status = 'active'
        ORDER BY created_at, id LIMIT 1`).pipe(Effect.flatMap(opened), Effect.map((rows) => Option.fromNullishOr(rows[0])))
  })
}))

/**
 * The core's Storage port on `effect/sql`. The same statements run on a
 * PostgreSQL server and on embedded PGlite. Every tenant query filters by
 * account id; the queues (outbox, deliveries) claim rows with
 * `FOR UPDATE SKIP LOCKED` so that any number of workers can share them.
 */
import {
  Account,
  Accounts,
  AccessTokens,
  ApiClient,
  ApiClients,
  IssuedToken,
  Outbox,
  OutboxEvent,
  Settings,
  Transactor,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookRegistration,
  Webhooks
} from "@billing/core"
import { type Array as Arr, Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { readThrough } from "./ReadThrough.ts"
import { decodeRows } from "./Rows.ts"

// Rows are named as the fields of the core's schemas (see Rows.ts).
const decodeAccounts = decodeRows(Account)
const decodeClients = decodeRows(ApiClient)
const decodeTokens = decodeRows(IssuedToken)
const decodeWebhooks = decodeRows(WebhookRegistration)
const decodeOutbox = decodeRows(OutboxEvent)
const decodeDeliveries = decodeRows(Schema.Struct({ ...WebhookDelivery.fields, seq: Schema.String }))

/** The instant of Effect's Clock, for the rows a statement stamps (never the database's `now()`). */
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const first = <A>(rows: ReadonlyArray<A>): Option.Option<A> => Option.fromNullishOr(rows[0])
const firstOf = <A>(decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>>) => (rows: ReadonlyArray<unknown>) =>
  Effect.map(decode(rows), first)

/** The foundation services (accounts, credentials, webhooks, outbox) on the `SqlClient` in context. */
export const FoundationStorageLive = Layer.effectContext(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A lost database is not something a use case can handle: it is a defect,
  // answered with 500 at the edge and logged with its cause.
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)

  const transactor = Transactor.of({
    withTransaction: (effect) => sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))
  })

  const accountColumns = sql`id, number, name, document, person_type AS "personType", sandbox, parent_id AS "parentId",
    pix_key AS "pixKey", city, email, created_at AS "createdAt"`
  const oneAccount = firstOf(decodeAccounts)
  const accountById = yield* readThrough(sql, (id: string) =>
    run(sql`SELECT ${accountColumns} FROM accounts WHERE id = ${id}`).pipe(Effect.flatMap(oneAccount)), { cacheEmpty: false })
  // Keyed by master and number: the `X-Sub-Account` of every seller request.
  const subAccount = yield* readThrough(sql, (parentId: string, number: string) =>
    run(sql`SELECT ${accountColumns} FROM accounts WHERE parent_id = ${parentId} AND number = ${number}`).pipe(
      Effect.flatMap(oneAccount)
    ), { cacheEmpty: false })

  const accounts = Accounts.of({
    insert: (a) =>
      run(sql`INSERT INTO accounts (id, number, name, document, person_type, sandbox, parent_id, pix_key, city, email, created_at)
        VALUES (${a.id}, ${a.number}, ${a.name}, ${a.document}, ${a.personType}, ${a.sandbox}, ${a.parentId}, ${a.pixKey}, ${a.city}, ${a.email},
          ${a.createdAt})`),
    findById: accountById.get,
    findSubAccount: subAccount.get,
    findByNumber: (number) =>
      run(sql`SELECT ${accountColumns} FROM accounts WHERE number = ${number}`).pipe(Effect.flatMap(oneAccount)),
    numberExists: (number) =>
      run(sql<{ n: number }>`SELECT 1 AS n FROM accounts WHERE number = ${number}`).pipe(Effect.map((rows) => rows.length > 0)),
    nextNumber: run(sql<{ n: string }>`SELECT nextval('account_number_seq')::text AS n`).pipe(Effect.map((rows) => rows[0]!.n))
  })

  const clients = ApiClients.of({
    insert: (c) =>
      run(sql`INSERT INTO api_clients (client_id, account_id, secret_hash, scopes, created_at)
        VALUES (${c.clientId}, ${c.accountId}, ${c.secretHash}, ${JSON.stringify(c.scopes)}::jsonb, ${c.createdAt})`),
    findByClientId: (clientId) =>
      run(sql`SELECT client_id AS "clientId", account_id AS "accountId", secret_hash AS "secretHash", scopes, created_at AS "createdAt"
        FROM api_clients WHERE client_id = ${clientId}`).pipe(Effect.flatMap(firstOf(decodeClients))),
    updateCredentials: (clientId, secretHash, scopes) =>
      run(sql`UPDATE api_clients SET secret_hash = ${secretHash}, scopes = ${JSON.stringify(scopes)}::jsonb WHERE client_id = ${clientId}`)
  })

  const tokens = AccessTokens.of({
    findReusable: (clientId, scopeKey, validAfter) =>
      run(sql`SELECT client_id AS "clientId", scope_key AS "scopeKey", token, expires_at AS "expiresAt" FROM access_tokens
        WHERE client_id = ${clientId} AND scope_key = ${scopeKey} AND expires_at > ${validAfter}
        ORDER BY expires_at DESC LIMIT 1`).pipe(Effect.flatMap(firstOf(decodeTokens))),
    insert: (t) =>
      run(sql`INSERT INTO access_tokens (token, client_id, scope_key, expires_at)
        VALUES (${t.token}, ${t.clientId}, ${t.scopeKey}, ${t.expiresAt})`).pipe(
        // Expired tokens are useless; dropping them here keeps the table at
        // the size of the live tokens without a separate job.
        Effect.andThen(Effect.flatMap(now, (at) => run(sql`DELETE FROM access_tokens WHERE client_id = ${t.clientId} AND expires_at < ${at}`)))
      )
  })

  const settings = Settings.of({
    getOrInsert: (key, candidate) =>
      run(sql`INSERT INTO settings (key, value) VALUES (${key}, ${candidate}) ON CONFLICT (key) DO NOTHING`).pipe(
        Effect.andThen(run(sql<{ value: string }>`SELECT value FROM settings WHERE key = ${key}`)),
        Effect.map((rows) => rows[0]!.value)
      )
  })

  const webhookColumns = sql`id, account_id AS "accountId", url, events, secret, auth_token AS "authToken", status, created_at AS "createdAt"`
  const webhooks = Webhooks.of({
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

  const outbox = Outbox.of({
    append: (e) =>
      Effect.flatMap(now, (at) =>
        run(sql`INSERT INTO outbox (account_id, event, body, created_at) VALUES (${e.accountId}, ${e.event}, ${e.body}, ${at})`)),
    claimUnprocessed: (limit) =>
      run(sql`SELECT id::text AS id, account_id AS "accountId", event, body, created_at AS "createdAt" FROM outbox
        WHERE processed_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`).pipe(Effect.flatMap(decodeOutbox)),
    markProcessed: (ids) =>
      ids.length === 0
        ? Effect.void
        : Effect.flatMap(now, (at) => run(sql`UPDATE outbox SET processed_at = ${at} WHERE id IN ${sql.in(ids.map((id) => BigInt(id)))}`))
  })

  const deliveryColumns = sql`id, seq::text AS seq, account_id AS "accountId", webhook_id AS "webhookId", event, body, status, attempt,
    response_status_code AS "responseStatusCode", error, created_at AS "createdAt", delivered_at AS "deliveredAt"`
  // The keyset cursor rides along with each row and stays in the adapter.
  const withoutSeq = Effect.map((rows: ReadonlyArray<WebhookDelivery & { readonly seq: string }>) =>
    rows.map(({ seq: _, ...delivery }): WebhookDelivery => delivery))
  const deliveries = WebhookDeliveries.of({
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
        RETURNING ${deliveryColumns}`).pipe(Effect.flatMap(decodeDeliveries), withoutSeq),
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
        withoutSeq,
        Effect.map(first)
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
          items: rows.slice(0, o.limit).map(({ seq: _, ...delivery }) => delivery),
          nextPageToken: rows.length > o.limit ? rows[o.limit - 1]!.seq : null
        }))
      )
  })

  return Context.make(Transactor, transactor).pipe(
    Context.add(Accounts, accounts),
    Context.add(ApiClients, clients),
    Context.add(AccessTokens, tokens),
    Context.add(Settings, settings),
    Context.add(Webhooks, webhooks),
    Context.add(Outbox, outbox),
    Context.add(WebhookDeliveries, deliveries)
  )
}))

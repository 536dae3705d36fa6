/**
 * The core's Storage port on `effect/sql`. The same statements run on a
 * PostgreSQL server and on embedded PGlite. Every tenant query filters by
 * account id; the queues (outbox, deliveries) claim rows with
 * `FOR UPDATE SKIP LOCKED` so that any number of workers can share them.
 */
import {
  Accounts,
  AccessTokens,
  Account,
  type AccountId,
  ApiClients,
  type EventName,
  Outbox,
  Settings,
  Transactor,
  type WebhookDelivery,
  WebhookDeliveries,
  type WebhookRegistration,
  Webhooks
} from "@billing/core"
import { type Array as Arr, Clock, Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { beforeCursor } from "./Keyset.ts"
import { readThrough } from "./ReadThrough.ts"

interface AccountRow {
  readonly id: string
  readonly number: string
  readonly name: string
  readonly document: string
  readonly person_type: "PF" | "PJ"
  readonly sandbox: boolean
  readonly parent_id: string | null
  readonly pix_key: string | null
  readonly city: string
  readonly email: string | null
  readonly created_at: Date
}

const toAccount = (r: AccountRow) =>
  new Account({
    id: r.id as AccountId,
    number: r.number,
    name: r.name,
    document: r.document,
    personType: r.person_type,
    sandbox: r.sandbox,
    parentId: r.parent_id as AccountId | null,
    pixKey: r.pix_key,
    city: r.city,
    email: r.email,
    createdAt: new Date(r.created_at)
  })

interface WebhookRow {
  readonly id: string
  readonly account_id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly secret: string
  readonly auth_token: string | null
  readonly status: "active" | "inactive"
  readonly created_at: Date
}

const toWebhook = (r: WebhookRow): WebhookRegistration => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  events: r.events as ReadonlyArray<EventName>,
  secret: r.secret,
  authToken: r.auth_token,
  status: r.status,
  createdAt: new Date(r.created_at)
})

interface DeliveryRow {
  readonly id: string
  readonly account_id: string
  readonly webhook_id: string
  readonly event: string
  readonly body: string
  readonly status: WebhookDelivery["status"]
  readonly attempt: number
  readonly response_status_code: number | null
  readonly error: string | null
  readonly created_at: Date
  readonly delivered_at: Date | null
  readonly seq: string
}

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  accountId: r.account_id,
  webhookId: r.webhook_id,
  event: r.event as EventName,
  body: r.body,
  status: r.status,
  attempt: Number(r.attempt),
  responseStatusCode: r.response_status_code === null ? null : Number(r.response_status_code),
  error: r.error,
  createdAt: new Date(r.created_at),
  deliveredAt: r.delivered_at === null ? null : new Date(r.delivered_at)
})

/** The instant of Effect's Clock, for the rows a statement stamps (never the database's `now()`). */
const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const first = <A>(rows: ReadonlyArray<A>): Option.Option<A> => Option.fromNullishOr(rows[0])

/** The foundation services (accounts, credentials, webhooks, outbox) on the `SqlClient` in context. */
export const FoundationStorageLive = Layer.effectContext(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A lost database is not something a use case can handle: it is a defect,
  // answered with 500 at the edge and logged with its cause.
  const run = <A>(effect: Effect.Effect<A, unknown>) => Effect.orDie(effect)

  const transactor = Transactor.of({
    withTransaction: (effect) => sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))
  })

  const accountColumns = sql`id, number, name, document, person_type, sandbox, parent_id, pix_key, city, email, created_at`
  const accountById = yield* readThrough(sql, (id: string) =>
    run(sql<AccountRow>`SELECT ${accountColumns} FROM accounts WHERE id = ${id}`).pipe(
      Effect.map((rows) => Option.map(first(rows), toAccount))
    ), { cacheEmpty: false })
  // Keyed by master and number: the `X-Sub-Account` of every seller request.
  const subAccount = yield* readThrough(sql, (parentId: string, number: string) =>
    run(sql<AccountRow>`SELECT ${accountColumns} FROM accounts WHERE parent_id = ${parentId} AND number = ${number}`).pipe(
      Effect.map((rows) => Option.map(first(rows), toAccount))
    ), { cacheEmpty: false })

  const accounts = Accounts.of({
    insert: (a) =>
      run(sql`INSERT INTO accounts (id, number, name, document, person_type, sandbox, parent_id, pix_key, city, email, created_at)
        VALUES (${a.id}, ${a.number}, ${a.name}, ${a.document}, ${a.personType}, ${a.sandbox}, ${a.parentId}, ${a.pixKey}, ${a.city}, ${a.email},
          ${a.createdAt})`),
    findById: accountById.get,
    findSubAccount: subAccount.get,
    findByNumber: (number) =>
      run(sql<AccountRow>`SELECT ${accountColumns} FROM accounts WHERE number = ${number}`).pipe(
        Effect.map((rows) => Option.map(first(rows), toAccount))
      ),
    numberExists: (number) =>
      run(sql<{ n: number }>`SELECT 1 AS n FROM accounts WHERE number = ${number}`).pipe(Effect.map((rows) => rows.length > 0)),
    nextNumber: run(sql<{ n: string }>`SELECT nextval('account_number_seq')::text AS n`).pipe(Effect.map((rows) => rows[0]!.n))
  })

  const clients = ApiClients.of({
    insert: (c) =>
      run(sql`INSERT INTO api_clients (client_id, account_id, secret_hash, scopes, created_at)
        VALUES (${c.clientId}, ${c.accountId}, ${c.secretHash}, ${JSON.stringify(c.scopes)}::jsonb, ${c.createdAt})`),
    findByClientId: (clientId) =>
      run(sql<{ client_id: string; account_id: string; secret_hash: string; scopes: Array<string>; created_at: Date }>`
        SELECT client_id, account_id, secret_hash, scopes, created_at FROM api_clients WHERE client_id = ${clientId}`).pipe(
        Effect.map((rows) =>
          Option.map(first(rows), (r) => ({
            clientId: r.client_id,
            accountId: r.account_id,
            secretHash: r.secret_hash,
            scopes: r.scopes,
            createdAt: new Date(r.created_at)
          }))
        )
      ),
    updateCredentials: (clientId, secretHash, scopes) =>
      run(sql`UPDATE api_clients SET secret_hash = ${secretHash}, scopes = ${JSON.stringify(scopes)}::jsonb WHERE client_id = ${clientId}`)
  })

  const tokens = AccessTokens.of({
    findReusable: (clientId, scopeKey, validAfter) =>
      run(sql<{ token: string; expires_at: Date }>`
        SELECT token, expires_at FROM access_tokens
        WHERE client_id = ${clientId} AND scope_key = ${scopeKey} AND expires_at > ${validAfter}
        ORDER BY expires_at DESC LIMIT 1`).pipe(
        Effect.map((rows) =>
          Option.map(first(rows), (r) => ({ clientId, scopeKey, token: r.token, expiresAt: new Date(r.expires_at) }))
        )
      ),
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

  const webhookColumns = sql`id, account_id, url, events, secret, auth_token, status, created_at`
  const webhooks = Webhooks.of({
    insert: (r) =>
      run(sql`INSERT INTO webhooks (id, account_id, url, events, secret, auth_token, status, created_at)
        VALUES (${r.id}, ${r.accountId}, ${r.url}, ${JSON.stringify(r.events)}::jsonb, ${r.secret}, ${r.authToken}, ${r.status}, ${r.createdAt})`),
    list: (accountId) =>
      run(sql<WebhookRow>`SELECT ${webhookColumns} FROM webhooks WHERE account_id = ${accountId} ORDER BY created_at, id`).pipe(
        Effect.map((rows) => rows.map(toWebhook))
      ),
    find: (accountId, id) =>
      run(sql<WebhookRow>`SELECT ${webhookColumns} FROM webhooks WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.map((rows) => Option.map(first(rows), toWebhook))
      ),
    update: (r) =>
      run(sql`UPDATE webhooks SET url = ${r.url}, events = ${JSON.stringify(r.events)}::jsonb, status = ${r.status}, auth_token = ${r.authToken}
        WHERE account_id = ${r.accountId} AND id = ${r.id}`),
    remove: (accountId, id) =>
      run(sql<{ id: string }>`DELETE FROM webhooks WHERE account_id = ${accountId} AND id = ${id} RETURNING id`).pipe(
        Effect.map((rows) => rows.length > 0)
      ),
    subscribersOf: (accountId, event) =>
      run(sql<WebhookRow>`SELECT ${webhookColumns} FROM webhooks
        WHERE account_id = ${accountId} AND status = 'active' AND (jsonb_array_length(events) = 0 OR events @> jsonb_build_array(${event}::text))
        ORDER BY created_at, id`).pipe(Effect.map((rows) => rows.map(toWebhook)))
  })

  const outbox = Outbox.of({
    append: (e) =>
      Effect.flatMap(now, (at) =>
        run(sql`INSERT INTO outbox (account_id, event, body, created_at) VALUES (${e.accountId}, ${e.event}, ${e.body}, ${at})`)),
    claimUnprocessed: (limit) =>
      run(sql<{ id: string; account_id: string; event: string; body: string; created_at: Date }>`
        SELECT id::text AS id, account_id, event, body, created_at FROM outbox
        WHERE processed_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`).pipe(
        Effect.map((rows) =>
          rows.map((r) => ({
            id: r.id,
            accountId: r.account_id,
            event: r.event as EventName,
            body: r.body,
            createdAt: new Date(r.created_at)
          }))
        )
      ),
    markProcessed: (ids) =>
      ids.length === 0
        ? Effect.void
        : Effect.flatMap(now, (at) => run(sql`UPDATE outbox SET processed_at = ${at} WHERE id IN ${sql.in(ids.map((id) => BigInt(id)))}`))
  })

  const deliveryColumns = sql`id, seq::text AS seq, account_id, webhook_id, event, body, status, attempt, response_status_code, error, created_at, delivered_at`
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
      run(sql<DeliveryRow>`
        UPDATE webhook_deliveries SET status = 'sending', lease_until = ${leaseUntil}, attempt = attempt + 1
        WHERE id IN (
          SELECT id FROM webhook_deliveries
          WHERE status = 'pending' OR (status = 'sending' AND lease_until < ${now})
          ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED
        )
        RETURNING ${deliveryColumns}`).pipe(Effect.map((rows) => rows.map(toDelivery))),
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
      run(sql<DeliveryRow>`SELECT ${deliveryColumns} FROM webhook_deliveries WHERE account_id = ${accountId} AND id = ${id}`).pipe(
        Effect.map((rows) => Option.map(first(rows), toDelivery))
      ),
    list: (accountId, o) =>
      run(sql<DeliveryRow>`SELECT ${deliveryColumns} FROM webhook_deliveries
        WHERE account_id = ${accountId}
          ${beforeCursor(sql, o.after)}
          ${o.event === null ? sql`` : sql`AND event = ${o.event}`}
          ${o.status === null ? sql`` : sql`AND status = ${o.status}`}
        ORDER BY seq DESC LIMIT ${o.limit + 1}`).pipe(
        Effect.map((rows) => ({
          items: rows.slice(0, o.limit).map(toDelivery),
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

/**
 * The Storage port: the repositories the use cases need and the transaction
 * that wraps a command. Adapters (`@billing/adapters-postgres`) implement
 * every service here. Storage failures are defects: the use cases cannot
 * recover from a lost database, and the HTTP edge answers them with 500.
 *
 * Every method that reads or changes a tenant's data takes the account id, so
 * a resource of another account is simply not found.
 */
import { Context, type Effect, type Option } from "effect"
import type { Account } from "../domain/Account.ts"
import type { ApiClient, IssuedToken } from "../domain/ApiClient.ts"
import type { EventName, OutboxEvent } from "../domain/Events.ts"
import type { DeliveryStatus, WebhookDelivery, WebhookRegistration } from "../domain/Webhook.ts"

/** Runs an effect in one database transaction; nested calls join the outer one. */
export class Transactor extends Context.Service<Transactor, {
  readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("@billing/core/ports/Storage/Transactor") {}

export class Accounts extends Context.Service<Accounts, {
  readonly insert: (account: Account) => Effect.Effect<void>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Account>>
  /** The sub-account with this number whose master is `parentId`. */
  readonly findSubAccount: (parentId: string, number: string) => Effect.Effect<Option.Option<Account>>
  /** The account with this number, of any holder (for public routes that name one). */
  readonly findByNumber: (number: string) => Effect.Effect<Option.Option<Account>>
  /** True when some account, of any holder, has this number. */
  readonly numberExists: (number: string) => Effect.Effect<boolean>
  /** A fresh account number, unique across the installation. */
  readonly nextNumber: Effect.Effect<string>
}>()("@billing/core/ports/Storage/Accounts") {}

export class ApiClients extends Context.Service<ApiClients, {
  readonly insert: (client: ApiClient) => Effect.Effect<void>
  readonly findByClientId: (clientId: string) => Effect.Effect<Option.Option<ApiClient>>
  /** Replaces the secret hash and scopes of an existing client. */
  readonly updateCredentials: (clientId: string, secretHash: string, scopes: ReadonlyArray<string>) => Effect.Effect<void>
}>()("@billing/core/ports/Storage/ApiClients") {}

export class AccessTokens extends Context.Service<AccessTokens, {
  /** The newest token of this client and scope set that is still valid after `validAfter`. */
  readonly findReusable: (clientId: string, scopeKey: string, validAfter: Date) => Effect.Effect<Option.Option<IssuedToken>>
  readonly insert: (token: IssuedToken) => Effect.Effect<void>
}>()("@billing/core/ports/Storage/AccessTokens") {}

/** Installation-wide secrets (the JWT signing key), created once and shared by every process. */
export class Settings extends Context.Service<Settings, {
  /** Returns the stored value, storing `candidate` first when there is none (first writer wins). */
  readonly getOrInsert: (key: string, candidate: string) => Effect.Effect<string>
}>()("@billing/core/ports/Storage/Settings") {}

export class Webhooks extends Context.Service<Webhooks, {
  readonly insert: (registration: WebhookRegistration) => Effect.Effect<void>
  readonly list: (accountId: string) => Effect.Effect<ReadonlyArray<WebhookRegistration>>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<WebhookRegistration>>
  readonly update: (registration: WebhookRegistration) => Effect.Effect<void>
  readonly remove: (accountId: string, id: string) => Effect.Effect<boolean>
  /** Active registrations of the account that take this event (an empty list takes all). */
  readonly subscribersOf: (accountId: string, event: EventName) => Effect.Effect<ReadonlyArray<WebhookRegistration>>
}>()("@billing/core/ports/Storage/Webhooks") {}

export class Outbox extends Context.Service<Outbox, {
  /** Records an event; call it inside the command's transaction. */
  readonly append: (event: Omit<OutboxEvent, "id" | "createdAt">) => Effect.Effect<void>
  /**
   * Claims up to `limit` unprocessed events for this transaction only: rows
   * another transaction holds are skipped, so concurrent workers never take
   * the same event. Call inside `Transactor.withTransaction` and mark them.
   */
  readonly claimUnprocessed: (limit: number) => Effect.Effect<ReadonlyArray<OutboxEvent>>
  readonly markProcessed: (ids: ReadonlyArray<string>) => Effect.Effect<void>
}>()("@billing/core/ports/Storage/Outbox") {}

export interface DeliveryPage {
  readonly items: ReadonlyArray<WebhookDelivery>
  readonly nextPageToken: string | null
}

export class WebhookDeliveries extends Context.Service<WebhookDeliveries, {
  readonly insertMany: (deliveries: ReadonlyArray<WebhookDelivery>) => Effect.Effect<void>
  /**
   * Leases up to `limit` deliveries that are pending, or whose previous lease
   * ran out (a worker died mid-delivery), marking them `sending` until
   * `leaseUntil` and counting the attempt. Rows are claimed with
   * `FOR UPDATE SKIP LOCKED`, so two workers never lease the same one.
   */
  readonly lease: (limit: number, now: Date, leaseUntil: Date) => Effect.Effect<ReadonlyArray<WebhookDelivery>>
  /**
   * Records the outcome of an attempt. `countAttempt` is for attempts made
   * outside a lease (a manual retry); a leased attempt was counted by `lease`.
   */
  readonly complete: (
    id: string,
    outcome: {
      readonly status: DeliveryStatus
      readonly responseStatusCode: number | null
      readonly error: string | null
      readonly at: Date
      readonly countAttempt: boolean
    }
  ) => Effect.Effect<void>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<WebhookDelivery>>
  readonly list: (
    accountId: string,
    options: { readonly limit: number; readonly after: string | null; readonly event: string | null; readonly status: string | null }
  ) => Effect.Effect<DeliveryPage>
}>()("@billing/core/ports/Storage/WebhookDeliveries") {}

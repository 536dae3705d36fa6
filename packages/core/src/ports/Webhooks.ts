import { Context, type Effect, type Option } from "effect"
import type { WebhookRegistration } from "../domain/Webhook.ts"
import type { AccountId, WebhookId } from "../domain/Ids.ts"

/** Webhook registrations of the accounts. */
export class Webhooks extends Context.Service<Webhooks, {
  readonly insert: (registration: WebhookRegistration) => Effect.Effect<void>
  readonly list: (accountId: AccountId) => Effect.Effect<ReadonlyArray<WebhookRegistration>>
  readonly find: (accountId: AccountId, id: WebhookId) => Effect.Effect<Option.Option<WebhookRegistration>>
  readonly update: (registration: WebhookRegistration) => Effect.Effect<void>
  /** Removes a registration; what still waited to be sent to it is failed. */
  readonly remove: (accountId: AccountId, id: WebhookId) => Effect.Effect<boolean>
  /** The registrations with these ids, of any account (the dispatcher's, for the deliveries it leased). */
  readonly findMany: (ids: ReadonlyArray<WebhookId>) => Effect.Effect<ReadonlyArray<WebhookRegistration>>
  /** Active registrations of the account that take this event (an empty list takes all). */
  /** The account's active registration at `url`, the oldest when several. */
  readonly findActiveAt: (accountId: AccountId, url: string) => Effect.Effect<Option.Option<WebhookRegistration>>
}>()("@billing/core/ports/Webhooks") {}

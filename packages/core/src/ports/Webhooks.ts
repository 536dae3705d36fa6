import { Context, type Effect, type Option } from "effect"
import type { EventName } from "../domain/Events.ts"
import type { WebhookRegistration } from "../domain/Webhook.ts"

/** Webhook registrations of the accounts. */
export class Webhooks extends Context.Service<Webhooks, {
  readonly insert: (registration: WebhookRegistration) => Effect.Effect<void>
  readonly list: (accountId: string) => Effect.Effect<ReadonlyArray<WebhookRegistration>>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<WebhookRegistration>>
  readonly update: (registration: WebhookRegistration) => Effect.Effect<void>
  readonly remove: (accountId: string, id: string) => Effect.Effect<boolean>
  /** Active registrations of the account that take this event (an empty list takes all). */
  readonly subscribersOf: (accountId: string, event: EventName) => Effect.Effect<ReadonlyArray<WebhookRegistration>>
}>()("@billing/core/ports/Webhooks") {}

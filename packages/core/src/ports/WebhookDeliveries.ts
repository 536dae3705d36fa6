import { Context, type Effect, type Option } from "effect"
import type { DeliveryStatus, WebhookDelivery } from "../domain/Webhook.ts"

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
}>()("@billing/core/ports/WebhookDeliveries") {}

import type { Backlog } from "../domain/Backlog.ts"
import { Context, type Effect, type Option } from "effect"
import type { DeliveryStatus, WebhookDelivery, WebhookDetailView } from "../domain/Webhook.ts"
import type { AccountId, WebhookDeliveryId, WebhookId } from "../domain/Ids.ts"

export interface DeliveryPage {
  readonly items: ReadonlyArray<WebhookDelivery>
  readonly nextPageToken: string | null
}

/** What one attempt of a delivery came to. */
export interface DeliveryOutcome {
  readonly id: WebhookDeliveryId
  /** The registration and event, for the log of a failure. */
  readonly webhookId: WebhookId
  readonly event: string
  readonly status: Extract<DeliveryStatus, "delivered" | "failed">
  readonly responseStatusCode: number | null
  readonly error: string | null
  readonly at: Date
  /**
   * The lease it was sent under: its outcome counts only while the delivery
   * is still under it (a late one, after another worker leased it again, is
   * that worker's to record). None for a manual retry, which is sent outside
   * any lease and whose attempt is counted here (a leased one was counted by
   * `lease`).
   */
  readonly lease: Date | null
}

/** How many deliveries a lease may take of each registration: `of` the ones named, `others` any other. */
export interface DeliveryRoom {
  readonly others: number
  readonly of: ReadonlyMap<string, number>
}

/** A registration's deliveries: attempts delivered and failed so far, in flight, waiting, and since when the oldest waits. */
export type DeliveryCounters = typeof WebhookDetailView.fields.deliveries.Type

/** Events fanned out in one statement, by name and payment method. */
export interface FannedOutEvents {
  readonly event: string
  readonly method: string | null
  readonly count: number
  /** The sum of the events' `amount` (centavos); 0 for events without one. */
  readonly amount: number
}

/** The webhook pipeline's waiting work: events not fanned out yet, deliveries due, deliveries leased to a worker now. */
export interface DeliveryBacklog {
  readonly events: Backlog
  readonly deliveries: Backlog
  readonly inFlight: number
}

export class WebhookDeliveries extends Context.Service<WebhookDeliveries, {
  readonly insertMany: (deliveries: ReadonlyArray<WebhookDelivery>) => Effect.Effect<void>
  /**
   * Fans out up to `limit` unprocessed outbox events in one statement: one
   * delivery per active registration of the event's account that takes it
   * (an empty `events` list takes every event but `namedOnly`, those a
   * registration gets only by naming them), each keyed by the subscription or charge it is about, and the
   * events marked processed. Claims with `SKIP LOCKED`, so any number of
   * workers fan out at once. Returns the events it took, counted by name
   * and payment method (the body's `paymentMethod`, when it has one) with
   * the sum of their `amount`s in centavos: what the money counters of
   * `/metrics` count, each committed event once.
   */
  readonly fanOut: (limit: number, options: { readonly namedOnly: readonly [string, ...Array<string>]; readonly at: Date }) => Effect.Effect<ReadonlyArray<FannedOutEvents>>
  /**
   * Leases up to `limit` due deliveries (pending, or sending under a lease
   * that ran out: a worker died mid-delivery), fairly: every registration's
   * oldest first, at most as many of a registration as its room (what the
   * caller may take of it now: `room.of` for those named, `room.others` for
   * any other), and never one whose subscription or charge has an earlier
   * delivery to the same registration still waiting or in flight. Marks
   * them `sending` until `leaseUntil` and counts the attempt; claimed with
   * `SKIP LOCKED`, so two workers never lease the same one.
   */
  readonly lease: (options: {
    readonly limit: number
    readonly room: DeliveryRoom
    readonly now: Date
    readonly leaseUntil: Date
  }) => Effect.Effect<ReadonlyArray<WebhookDelivery>>
  /**
   * Hands back leased deliveries that were not sent: due again at once,
   * their attempt not counted. Each only while it is still under the lease
   * it was given: once that ran out, another lease may hold it.
   */
  readonly release: (leases: ReadonlyArray<{ readonly id: WebhookDeliveryId; readonly leaseUntil: Date }>) => Effect.Effect<void>
  /** Records the outcomes of attempts (see `DeliveryOutcome.lease`), in one statement, with their registrations' counters. */
  readonly completeMany: (outcomes: ReadonlyArray<DeliveryOutcome>) => Effect.Effect<void>
  readonly counters: (webhookId: WebhookId) => Effect.Effect<DeliveryCounters>
  readonly find: (accountId: AccountId, id: WebhookDeliveryId) => Effect.Effect<Option.Option<WebhookDelivery>>
  readonly list: (
    accountId: AccountId,
    options: { readonly limit: number; readonly after: string | null; readonly event: string | null; readonly status: string | null }
  ) => Effect.Effect<DeliveryPage>
  /** The pipeline's waiting work at `now`, each count up to `cap`, for the metrics. */
  readonly backlog: (now: Date, cap: number) => Effect.Effect<DeliveryBacklog>
}>()("@billing/core/ports/WebhookDeliveries") {}

import { Context, type Effect } from "effect"
import type { Notification } from "../domain/Notification.ts"

/** Messages waiting to be sent, recorded in the transaction of the change that caused them. */
export class Notifications extends Context.Service<Notifications, {
  readonly enqueue: (notification: Omit<Notification, "id">, at: Date) => Effect.Effect<void>
  /** Claims pending messages with `SKIP LOCKED`; call in a transaction and mark each. */
  readonly claimPending: (limit: number) => Effect.Effect<ReadonlyArray<Notification>>
  readonly markSent: (id: string, at: Date) => Effect.Effect<void>
  readonly markFailed: (id: string, error: string) => Effect.Effect<void>
}>()("@billing/core/ports/Notifications") {}

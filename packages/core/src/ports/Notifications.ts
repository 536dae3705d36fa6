import { Context, type Effect, Schema } from "effect"
import type { Notification } from "../domain/Notification.ts"

// Re-exported for the modules that still import them from here.
export { NotificationKind, NotificationKinds } from "../domain/Notification.ts"

/** Messages waiting to be sent, recorded in the transaction of the change that caused them. */
export class Notifications extends Context.Service<Notifications, {
  readonly enqueue: (notification: Omit<Notification, "id">, at: Date) => Effect.Effect<void>
  /** Claims pending messages with `SKIP LOCKED`; call in a transaction and mark each. */
  readonly claimPending: (limit: number) => Effect.Effect<ReadonlyArray<Notification>>
  readonly markSent: (id: string, at: Date) => Effect.Effect<void>
  readonly markFailed: (id: string, error: string) => Effect.Effect<void>
}>()("@billing/core/ports/Notifications") {}

export class MailerError extends Schema.TaggedError<MailerError>()("MailerError", { message: Schema.String }) {}

/** Sends one e-mail. Production plugs an e-mail provider; the sandbox layer keeps messages in memory. */
export class Mailer extends Context.Service<Mailer, {
  readonly send: (message: { readonly to: string; readonly subject: string; readonly body: string }) => Effect.Effect<void, MailerError>
}>()("@billing/core/ports/Mailer") {}

import { Context, type Effect, Schema } from "effect"

/** The e-mails a charge can send (spec: Transparent checkout `notifications`). */
export const NotificationKinds = ["oneoff.pix.generated", "oneoff.payment.success", "oneoff.payment.failed", "new.sale"] as const
export type NotificationKind = (typeof NotificationKinds)[number]

export interface Notification {
  readonly id: string
  readonly accountId: string
  readonly chargeId: string
  readonly kind: NotificationKind
  readonly recipient: string
  readonly subject: string
  readonly body: string
}

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

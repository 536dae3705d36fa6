import { Context, type Effect, Schema } from "effect"

export class MailerError extends Schema.TaggedError<MailerError>()("MailerError", { message: Schema.String }) {}

/** A file sent with a message (a note's PDF and XML). */
export interface MailAttachment {
  readonly filename: string
  readonly contentType: string
  readonly content: Uint8Array
}

/** One e-mail. */
export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly body: string
  readonly attachments?: ReadonlyArray<MailAttachment> | undefined
}

/** Sends one e-mail. Production plugs an e-mail provider; the sandbox layer keeps messages in memory. */
export class Mailer extends Context.Service<Mailer, {
  readonly send: (message: MailMessage) => Effect.Effect<void, MailerError>
}>()("@billing/core/ports/Mailer") {}

import { Context, type Effect, Schema } from "effect"

export class MailerError extends Schema.TaggedError<MailerError>()("MailerError", { message: Schema.String }) {}

/** Sends one e-mail. Production plugs an e-mail provider; the sandbox layer keeps messages in memory. */
export class Mailer extends Context.Service<Mailer, {
  readonly send: (message: { readonly to: string; readonly subject: string; readonly body: string }) => Effect.Effect<void, MailerError>
}>()("@billing/core/ports/Mailer") {}

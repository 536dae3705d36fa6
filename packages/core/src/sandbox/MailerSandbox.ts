import { Clock, Context, Effect, Layer } from "effect"
import { Mailer, type MailMessage } from "../ports/Mailer.ts"

/** A message the sandbox mailer "sent", and when. */
export type SandboxMail = MailMessage & { readonly at: Date }

/** What the sandbox mailer "sent": kept in memory, newest last, for tests and local development. */
export class SandboxMailbox extends Context.Service<SandboxMailbox, {
  readonly messages: ReadonlyArray<SandboxMail>
}>()("@billing/core/sandbox/SandboxMailbox") {}

/**
 * The most messages the mailbox keeps: the newest. It serves tests and local
 * development; a long-running process (and its notes' PDFs) must not grow
 * with every message it was asked to send.
 */
export const SANDBOX_MAILBOX_SIZE = 1_000

/** A mailer that delivers nothing and records the latest messages in the `SandboxMailbox`. */
export const MailerSandbox = Layer.effectContext(Effect.sync(() => {
  const messages: Array<SandboxMail> = []
  return Context.make(SandboxMailbox, { messages }).pipe(
    Context.add(Mailer, {
      send: (message) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          messages.push({ ...message, at: new Date(now) })
          if (messages.length > SANDBOX_MAILBOX_SIZE) messages.splice(0, messages.length - SANDBOX_MAILBOX_SIZE)
        })
    })
  )
}))

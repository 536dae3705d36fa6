import { Clock, Context, Effect, Layer } from "effect"
import { Mailer, type MailMessage } from "../ports/Mailer.ts"

/** A message the sandbox mailer "sent", and when. */
export type SandboxMail = MailMessage & { readonly at: Date }

/** What the sandbox mailer "sent": kept in memory, newest last, for tests and local development. */
export class SandboxMailbox extends Context.Service<SandboxMailbox, {
  readonly messages: ReadonlyArray<SandboxMail>
}>()("@billing/core/sandbox/SandboxMailbox") {}

/** A mailer that delivers nothing and records every message in the `SandboxMailbox`. */
export const MailerSandbox = Layer.effectContext(Effect.sync(() => {
  const messages: Array<SandboxMail> = []
  return Context.make(SandboxMailbox, { messages }).pipe(
    Context.add(Mailer, {
      send: (message) => Effect.map(Clock.currentTimeMillis, (now) => void messages.push({ ...message, at: new Date(now) }))
    })
  )
}))

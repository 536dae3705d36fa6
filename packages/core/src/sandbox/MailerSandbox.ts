import { Clock, Context, Effect, Layer } from "effect"
import { Mailer } from "../ports/Mailer.ts"

/** What the sandbox mailer "sent": kept in memory, newest last, for tests and local development. */
export class SandboxMailbox extends Context.Service<SandboxMailbox, {
  readonly messages: ReadonlyArray<{ readonly to: string; readonly subject: string; readonly body: string; readonly at: Date }>
}>()("@billing/core/sandbox/SandboxMailbox") {}

/** A mailer that delivers nothing and records every message in the `SandboxMailbox`. */
export const MailerSandbox = Layer.effectContext(Effect.sync(() => {
  const messages: Array<{ readonly to: string; readonly subject: string; readonly body: string; readonly at: Date }> = []
  return Context.make(SandboxMailbox, { messages }).pipe(
    Context.add(Mailer, {
      send: (message) => Effect.map(Clock.currentTimeMillis, (now) => void messages.push({ ...message, at: new Date(now) }))
    })
  )
}))

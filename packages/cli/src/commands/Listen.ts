/**
 * `billing listen --forward-to URL --account ACCOUNT_ID`: the account's
 * events, forwarded to a local URL while the command runs, as Stripe's CLI
 * does. Nothing is simulated: `listen` registers a webhook for the account
 * (removed when it stops), so the worker delivers real, signed deliveries, and
 * it prints each one as it lands.
 */
import { Billing } from "@billing/core"
import { Console, Effect, Option, Schedule } from "effect"
import { Command, Flag } from "effect/cli"
import { usageError } from "../CliFailure.ts"
import { configFromEnv, EngineLive } from "../Engine.ts"
import { ProgressToStderr } from "./Shared.ts"

const POLL = "300 millis"

/** `billing listen --forward-to URL --account ACCOUNT_ID [--events E1,E2]`. */
export const listen = Command.make("listen", {
  forwardTo: Flag.String("forward-to").pipe(Flag.withMetavar("URL"), Flag.withDescription("where to POST each event, e.g. http://127.0.0.1:4000/webhooks")),
  account: Flag.String("account").pipe(Flag.withMetavar("ACCOUNT_ID"), Flag.withDescription("the account whose events to forward")),
  events: Flag.String("events").pipe(Flag.withMetavar("E1,E2"), Flag.withDescription("only these events (default: every event but the opt-in ones, which must be named)"), Flag.optional)
}, Effect.fn("Cli.listen")(function*(input) {
  const asAccount = Billing.asAccount(input.account)
  const events = Option.getOrUndefined(Option.map(input.events, (list) => list.split(",").map((e) => e.trim()).filter((e) => e.length > 0)))
  const registration = yield* Effect.acquireRelease(
    Billing.registerWebhook({ url: input.forwardTo, events }).pipe(asAccount, Effect.mapError((error) => usageError(`${error._tag}: ${error.message}`))),
    (registered) => Billing.removeWebhook(registered.webhookId).pipe(asAccount, Effect.ignore)
  )
  yield* Console.log([
    `Ready! Forwarding ${events === undefined ? "every event but the opt-in ones" : events.join(", ")} of ${input.account} to ${input.forwardTo}`,
    `Your webhook signing secret is ${registration.secret} (webhook ${registration.webhookId}, removed when this stops)`,
    `Deliveries are sent by the worker of 'billing serve' or 'billing worker'; Ctrl-C to stop.`
  ].join("\n"))
  // Deliveries come newest first; each is printed once, when it has an outcome.
  const printed = new Set<string>()
  const printNew = Billing.listDeliveries({ limit: 50 }).pipe(
    asAccount,
    Effect.flatMap((page) =>
      Effect.forEach(
        page.items
          .filter((d) => d.webhookId === registration.webhookId && (d.status === "delivered" || d.status === "failed") && !printed.has(d.webhookEventId))
          .reverse(),
        (d) => {
          printed.add(d.webhookEventId)
          const outcome = d.responseStatusCode === null ? (d.error ?? d.status) : String(d.responseStatusCode)
          return Console.log(`--> ${d.type} [${d.webhookEventId}]\n<-- [${outcome}] POST ${input.forwardTo} [${d.webhookEventId}]`)
        },
        { discard: true }
      )
    )
  )
  return yield* Effect.repeat(printNew, Schedule.spaced(POLL)).pipe(Effect.andThen(Effect.never))
}, Effect.scoped, Effect.provide(EngineLive(configFromEnv(process.env, { holder: "billing listen", share: true }))), Effect.provide(ProgressToStderr))).pipe(
  Command.withDescription("Forward an account's events to a local URL, signed like real deliveries, while it runs"),
  Command.withExamples([{ command: "billing listen --forward-to http://127.0.0.1:4000/webhooks --account SANDBOX_acc_…", description: "with examples/webhook-receiver.ts" }])
)

/**
 * `billing trigger EVENT --account ACCOUNT_ID`: makes the engine emit a
 * sandbox event through its real pipeline, as Stripe's CLI does: it creates
 * what the event is about and acts on it, so the event is recorded, fanned out
 * and delivered exactly as in production.
 */
import { Billing, cents } from "@billing/core"
import { Console, Effect, Option, Schedule } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { CliFailure, usageError } from "../CliFailure.ts"
import { configFromEnv, EngineLive } from "../Engine.ts"
import { ProgressToStderr } from "./Shared.ts"

/** Events the engine can be made to emit on demand today; more as their use cases arrive. */
const Triggerable = ["payment.success"] as const

const CONFIRMATION_TIMEOUT = "30 seconds"

/** `payment.success`: a R$ 10.00 Pix charge, paid through the sandbox; the worker confirms it and records the event. */
const paymentSuccess = Effect.fn("Cli.triggerPaymentSuccess")(function*(accountId: string) {
  const asAccount = Billing.asAccount(accountId)
  const created = yield* Billing.createPixCharge({ amount: cents(1000), metadata: { trigger: "payment.success" } }).pipe(asAccount)
  yield* Console.log(`created Pix charge ${created.chargeId} of R$ 10.00`)
  yield* Billing.requestSandboxPayment(created.chargeId).pipe(asAccount)
  yield* Console.log(`paid it in the sandbox; waiting for the worker to confirm it`)
  const paid = yield* Billing.getChargeStatus(created.chargeId).pipe(
    asAccount,
    Effect.repeat({ until: (status) => status.status === "PAID", schedule: Schedule.spaced("200 millis") }),
    Effect.timeoutOption(CONFIRMATION_TIMEOUT)
  )
  if (Option.isNone(paid)) {
    return yield* new CliFailure({
      message: `no worker confirmed the payment of ${created.chargeId} within ${CONFIRMATION_TIMEOUT}: is 'billing serve' (with its worker) or 'billing worker' running on this database?`,
      code: 1
    })
  }
  yield* Console.log(`payment.success recorded for ${created.chargeId}; every webhook of the account receives it`)
})

/** `billing trigger payment.success --account ACCOUNT_ID`. */
export const trigger = Command.make("trigger", {
  event: Argument.Literals("event", Triggerable).pipe(Argument.withDescription(`the event to emit: ${Triggerable.join(", ")}`)),
  account: Flag.String("account").pipe(Flag.withMetavar("ACCOUNT_ID"), Flag.withDescription("a sandbox account"))
}, Effect.fn("Cli.trigger")(function*(input) {
  yield* paymentSuccess(input.account).pipe(
    // What the engine refuses here (an unknown or production account) is a wrong command line.
    Effect.catchIf((error) => !(error instanceof CliFailure), (error) => Effect.fail(usageError(`${error._tag}: ${error.message}`)))
  )
}, Effect.provide(EngineLive(configFromEnv(process.env, { holder: "billing trigger" }))), Effect.provide(ProgressToStderr))).pipe(
  Command.withDescription("Emit a sandbox event through the real pipeline (the worker confirms and delivers it)")
)

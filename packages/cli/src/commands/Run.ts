/**
 * `billing run --until DATE [--account ACCOUNT_ID]`: runs every time-driven
 * job (sandbox payments, cancels at period end, cycle issues, card retries,
 * overdue marks, dunning ends, charge expiries) once, as of DATE, and exits
 * with what it did as JSON on stdout (with its duration and peak memory). Operators catch up with it; tests drive
 * the engine's time with it. Without `--account` it runs every account
 * without a test clock, as the worker does; with it, that account alone.
 */
import { AccountId, Billing, Brazil, EVERY_ACCOUNT } from "@billing/core"
import { Clock, Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { pollBoletoPayments, pollReceivedPix } from "@billing/providers"
import { usageError } from "../CliFailure.ts"
import { configFromEnv, EngineLive } from "../Engine.ts"
import { ProgressToStderr, providersFromEnv } from "./Shared.ts"

/** `billing run`. */
export const runCommand = Command.make("run", {
  until: Flag.String("until").pipe(
    Flag.withMetavar("DATE"),
    Flag.withDescription("run as of this date (its first instant in São Paulo) or ISO 8601 instant; default: now"),
    Flag.optional
  ),
  account: Flag.String("account").pipe(Flag.withMetavar("ACCOUNT_ID"), Flag.withDescription("only this account"), Flag.optional)
}, Effect.fn("Cli.run")(function*(input) {
  const base = yield* Clock.clockWith(Effect.succeed)
  const now = base.currentTimeMillisUnsafe()
  const until = Option.match(input.until, { onNone: () => now, onSome: (text) => Brazil.saoPauloInstant(text)?.getTime() ?? NaN })
  if (Number.isNaN(until)) return yield* usageError(`--until must be a date YYYY-MM-DD or an ISO 8601 instant`)
  const scope = Option.match(input.account, { onNone: () => EVERY_ACCOUNT, onSome: (accountId) => ({ accountId: AccountId.make(accountId) }) })
  const totals = yield* Billing.runBillingJobs(scope).pipe(Effect.provideService(Clock.Clock, Billing.shiftedClock(base, until - now)))
  // The PSPs' Pix of the last ten minutes that no callback brought (none without PSPs).
  const reconciled = yield* pollReceivedPix()
  // The boleto bank's payments of the last days that no callback brought (none without a bank).
  const boletos = yield* pollBoletoPayments()
  const elapsedMs = base.currentTimeMillisUnsafe() - now
  // The peak memory (`maxRSS` is in kilobytes) and the CPU time of this process, for capacity planning.
  const usage = process.resourceUsage()
  const peakRssMb = Math.round(usage.maxRSS / 1024)
  const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000)
  yield* Console.log(JSON.stringify({ until: new Date(until).toISOString(), ...totals, pixReconciled: reconciled.outcomes.confirmed, boletosReconciled: boletos.outcomes.confirmed, elapsedMs, peakRssMb, cpuMs }))
},
  // The providers file first, so a bad one stops the run before the database is opened.
  (run) => Effect.flatMap(providersFromEnv, (providers) => Effect.provide(run, EngineLive(configFromEnv(process.env, { holder: "billing run", share: true }), { providers }))),
  Effect.provide(ProgressToStderr))).pipe(
  Command.withDescription("Run every time-driven job once as of a date, and exit")
)

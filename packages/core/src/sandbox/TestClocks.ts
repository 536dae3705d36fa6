/**
 * Sandbox test clocks: a sandbox account's own time, which moves only when
 * it is advanced (`GET /v1/sandbox/clock`, `POST /v1/sandbox/clock/advance`,
 * `Billing.advanceClock`).
 *
 * The design against Stripe's test clocks: Stripe attaches customers to a
 * frozen clock object; here the clock belongs to the whole sandbox account
 * (Pix and boleto charges have no customer to attach, and a merchant tests
 * its integration as an account) and is stored as an offset from the real
 * time, so it keeps running at the real pace between advances: every
 * timestamp stays distinct and ordered, which lists by `createdAt` and
 * events ordered by `timestamp` rely on. Everything that reads "now" for the
 * account reads it: requests under its credentials (the HTTP edge provides
 * the clock once the caller is known, so tokens still expire on real time)
 * and its time-driven jobs. The worker leaves accounts with a clock alone;
 * advancing runs their jobs, synchronously, stopping at each instant where
 * one has work (an issue day, a retry day, the day after a due date, a
 * charge's deadline), so a year of a subscription happens in order, each
 * step stamped with its own time.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { sandboxCaller } from "../auth/SandboxOnly.ts"
import { saoPauloDate, saoPauloInstant, startOfSaoPauloDay } from "../brazil/BankCalendar.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import type { AccountId } from "../domain/Ids.ts"
import type { RunScope } from "../domain/RunScope.ts"
import { Instant } from "../domain/Wire.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Charges } from "../ports/Charges.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { runBillingJobs } from "../subscriptions/BillingRun.ts"
import { Notas } from "../ports/Notas.ts"
import { shiftedClock } from "./AccountClock.ts"

/** How far one advance may go: ten years of daily cycles is still a bounded run. */
const MAX_ADVANCE_MILLIS = 10 * 366 * 86_400_000

/** `GET /v1/sandbox/clock`: the account's time. */
export const TestClockView = Schema.Struct({
  accountNumber: Schema.String,
  /** Whether the account has its own clock (it gets one at its first advance). */
  frozen: Schema.Boolean,
  now: Instant,
  /** Today in São Paulo, the day every due date is compared with. */
  today: Schema.String
}).annotate({ identifier: "TestClock" })

/** `POST /v1/sandbox/clock/advance`: to an instant (`to`), or a number of days from the account's now. */
export const AdvanceClockInput = Schema.Struct({
  to: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(40)))),
  days: Schema.optionalKey(Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 3660 }))))
}).annotate({ identifier: "AdvanceClockInput" })
export type AdvanceClockInput = typeof AdvanceClockInput.Type

/** What an advance did: the clock's new time and what its jobs made happen, by event. */
export const AdvanceClockResult = Schema.Struct({
  ...TestClockView.fields,
  from: Instant,
  /** Instants the clock stopped at to run the jobs due. */
  steps: Schema.Int,
  cyclesIssued: Schema.Int,
  chargesCreated: Schema.Int,
  paymentsConfirmed: Schema.Int,
  paymentsFailed: Schema.Int,
  overdue: Schema.Int,
  chargesExpired: Schema.Int,
  eventsEmitted: Schema.Int,
  /** Events emitted, by name. */
  events: Schema.Record(Schema.String, Schema.Int)
}).annotate({ identifier: "AdvanceClockResult" })

const sandboxAccount = Effect.map(sandboxCaller("Relógio de teste disponível apenas em contas sandbox"), (caller) => caller.account)

const viewAt = (accountNumber: string, frozen: boolean, now: number): typeof TestClockView.Type => ({
  accountNumber,
  frozen,
  now: new Date(now),
  today: saoPauloDate(now)
})

// Use cases run on the caller's clock already (the HTTP edge and `asAccount` provide it): "now" is the account's.
export const getTestClock = Effect.fn("TestClocks.get")(function*() {
  const account = yield* sandboxAccount
  const offset = yield* (yield* Accounts).clockOffset(account.id)
  return viewAt(account.number, Option.isSome(offset), yield* Clock.currentTimeMillis)
})

/** The instant `input` names from `now`: `to` (an ISO instant, or a date meaning its first instant in São Paulo) or `days` ahead. */
const targetOf = Effect.fnUntraced(function*(input: AdvanceClockInput, now: number) {
  if (input.days !== undefined && input.days !== null) return now + input.days * 86_400_000
  if (input.to === undefined || input.to === null) return yield* invalid("to", "Envie to (data ou instante) ou days")
  const date = saoPauloInstant(input.to)?.getTime()
  if (date === undefined) return yield* invalid("to", "to must be a date YYYY-MM-DD or an ISO 8601 instant")
  if (date < now) return yield* invalid("to", "A test clock only moves forward")
  if (date - now > MAX_ADVANCE_MILLIS) return yield* invalid("to", "A test clock advances at most ten years at a time")
  return date
})

/** The next instant after `now` at which a job of the account has work, if any. */
const nextStop = Effect.fnUntraced(function*(accountId: AccountId, now: number) {
  const day = yield* (yield* Subscriptions).nextWorkDay(accountId, saoPauloDate(now))
  const expiry = yield* (yield* Charges).nextExpiry(accountId, new Date(now))
  const nota = yield* (yield* Notas).nextDue(accountId, new Date(now))
  const candidates = [
    ...Option.toArray(Option.map(day, (d) => startOfSaoPauloDay(d).getTime())),
    ...Option.toArray(Option.map(expiry, (at) => at.getTime() + 1)),
    ...Option.toArray(Option.map(nota, (at) => at.getTime()))
  ]
  return candidates.length === 0 ? Option.none<number>() : Option.some(Math.min(...candidates))
})

/** Counts the events appended through the Outbox while `effect` runs, by name. */
const countingEvents = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    const counts: Record<string, number> = {}
    const count = (entries: ReadonlyArray<{ readonly event: string }>) =>
      Effect.sync(() => entries.forEach((entry) => void (counts[entry.event] = (counts[entry.event] ?? 0) + 1)))
    const counting = Outbox.of({
      ...outbox,
      append: (entry) => Effect.tap(outbox.append(entry), () => count([entry])),
      appendMany: (entries) => Effect.tap(outbox.appendMany(entries), () => count(entries))
    })
    const result = yield* Effect.provideService(effect, Outbox, counting)
    return [result, counts] as const
  })

/**
 * Advances the caller's test clock (a sandbox account's) and runs every job
 * of the account due on the way, stopping at each instant one has work;
 * answers what happened. 400 `NOT_SANDBOX_ACCOUNT` on a production account.
 */
export const advanceClock = Effect.fn("TestClocks.advance")(function*(input: AdvanceClockInput) {
  const account = yield* sandboxAccount
  const accounts = yield* Accounts
  const offset = Option.getOrElse(yield* accounts.clockOffset(account.id), () => 0)
  // The ambient clock is the account's: the real one is `offset` behind it.
  const base = shiftedClock(yield* Clock.clockWith(Effect.succeed), -offset)
  const from = base.currentTimeMillisUnsafe() + offset
  const target = yield* targetOf(input, from)
  const scope: RunScope = { accountId: account.id }
  // The account's clock runs at the real pace between stops: each stop is taken from where a run left it, never behind.
  let shift = offset
  const accountNow = () => base.currentTimeMillisUnsafe() + shift
  // Never behind the real time: an account that had no clock starts from the real now, a moment ago.
  const moveTo = (instant: number) => {
    shift = Math.max(0, instant - base.currentTimeMillisUnsafe())
    return accounts.setClockOffset(account.id, shift, new Date(instant))
  }
  const runHere = Effect.suspend(() => Effect.provideService(runBillingJobs(scope), Clock.Clock, shiftedClock(base, shift)))
  const [totals, events] = yield* countingEvents(Effect.gen(function*() {
    let steps = 0
    let cyclesIssued = 0
    yield* moveTo(from)
    for (;;) {
      cyclesIssued += (yield* runHere).issued
      steps++
      const current = accountNow()
      if (current >= target) return { cyclesIssued, steps }
      const stop = yield* nextStop(account.id, current)
      yield* moveTo(Option.match(stop, { onNone: () => target, onSome: (at) => Math.min(at, target) }))
    }
  }))
  const count = (name: string) => events[name] ?? 0
  return {
    ...viewAt(account.number, true, target),
    from: new Date(from),
    steps: totals.steps,
    cyclesIssued: totals.cyclesIssued,
    chargesCreated: count("charge.created"),
    paymentsConfirmed: count("payment.success"),
    paymentsFailed: count("payment.failed"),
    overdue: count("payment.overdue"),
    chargesExpired: count("charge.expired"),
    eventsEmitted: Object.values(events).reduce((sum, n) => sum + n, 0),
    events
  } satisfies typeof AdvanceClockResult.Type
})

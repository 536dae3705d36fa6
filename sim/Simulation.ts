/**
 * A run: simulated days, each a timeline of the workload's operations in
 * business hours and of the worker's passes (payments due, every
 * time-driven job of every account, e-mails, webhook delivery), under a
 * `TestClock` set to each instant in turn; the invariants after each day;
 * and at the end every fault healed, the failed webhooks resent, and the
 * final invariants. The run stops at the first day that breaks one.
 */
import { Billing, EVERY_ACCOUNT } from "@billing/core"
import { chargesPass, deliveryPass } from "@billing/worker"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { type Counts, counts, digest } from "./Digest.ts"
import { EngineLog, type LogLine } from "./EngineLog.ts"
import { Faults, type FaultRates } from "./Faults.ts"
import { checkAll, nothingDueLeft, type Violation } from "./Invariants.ts"
import * as Random from "./Random.ts"
import { type Outage, Receiver } from "./Receiver.ts"
import { makeLog, type StepLog } from "./Steps.ts"
import * as Workload from "./Workload.ts"
import { WorldLive } from "./World.ts"

/** 2031-01-06 00:00 in São Paulo (UTC-3, no daylight saving since 2019), a Monday. */
export const START = Date.UTC(2031, 0, 6, 3)
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export interface SimConfig {
  readonly seed: number
  readonly days: number
  readonly merchants?: number
  readonly rates?: FaultRates
  /** Told of each day once its invariants are checked. */
  readonly onDay?: (report: DayReport) => void
}

export interface DayReport {
  readonly day: number
  readonly operations: number
  readonly counts: Counts
  readonly outage: Outage | undefined
  /** The engine's warnings and errors of the day (a webhook its endpoint failed, a job that failed). */
  readonly warnings: ReadonlyArray<LogLine>
  readonly violations: ReadonlyArray<Violation>
}

export interface SimResult {
  readonly seed: number
  readonly days: number
  /** The day the run stopped on a violation or a defect; null when it ran to the end. */
  readonly failedDay: number | null
  /** Every step, in order, with its outcome. */
  readonly steps: ReadonlyArray<string>
  /** How many use cases the workload called. */
  readonly operations: number
  readonly violations: ReadonlyArray<Violation>
  /** Steps that died: engine defects, not workload outcomes. */
  readonly defects: ReadonlyArray<string>
  readonly digest: string
  readonly faults: Readonly<Record<string, number>>
  /** The engine's warnings and errors of the last day run, for a failure's report. */
  readonly engineLog: ReadonlyArray<LogLine>
  /** The requests the webhook receiver got: answered 200, and failed by its outages. */
  readonly receipts: { readonly accepted: number; readonly failed: number }
}

type Event = { readonly at: number; readonly kind: "operation" | "tick" | "resend" }

/** The worker's passes at fixed hours and the merchants' resend at 22:00; operations on minutes the seed draws, clear of a pass's lease rounds. */
const timeline = (random: Random.Random): ReadonlyArray<Event> => {
  const minutes = new Set<number>()
  const wanted = Random.int(random, 4, 10)
  while (minutes.size < wanted) minutes.add(Random.int(random, 7, 21) * 60 + Random.int(random, 10, 59))
  const operations = [...minutes].map((m): Event => ({ at: m * MINUTE, kind: "operation" }))
  const ticks = [6, 12, 18, 23].map((h): Event => ({ at: h * HOUR, kind: "tick" }))
  const resend: Event = { at: 22 * HOUR, kind: "resend" }
  return [...operations, ...ticks, resend].sort((a, b) => a.at - b.at)
}

/** How long a claim of the billing run holds its rows (`ClaimLease`'s default), and a second more. */
const PAST_LEASE = 61_000
/** Rounds a pass gives the rows a failed attempt left to their lease (a provider's fault strikes each round anew). */
const LEASE_ROUNDS = 5

/**
 * The time-driven jobs of every account, as a worker polling all day runs
 * them: a row whose attempt failed (the PSP timing out on a cycle's Pix) is
 * left to its lease and taken again once the lease ends, round after round
 * while something due is left.
 */
const runJobs = Effect.fn("Simulation.runJobs")(function*() {
  let run = yield* Billing.runBillingJobs(EVERY_ACCOUNT, { concurrency: 1 })
  let rounds = 0
  while (rounds < LEASE_ROUNDS && (yield* nothingDueLeft.check).length > 0) {
    rounds++
    yield* TestClock.adjust(PAST_LEASE)
    run = yield* Billing.runBillingJobs(EVERY_ACCOUNT, { concurrency: 1 })
  }
  return { run, rounds }
})

/** One pass of the worker: the buyers' payments due, every time-driven job of every account, e-mails, webhooks. */
const tick = Effect.fn("Simulation.tick")(function*(w: Workload.Workload, day: number, label: string) {
  yield* Workload.payDue(w, day)
  const { run, rounds } = yield* runJobs()
  const mailed = yield* chargesPass()
  const delivery = yield* deliveryPass()
  w.log.lines.push(`${label} -> issued=${run.issued} confirmed=${run.paymentsConfirmed} overdue=${run.overdue} expired=${run.expired + mailed.expired} ` +
    `retried=${run.retried} refunds=${run.refundsAnswered} leaseRounds=${rounds} fanned=${delivery.fanned} sent=${delivery.sent}`)
})

const resendAll = Effect.fn("Simulation.resendAll")(function*(w: Workload.Workload) {
  for (const m of w.merchants) yield* Workload.resendFailed(w, m)
})

const runEvent = (w: Workload.Workload, day: number, event: Event) => {
  const label = `d${day} ${String(Math.floor(event.at / HOUR)).padStart(2, "0")}:${String((event.at % HOUR) / MINUTE).padStart(2, "0")}`
  if (event.kind === "tick") return tick(w, day, `${label} tick`)
  if (event.kind === "resend") return resendAll(w)
  w.log.lines.push(`${label}`)
  return Workload.anyOperation(w, day)
}

/** Day `day`: its outage drawn, merchants opened on the first, its timeline run; answers the day's violations. */
const runDay = Effect.fn("Simulation.runDay")(function*(w: Workload.Workload, day: number, merchants: number) {
  const dayStart = START + day * DAY
  const outage = yield* (yield* Receiver).planDay(dayStart)
  if (day === 0) {
    yield* TestClock.setTime(dayStart + 5 * HOUR)
    for (let n = 1; n <= merchants; n++) yield* Workload.openMerchant(w, n)
  }
  const events = timeline(w.random)
  for (const event of events) {
    yield* TestClock.setTime(dayStart + event.at)
    yield* runEvent(w, day, event)
  }
  yield* TestClock.setTime(dayStart + DAY - MINUTE)
  const violations = yield* checkAll({ final: false })
  return { outage, operations: events.filter((e) => e.kind === "operation").length, violations }
})

/** After the last day: the receiver healthy again, a last pass, every failed webhook resent, the final invariants. */
const settle = Effect.fn("Simulation.settle")(function*(w: Workload.Workload, days: number) {
  yield* (yield* Receiver).heal
  yield* TestClock.setTime(START + days * DAY + HOUR)
  yield* tick(w, days, `d${days} settle`)
  yield* resendAll(w)
  return yield* checkAll({ final: true })
})

/** The simulation of `config`, in a world already built (`run` builds a fresh one). */
export const simulate = Effect.fn("Simulation.simulate")(function*(config: SimConfig) {
  const log: StepLog = makeLog()
  const w = Workload.make(config.seed, log)
  const engineLog = yield* EngineLog
  let violations: ReadonlyArray<Violation> = []
  let failedDay: number | null = null
  let lastLog: ReadonlyArray<LogLine> = []
  for (let day = 0; day < config.days && failedDay === null; day++) {
    const done = yield* runDay(w, day, config.merchants ?? 3)
    lastLog = engineLog.take().filter((line) => line.level !== "Info" && line.level !== "Debug")
    violations = done.violations
    config.onDay?.({ day, operations: done.operations, counts: yield* counts, outage: done.outage, warnings: lastLog, violations })
    if (violations.length > 0 || log.defects.length > 0) failedDay = day
  }
  if (failedDay === null) {
    violations = yield* settle(w, config.days)
    lastLog = engineLog.take().filter((line) => line.level !== "Info" && line.level !== "Debug")
    if (violations.length > 0 || log.defects.length > 0) failedDay = config.days
  }
  const receipts = (yield* Receiver).receipts()
  const accepted = receipts.filter((r) => r.answer === 200).length
  const result: SimResult = {
    seed: config.seed,
    days: config.days,
    failedDay,
    steps: log.lines,
    operations: log.operations,
    violations,
    defects: log.defects,
    digest: yield* digest,
    faults: (yield* Faults).injected(),
    engineLog: lastLog,
    receipts: { accepted, failed: receipts.length - accepted }
  }
  return result
})

/** Simulated time for `effect`: a `TestClock` that moves only when the simulation sets it. */
export const withSimulatedTime = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  // A day's passes use no timer of the clock's; the default one-second warning would only be noise.
  Effect.provide(effect, TestClock.layer({ warningDelay: "1 hour" }))

/** One run of `config` in a fresh world: its own in-memory database, ids, faults and receiver. */
export const run = (config: SimConfig): Promise<SimResult> =>
  Effect.runPromise(withSimulatedTime(simulate(config)).pipe(Effect.provide(WorldLive(config.seed, config.rates))))

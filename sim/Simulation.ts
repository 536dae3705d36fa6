/**
 * A run: simulated days, each a timeline of the workload's operations in
 * business hours and of the worker's passes (payments due, the PSPs' poll,
 * every time-driven job of every account, e-mails, webhook delivery), under
 * a `TestClock` set to each instant in turn; the invariants after each day;
 * and at the end every fault healed, a last pass, the failed webhooks
 * resent, and the final invariants. The engine's process may die inside
 * any call and start again (`Engine.ts`). The run stops at the first day
 * that breaks an invariant.
 */
import { Billing, EVERY_ACCOUNT } from "@billing/core"
import { chargesPass, deliveryPass } from "@billing/worker"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { CardBook } from "./CardAcquirer.ts"
import { CityBook } from "./City.ts"
import { type Counts, counts, digest } from "./Digest.ts"
import { Engine } from "./Engine.ts"
import { EngineLog, type LogLine } from "./EngineLog.ts"
import { Faults, type FaultRates } from "./Faults.ts"
import { splitKnown } from "./Findings.ts"
import { all as everyInvariant, checkAll, nothingDueLeft, type Violation } from "./Invariants.ts"
import * as Operations from "./Operations.ts"
import { payDue, pollPix } from "./Payments.ts"
import { type PspOutage, Psps } from "./Psps.ts"
import * as Random from "./Random.ts"
import { type Outage, Receiver } from "./Receiver.ts"
import { makeLog, pass, type StepLog } from "./Steps.ts"
import * as Workload from "./Workload.ts"
import { START, WorldLive } from "./World.ts"

export { START } from "./World.ts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export interface SimConfig {
  readonly seed: number
  readonly days: number
  /** Sandbox merchants (3 by default); one production merchant joins them. */
  readonly merchants?: number
  /** Operations a day, as a multiple of the default 4 to 10 (1 by default): 3 reaches about 1,000 subscriptions in a year. */
  readonly load?: number
  readonly rates?: FaultRates
  /** A PostgreSQL server's URL: the run's database is made there (and dropped after), not in memory. */
  readonly database?: string
  /** Told of each day once its invariants are checked. */
  readonly onDay?: (report: DayReport) => void
}

export interface DayReport {
  readonly day: number
  readonly operations: number
  readonly counts: Counts
  readonly outage: Outage | undefined
  readonly pspOutage: PspOutage | undefined
  /** The engine's process died this many times so far. */
  readonly crashes: number
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
  /** How many times the engine's process died inside a call, and started again. */
  readonly crashes: number
  readonly violations: ReadonlyArray<Violation>
  /** Occurrences of engine issues already known (`Findings.ts`): reported, not failing the run. */
  readonly known: ReadonlyArray<Violation>
  /** Steps that died: engine defects, not workload outcomes. */
  readonly defects: ReadonlyArray<string>
  readonly digest: string
  /** The digest's parts, table by table. */
  readonly digestByTable: Readonly<Record<string, string>>
  readonly faults: Readonly<Record<string, number>>
  /** The engine's warnings and errors of the last day run, for a failure's report. */
  readonly engineLog: ReadonlyArray<LogLine>
  /** The requests the webhook receiver got: answered 200, and failed by its outages. */
  readonly receipts: { readonly accepted: number; readonly failed: number }
}

type Event = { readonly at: number; readonly kind: "operation" | "tick" | "resend" }

/**
 * The worker's passes at fixed hours and the merchants' resend at 22:00; `4 × load` to `10 × load` operations on minutes
 * the seed draws, clear of a pass's lease rounds.
 */
const timeline = (random: Random.Random, load: number): ReadonlyArray<Event> => {
  const minutes = new Set<number>()
  const wanted = Random.int(random, 4 * load, 10 * load)
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

const jobsLine = (run: Effect.Success<ReturnType<typeof Billing.runBillingJobs>>) =>
  `issued=${run.issued} confirmed=${run.paymentsConfirmed} overdue=${run.overdue} expired=${run.expired} retried=${run.retried} ` +
  `refunds=${run.refundsAnswered} cards=${run.cardOutcomes} notas=${run.notasEmitted}/${run.notasAnswered}`

/**
 * The time-driven jobs of every account, as a worker polling all day runs
 * them: a row whose attempt failed (the PSP timing out on a cycle's Pix) or
 * whose claim a dead process left is taken again once its lease ends,
 * round after round while something due is left.
 */
const runJobs = Effect.fn("Simulation.runJobs")(function*(w: Workload.Workload, label: string) {
  // One row a batch and one batch at a time: a job that works its batch's rows concurrently (notes emitted four at once, each
  // signing its DPS asynchronously) would reach the providers and the crash points in an order the seed does not decide.
  const jobs = Billing.runBillingJobs(EVERY_ACCOUNT, { concurrency: 1, batch: 1 })
  yield* pass(w.log, `${label} jobs`, jobs, jobsLine)
  for (let round = 1; round <= LEASE_ROUNDS && (yield* nothingDueLeft.check(false)).length > 0; round++) {
    yield* TestClock.adjust(PAST_LEASE)
    yield* pass(w.log, `${label} jobs, lease round ${round}`, jobs, jobsLine)
  }
})

/** One pass of the worker: the buyers' payments due, the PSPs' poll, every time-driven job of every account, e-mails, webhooks. */
const tick = Effect.fn("Simulation.tick")(function*(w: Workload.Workload, day: number, label: string) {
  yield* payDue(w, day)
  yield* pollPix(w, label)
  yield* runJobs(w, label)
  // One charge a batch: a batch's rows come back from the database in no set order, and their events take ids in that order.
  yield* pass(w.log, `${label} charges`, chargesPass({ batch: 1 }), (r) => `expired=${r.expired} mailed=${r.mailed}`)
  yield* pass(w.log, `${label} delivery`, deliveryPass(), (r) => `fanned=${r.fanned} sent=${r.sent}`)
})

const resendAll = Effect.fn("Simulation.resendAll")(function*(w: Workload.Workload) {
  for (const m of w.merchants) yield* Workload.resendFailed(w, m)
})

const runEvent = (w: Workload.Workload, day: number, event: Event) => {
  const label = `d${day} ${String(Math.floor(event.at / HOUR)).padStart(2, "0")}:${String((event.at % HOUR) / MINUTE).padStart(2, "0")}`
  if (event.kind === "tick") return tick(w, day, `${label} tick`)
  if (event.kind === "resend") return resendAll(w)
  w.log.lines.push(`${label}`)
  return Operations.anyOperation(w, day)
}

/** Day 0: the sandbox merchants, then the production one, open their accounts. */
const openMerchants = Effect.fn("Simulation.openMerchants")(function*(w: Workload.Workload, sandboxes: number) {
  for (let n = 1; n <= sandboxes; n++) yield* Operations.openMerchant(w, n, true)
  yield* Operations.openMerchant(w, sandboxes + 1, false)
})

/** Day `day`: its outages drawn, merchants opened on the first, its timeline run; answers the day's violations. */
const runDay = Effect.fn("Simulation.runDay")(function*(w: Workload.Workload, day: number, merchants: number, load: number) {
  const dayStart = START + day * DAY
  const outage = yield* (yield* Receiver).planDay(dayStart)
  const pspOutage = yield* (yield* Psps).planDay(dayStart)
  if (day === 0) {
    yield* TestClock.setTime(dayStart + 5 * HOUR)
    yield* openMerchants(w, merchants)
  }
  const events = timeline(w.random, load)
  for (const event of events) {
    yield* TestClock.setTime(dayStart + event.at)
    yield* runEvent(w, day, event)
  }
  yield* TestClock.setTime(dayStart + DAY - MINUTE)
  const checked = splitKnown(yield* checkAll(everyInvariant, { final: false }))
  return { outage, pspOutage, operations: events.filter((e) => e.kind === "operation").length, ...checked }
})

/** After the last day: every fault healed (receiver, PSPs, acquirer's reviews, city's waits, crashes), a last pass, every failed webhook resent, the final invariants. */
const settle = Effect.fn("Simulation.settle")(function*(w: Workload.Workload, days: number) {
  yield* (yield* Receiver).heal
  yield* (yield* Psps).heal
  yield* (yield* Faults).heal
  yield* (yield* CardBook).heal
  yield* (yield* CityBook).heal
  yield* TestClock.setTime(START + days * DAY + HOUR)
  yield* tick(w, days, `d${days} settle`)
  yield* resendAll(w)
  return splitKnown(yield* checkAll(everyInvariant, { final: true }))
})

const warningsOf = (engineLog: EngineLog["Service"]) => engineLog.take().filter((line) => line.level !== "Info" && line.level !== "Debug")

/** The simulation of `config`, in a world already built (`run` builds a fresh one). */
export const simulate = Effect.fn("Simulation.simulate")(function*(config: SimConfig) {
  const log: StepLog = makeLog()
  const w = Workload.make(config.seed, log)
  const engineLog = yield* EngineLog
  let violations: ReadonlyArray<Violation> = []
  const known = new Map<string, Violation>()
  let failedDay: number | null = null
  let lastLog: ReadonlyArray<LogLine> = []
  for (let day = 0; day < config.days && failedDay === null; day++) {
    const done = yield* runDay(w, day, config.merchants ?? 3, config.load ?? 1)
    lastLog = warningsOf(engineLog)
    violations = done.violations
    for (const v of done.known) known.set(v.detail, v)
    config.onDay?.({ day, operations: done.operations, counts: yield* counts, outage: done.outage, pspOutage: done.pspOutage, crashes: log.crashes, warnings: lastLog, violations })
    if (violations.length > 0 || log.defects.length > 0) failedDay = day
  }
  if (failedDay === null) {
    const settled = yield* settle(w, config.days)
    violations = settled.violations
    for (const v of settled.known) known.set(v.detail, v)
    lastLog = warningsOf(engineLog)
    if (violations.length > 0 || log.defects.length > 0) failedDay = config.days
  }
  return yield* result(config, log, { failedDay, violations, known: [...known.values()], engineLog: lastLog })
})

const result = Effect.fn("Simulation.result")(function*(config: SimConfig, log: StepLog, end: Pick<SimResult, "failedDay" | "violations" | "known" | "engineLog">) {
  const receipts = (yield* Receiver).receipts()
  const accepted = receipts.filter((r) => r.answer === 200).length
  const { all, byTable } = yield* digest
  return {
    seed: config.seed,
    days: config.days,
    ...end,
    steps: log.lines,
    operations: log.operations,
    crashes: log.crashes,
    defects: log.defects,
    digest: all,
    digestByTable: byTable,
    faults: (yield* Faults).injected(),
    receipts: { accepted, failed: receipts.length - accepted }
  } satisfies SimResult
})

/**
 * Simulated time for `effect`, and the engine's process over the world: a
 * `TestClock` that moves only when the simulation sets it, and under it the
 * process's layers, so that its background fibers sleep on simulated time.
 */
export const withSimulatedTime = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provide(Engine.layer),
    // A day's passes use no timer of the clock's; the default one-second warning would only be noise.
    Effect.provide(TestClock.layer({ warningDelay: "1 hour" }))
  )

/** One run of `config` in a fresh world: its own in-memory database, ids, faults, providers' books and receiver. */
export const run = (config: SimConfig): Promise<SimResult> =>
  Effect.runPromise(withSimulatedTime(simulate(config)).pipe(Effect.provide(WorldLive(config.seed, config.rates, config.database))))

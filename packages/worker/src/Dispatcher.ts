/**
 * The webhook dispatcher: keeps up to `concurrency` deliveries in flight,
 * at most `perRegistration` of them to any one registration, so that a slow
 * or dead receiver only ever holds its own few slots while every other
 * registration's deliveries flow. Each freed slot is filled from the next
 * lease, which takes every registration's oldest due deliveries first
 * (fair: a registration with a backlog of 100,000 waits its turn like one
 * with one). Results are written back in batches by one writer fiber.
 *
 * Any number of workers may run a dispatcher against one database: leases
 * use `SKIP LOCKED`, so a delivery is never sent by two at once; the
 * per-registration limit is per worker.
 */
import { Billing, type DeliveryOutcome } from "@billing/core"
import { Cause, type Duration, Effect, FiberSet, Queue } from "effect"

export interface DispatcherOptions {
  /** Deliveries in flight at once, across registrations. */
  readonly concurrency?: number
  /** Deliveries in flight at once to one registration. */
  readonly perRegistration?: number
  /** Rows leased per query. */
  readonly leaseBatch?: number
  /** Outcomes written back per statement. */
  readonly writeBatch?: number
  /** Pause when nothing is due (a freed slot wakes the dispatcher sooner). */
  readonly pollInterval?: Duration.Input
  /** How often the per-registration counters are logged while deliveries flow. */
  readonly reportInterval?: Duration.Input
}

export const DEFAULT_DISPATCHER = {
  concurrency: 256,
  perRegistration: 16,
  leaseBatch: 200,
  writeBatch: 500,
  pollInterval: "250 millis",
  reportInterval: "30 seconds"
} as const satisfies Required<DispatcherOptions>

/** Per registration, since the worker started: attempts delivered and failed (what is in flight is `busy`). */
interface RegistrationCounters {
  delivered: number
  failed: number
}

/** Writes outcomes back as they come, in batches; a batch that cannot be written is logged (its rows are sent again after their lease). */
const writeOutcomes = (outcomes: Queue.Queue<DeliveryOutcome>, batch: number) =>
  Queue.takeBetween(outcomes, 1, batch).pipe(
    Effect.flatMap((chunk) => Billing.recordOutcomes(chunk)),
    Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logError("webhook outcomes not recorded", cause)),
    Effect.forever
  )

/** Logs the counters of each registration in `moved` (those that moved since the last report), and forgets which moved. */
const report = (counters: ReadonlyMap<string, RegistrationCounters>, busy: ReadonlyMap<string, number>, moved: Set<string>) =>
  Effect.suspend(() => {
    const ids = [...moved]
    moved.clear()
    return Effect.forEach(ids, (webhookId) => {
      const c = counters.get(webhookId)!
      return Effect.logInfo("webhook deliveries").pipe(Effect.annotateLogs({ webhookId, delivered: c.delivered, failed: c.failed, inFlight: busy.get(webhookId) ?? 0 }))
    }, { discard: true })
  })

/** Runs the dispatcher for as long as the fiber lives; interrupt it to stop (deliveries in flight are sent again after their lease). */
export const runDispatcher = Effect.fn("Worker.dispatcher")(function*(options: DispatcherOptions = {}) {
  const settings = { ...DEFAULT_DISPATCHER, ...options }
  const counters = new Map<string, RegistrationCounters>()
  const moved = new Set<string>()
  const busy = new Map<string, number>()
  let inFlight = 0
  const freed = yield* Queue.unbounded<void>()
  const outcomes = yield* Queue.unbounded<DeliveryOutcome>()
  const sending = yield* FiberSet.make()
  yield* Effect.forkScoped(writeOutcomes(outcomes, settings.writeBatch))
  yield* Effect.forkScoped(Effect.forever(Effect.sleep(settings.reportInterval).pipe(Effect.andThen(report(counters, busy, moved)))))

  const countersOf = (webhookId: string) => {
    const known = counters.get(webhookId)
    if (known !== undefined) return known
    const fresh = { delivered: 0, failed: 0 }
    counters.set(webhookId, fresh)
    return fresh
  }
  const settle = (webhookId: string, outcome: DeliveryOutcome | undefined) =>
    Effect.suspend(() => {
      const c = countersOf(webhookId)
      moved.add(webhookId)
      if (outcome !== undefined) c[outcome.status]++
      inFlight--
      const left = (busy.get(webhookId) ?? 1) - 1
      if (left === 0) busy.delete(webhookId)
      else busy.set(webhookId, left)
      return Queue.offer(freed, undefined)
    })

  /** Leases what the free slots can take and starts each; how many it started and how many it asked for. */
  const fill = Effect.gen(function*() {
    const wanted = Math.min(settings.concurrency - inFlight, settings.leaseBatch)
    if (wanted <= 0) return { started: 0, wanted }
    const { deliveries, registrations } = yield* Billing.leaseDeliveries({ limit: wanted, perRegistration: settings.perRegistration, busy })
    for (const delivery of deliveries) {
      inFlight++
      busy.set(delivery.webhookId, (busy.get(delivery.webhookId) ?? 0) + 1)
      let outcome: DeliveryOutcome | undefined
      yield* FiberSet.run(sending, Billing.attemptDelivery(delivery, registrations.get(delivery.webhookId)).pipe(
        Effect.tap((o) => {
          outcome = o
          return Queue.offer(outcomes, o)
        }),
        Effect.ensuring(Effect.suspend(() => settle(delivery.webhookId, outcome)))
      ))
    }
    return { started: deliveries.length, wanted }
  }).pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.interrupt
        : Effect.logError("webhook lease failed", cause).pipe(Effect.as({ started: 0, wanted: 1 })))
  )

  for (;;) {
    const { started, wanted } = yield* fill
    // A full lease may leave more due: lease again at once. Otherwise wait for a slot to free, or for new work.
    if (wanted > 0 && started === wanted) continue
    yield* Effect.raceFirst(Queue.take(freed), Effect.sleep(settings.pollInterval))
    yield* Queue.clear(freed)
  }
})

/**
 * The webhook dispatcher: keeps up to `concurrency` deliveries in flight,
 * at most `perRegistration` of them to any one registration, so that a slow
 * or dead receiver only ever holds its own few slots while every other
 * registration's deliveries flow. Leases take every registration's oldest
 * due deliveries first (fair: a registration with a backlog of 100,000 waits
 * its turn like one with one). Results are written back in batches by one
 * writer fiber.
 *
 * Leasing runs beside sending rather than between sends: a registration
 * whose receiver answers quickly has up to `prefetch` more deliveries leased
 * ahead, each started the moment one of its slots frees, so a slot never
 * waits for a lease's round trip to the database (one lease took as long as
 * a hundred POSTs to a local receiver). A leased delivery that could not
 * start while its lease still covers the 5 s answer limit is handed back
 * unsent. A receiver that answers slowly gets no more leased than it has
 * slots.
 *
 * Any number of workers may run a dispatcher against one database: leases
 * use `SKIP LOCKED`, so a delivery is never sent by two at once; the
 * per-registration limit is per worker.
 */
import {
  Billing,
  type DeliveryOutcome,
  type WebhookDelivery,
  type WebhookDeliveryId,
  type WebhookRegistration,
  type WebhookTransport
} from "@billing/core"
import { Cause, Clock, type Duration, Effect, FiberSet, Queue } from "effect"

export interface DispatcherOptions {
  /** Deliveries in flight at once, across registrations. */
  readonly concurrency?: number
  /** Deliveries in flight at once to one registration. */
  readonly perRegistration?: number
  /** Deliveries leased ahead, beyond its slots, for a registration that answers quickly. */
  readonly prefetch?: number
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
  prefetch: 16,
  leaseBatch: 200,
  writeBatch: 500,
  pollInterval: "250 millis",
  reportInterval: "30 seconds"
} as const satisfies Required<DispatcherOptions>

/**
 * A registration whose answers take less than this on average gets
 * deliveries leased ahead: one waiting behind its slots then starts within
 * about one answer time, well inside its lease.
 */
const PREFETCH_BELOW_MILLIS = 500

/** A delivery leased and not started yet. */
interface Leased {
  readonly delivery: WebhookDelivery
  readonly registration: WebhookRegistration | undefined
  readonly leaseUntil: number
}

/** One registration as this dispatcher sees it, since the worker started. */
interface Lane {
  readonly webhookId: string
  inFlight: number
  /** Leased, waiting for a slot, oldest first. */
  readonly ready: Array<Leased>
  delivered: number
  failed: number
  /** Moving average of its answer times; unknown until its first. */
  answerMillis: number | undefined
}

/**
 * Takes what `queue` holds, up to `batch` at a time, and writes it; a batch
 * that cannot be written is logged (its rows come back after their lease).
 * A batch taken is written even when the dispatcher stops meanwhile.
 */
const writeInBatches = <A, R>(queue: Queue.Queue<A>, batch: number, write: (items: ReadonlyArray<A>) => Effect.Effect<void, never, R>, what: string) =>
  Queue.takeBetween(queue, 1, batch).pipe(
    Effect.flatMap((items) => Effect.uninterruptible(write(items))),
    Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logError(`webhook ${what} not recorded`, cause)),
    Effect.forever
  )

/** Logs the counters of each registration in `moved` (those that moved since the last report), and forgets which moved. */
const report = (lanes: ReadonlyMap<string, Lane>, moved: Set<string>) =>
  Effect.suspend(() => {
    const ids = [...moved]
    moved.clear()
    return Effect.forEach(ids, (webhookId) => {
      const lane = lanes.get(webhookId)!
      return Effect.logInfo("webhook deliveries").pipe(
        Effect.annotateLogs({ webhookId, delivered: lane.delivered, failed: lane.failed, inFlight: lane.inFlight })
      )
    }, { discard: true })
  })

/** What one running dispatcher holds: its lanes, its count in flight, and the queues its writer fibers drain. */
interface Dispatch {
  readonly settings: Required<DispatcherOptions>
  readonly lanes: Map<string, Lane>
  /** Lanes with deliveries ready, in the order they are next served. */
  readonly waiting: Set<Lane>
  /** Registrations that moved since the last report. */
  readonly moved: Set<string>
  inFlight: number
  /** Offered each time a slot frees, to wake the loop. */
  readonly freed: Queue.Queue<void>
  readonly outcomes: Queue.Queue<DeliveryOutcome>
  /** Leased deliveries that could not start in time, to hand back. */
  readonly late: Queue.Queue<{ readonly id: WebhookDeliveryId; readonly leaseUntil: number }>
  readonly sending: FiberSet.FiberSet
}

const laneOf = (d: Dispatch, webhookId: string) => {
  const known = d.lanes.get(webhookId)
  if (known !== undefined) return known
  const fresh: Lane = { webhookId, inFlight: 0, ready: [], delivered: 0, failed: 0, answerMillis: undefined }
  d.lanes.set(webhookId, fresh)
  return fresh
}

/** How many more of a lane's deliveries this dispatcher may hold: its slots, and its prefetch while it answers quickly. */
const roomOf = (d: Dispatch, lane: Lane) => {
  const quick = lane.answerMillis !== undefined && lane.answerMillis < PREFETCH_BELOW_MILLIS
  return Math.max(0, d.settings.perRegistration + (quick ? d.settings.prefetch : 0) - lane.inFlight - lane.ready.length)
}

/** A delivery of `lane` ended (`outcome` undefined when it could not be recorded): its slot frees and the lanes are served again. */
const settle = (d: Dispatch, lane: Lane, outcome: DeliveryOutcome | undefined, tookMillis: number) =>
  Effect.suspend(() => {
    d.moved.add(lane.webhookId)
    if (outcome !== undefined) lane[outcome.status]++
    lane.answerMillis = lane.answerMillis === undefined ? tookMillis : 0.8 * lane.answerMillis + 0.2 * tookMillis
    lane.inFlight--
    d.inFlight--
    return Effect.andThen(pump(d), Queue.offer(d.freed, undefined))
  })

const send = (d: Dispatch, lane: Lane, leased: Leased, now: number) => {
  lane.inFlight++
  d.inFlight++
  let outcome: DeliveryOutcome | undefined
  return FiberSet.run(d.sending, Billing.attemptDelivery(leased.delivery, leased.registration, leased.leaseUntil).pipe(
    Effect.tap((o) => {
      outcome = o
      return Queue.offer(d.outcomes, o)
    }),
    Effect.ensuring(Effect.flatMap(Clock.currentTimeMillis, (end) => settle(d, lane, outcome, end - now)))
  ))
}

/** Hands back the head of `lane` that can no longer start under its lease; how many. */
const handBackStale = Effect.fnUntraced(function*(d: Dispatch, lane: Lane, now: number) {
  let handedBack = 0
  while (lane.ready.length > 0 && !Billing.sendableUnderLease(lane.ready[0]!.leaseUntil, now)) {
    const leased = lane.ready.shift()!
    handedBack++
    yield* Queue.offer(d.late, { id: leased.delivery.id, leaseUntil: leased.leaseUntil })
  }
  if (handedBack > 0) {
    yield* Effect.logInfo("webhook deliveries handed back unsent").pipe(Effect.annotateLogs({ webhookId: lane.webhookId, deliveries: handedBack }))
  }
})

/**
 * Hands back what waited too long for its lane's slots, then starts what
 * free slots allow from the lanes waiting, in turn. A lane holds its
 * deliveries in lease order, so those that can no longer start are at its
 * head, and once one can start, all after it can.
 */
const pump = (d: Dispatch): Effect.Effect<void, never, WebhookTransport> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    for (const lane of [...d.waiting]) {
      d.waiting.delete(lane)
      yield* handBackStale(d, lane, now)
      while (lane.ready.length > 0 && lane.inFlight < d.settings.perRegistration && d.inFlight < d.settings.concurrency) {
        yield* send(d, lane, lane.ready.shift()!, now)
      }
      // Served: to the back of the turn.
      if (lane.ready.length > 0) d.waiting.add(lane)
    }
  })

/** Leases what the lanes have room for and starts what it can; how many it leased and how many it asked for. */
const fill = (d: Dispatch) =>
  Effect.gen(function*() {
    const holding = [...d.lanes.values()].filter((lane) => lane.inFlight + lane.ready.length > 0)
    // What it holds, in flight and leased ahead, stays under twice what it may have in flight.
    const held = holding.reduce((n, lane) => n + lane.inFlight + lane.ready.length, 0)
    const asked = Math.min(d.settings.leaseBatch, 2 * d.settings.concurrency - held)
    if (asked <= 0) return { leased: 0, asked }
    // Lanes holding nothing take their slots as any other does: the lease names at most what this dispatcher holds.
    const room = { others: d.settings.perRegistration, of: new Map(holding.map((lane) => [lane.webhookId, roomOf(d, lane)])) }
    // Not interrupted between the lease and its lanes: a lease the database committed is always in a lane, so a stop hands it back.
    const leased = yield* Effect.uninterruptible(Billing.leaseDeliveries({ limit: asked, room }).pipe(
      Effect.map(({ deliveries, registrations, leaseUntil }) => {
        for (const delivery of deliveries) {
          const lane = laneOf(d, delivery.webhookId)
          lane.ready.push({ delivery, registration: registrations.get(delivery.webhookId), leaseUntil })
          d.waiting.add(lane)
        }
        return deliveries.length
      })
    ))
    yield* pump(d)
    return { leased, asked }
  }).pipe(
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.interrupt
        : Effect.logError("webhook lease failed", cause).pipe(Effect.as({ leased: 0, asked: 1 })))
  )

/**
 * On stop, once the loop has stopped and before the writers are: what waits
 * in lanes goes back at once rather than after its lease, and outcomes not
 * yet written are written.
 */
const handBackOnStop = (d: Dispatch) =>
  Effect.gen(function*() {
    const waited = [...d.lanes.values()].flatMap((lane) => lane.ready.splice(0).map((l) => ({ id: l.delivery.id, leaseUntil: l.leaseUntil })))
    yield* Billing.releaseDeliveries([...waited, ...(yield* Queue.clear(d.late))])
    yield* Billing.recordOutcomes(yield* Queue.clear(d.outcomes))
  }).pipe(Effect.catchCause((cause) => Effect.logError("webhook deliveries not handed back on stop", cause)))

/** The dispatcher's loop, its fibers and its lanes, in the scope of its run. */
const dispatch = Effect.fn("Worker.dispatcher")(function*(options: DispatcherOptions) {
  const d: Dispatch = {
    settings: { ...DEFAULT_DISPATCHER, ...options },
    lanes: new Map(),
    waiting: new Set(),
    moved: new Set(),
    inFlight: 0,
    freed: yield* Queue.unbounded<void>(),
    outcomes: yield* Queue.unbounded<DeliveryOutcome>(),
    late: yield* Queue.unbounded<{ readonly id: WebhookDeliveryId; readonly leaseUntil: number }>(),
    sending: yield* FiberSet.make()
  }
  yield* Effect.forkScoped(writeInBatches(d.outcomes, d.settings.writeBatch, Billing.recordOutcomes, "outcomes"))
  yield* Effect.forkScoped(writeInBatches(d.late, d.settings.writeBatch, Billing.releaseDeliveries, "releases"))
  yield* Effect.forkScoped(Effect.forever(Effect.sleep(d.settings.reportInterval).pipe(Effect.andThen(report(d.lanes, d.moved)))))
  yield* Effect.addFinalizer(() => handBackOnStop(d))
  for (;;) {
    const { leased, asked } = yield* fill(d)
    // A full lease may leave more due: lease again at once. Otherwise wait for a slot to free, or for new work.
    if (asked > 0 && leased === asked) continue
    yield* Effect.raceFirst(Queue.take(d.freed), Effect.sleep(d.settings.pollInterval))
    yield* Queue.clear(d.freed)
  }
})

/**
 * Runs the dispatcher for as long as the fiber lives; interrupt it to stop:
 * what waits in its lanes is handed back and outcomes are written at once,
 * deliveries in flight are sent again after their lease. Untraced, as the
 * jobs are (`forkJobs`): it polls, and its deliveries are measured
 * (`billing_webhook_deliveries_total`).
 */
export const runDispatcher = (options: DispatcherOptions = {}) => Effect.scoped(dispatch(options)).pipe(Effect.withTracerEnabled(false))

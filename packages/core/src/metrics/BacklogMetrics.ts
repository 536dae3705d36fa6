/**
 * The backlog gauges of `/metrics`, read from the database when scraped:
 * every queue's waiting work (counted up to `BACKLOG_CAP`) and how long its
 * oldest item has waited. Queues: the billing run's jobs over cycles
 * (`cycles.issue`, `cycles.retry`, …), charges past their deadline and
 * sandbox payments requested, the webhook pipeline's events not fanned out
 * and deliveries due, the notes due by their timing and the notes the city
 * has not answered (unknown outcomes). What an operator alerts on:
 * a backlog that grows, an oldest age past the job's poll interval.
 */
import { Clock, Effect, Metric } from "effect"
import { saoPauloInstant } from "../brazil/BankCalendar.ts"
import type { Backlog } from "../domain/Backlog.ts"
import { Charges } from "../ports/Charges.ts"
import { Notas } from "../ports/Notas.ts"
import { SandboxPayments } from "../ports/SandboxPayments.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { WebhookDeliveries } from "../ports/WebhookDeliveries.ts"
import { BillingJobClaims, type BillingJobName } from "../rules/BillingJobs.ts"
import { claimClock } from "../subscriptions/BillingRunSettings.ts"

/** Past this many, a queue's count reads this many: each count walks an index no further. */
export const BACKLOG_CAP = 10_000

const waiting = Metric.gauge("billing_backlog", { description: `Work waiting, by queue (counted up to ${BACKLOG_CAP})` })

const oldest = Metric.gauge("billing_backlog_oldest_seconds", { description: "How long the oldest waiting item of a queue has waited (0 when none waits)" })

const inFlight = Metric.gauge("billing_webhook_deliveries_in_flight", { description: "Webhook deliveries leased to a worker now" })

/** Sets the two gauges of one queue at `now`. */
const record = (queue: string, backlog: Backlog, now: number) => {
  const since = backlog.oldest === null ? null : saoPauloInstant(backlog.oldest)
  const age = since === null ? 0 : Math.max(0, (now - since.getTime()) / 1000)
  return Effect.all([
    Metric.update(Metric.withAttributes(waiting, { queue }), backlog.due),
    Metric.update(Metric.withAttributes(oldest, { queue }), age)
  ], { discard: true })
}

const CYCLE_JOBS = Object.keys(BillingJobClaims) as ReadonlyArray<BillingJobName>

/** Reads every queue's backlog and sets the gauges (a scrape's first step). */
export const recordBacklog = Effect.fn("Metrics.recordBacklog")(function*() {
  const now = yield* Clock.currentTimeMillis
  const clock = yield* claimClock
  const subscriptions = yield* Subscriptions
  yield* Effect.forEach(CYCLE_JOBS, (job) => Effect.flatMap(subscriptions.backlog(job, clock, BACKLOG_CAP), (b) => record(`cycles.${job}`, b, now)), {
    discard: true
  })
  const pipeline = yield* (yield* WebhookDeliveries).backlog(new Date(now), BACKLOG_CAP)
  yield* record("webhook.events", pipeline.events, now)
  yield* record("webhook.deliveries", pipeline.deliveries, now)
  yield* Metric.update(inFlight, pipeline.inFlight)
  yield* record("charges.expiry", yield* (yield* Charges).expiryBacklog(new Date(now), BACKLOG_CAP), now)
  yield* record("charges.sandboxPayments", yield* (yield* SandboxPayments).backlog(BACKLOG_CAP), now)
  const notas = yield* (yield* Notas).backlog(new Date(now), BACKLOG_CAP)
  yield* record("notas.due", notas.due, now)
  yield* record("notas.unanswered", notas.unanswered, now)
})

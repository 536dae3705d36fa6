/**
 * Webhook delivery from the outbox, run by the worker. Each step is safe
 * with any number of workers on one database:
 *
 * 1. `fanOut` turns committed outbox events into one delivery row per
 *    subscribed registration in one statement that claims the events with
 *    `SKIP LOCKED`, so an event is fanned out exactly once.
 * 2. `leaseDeliveries` leases due deliveries fairly across registrations
 *    (`SKIP LOCKED` plus a lease time), `attemptDelivery` POSTs one, and
 *    `recordOutcomes` writes results back in batches. The worker's
 *    dispatcher keeps a bounded number of attempts in flight, a few per
 *    registration, so a slow receiver only ever holds its own slots. A
 *    worker that dies mid-POST leaves its lease to run out; another then
 *    sends the row again (at least once, as the spec warns receivers).
 *
 * A failed POST is recorded as `failed` and is not retried automatically
 * (spec: Events, Delivery rules 3); `retryDelivery` is the manual resend.
 */
import { Clock, Effect, Metric, Option } from "effect"
import { NamedOnlyEventNames } from "../domain/Events.ts"
import type { WebhookDelivery, WebhookRegistration } from "../domain/Webhook.ts"
import { type DeliveryOutcome, type DeliveryRoom, type FannedOutEvents, WebhookDeliveries } from "../ports/WebhookDeliveries.ts"
import { Webhooks } from "../ports/Webhooks.ts"
import { WebhookTransport } from "../ports/WebhookTransport.ts"
import { signWebhookEffect } from "./Signature.ts"
import type { WebhookDeliveryId } from "../domain/Ids.ts"

/** The receiver must answer within 5 seconds (spec: Delivery rules 1). */
export const DELIVERY_TIMEOUT_MILLIS = 5_000
/**
 * How long a lease holds a delivery: the 5 s answer limit, and as long again
 * for its result to be written; a worker killed mid-delivery hands it on
 * that soon.
 */
export const DELIVERY_LEASE_MILLIS = 10_000

/** Fans out up to `limit` outbox events; returns how many events it took. */
export const fanOut = Effect.fn("Delivery.fanOut")(function*(limit: number) {
  const at = new Date(yield* Clock.currentTimeMillis)
  const fanned = yield* (yield* WebhookDeliveries).fanOut(limit, { namedOnly: NamedOnlyEventNames, at })
  yield* countEvents(fanned)
  return fanned.reduce((sum, group) => sum + group.count, 0)
})

const eventsCommitted = Metric.counter("billing_events_total", {
  description: "Events committed (charges created, payments, refunds, subscriptions…), by event and payment method, each counted once when fanned out",
  incremental: true
})

const eventAmounts = Metric.counter("billing_event_amount_centavos_total", {
  description: "The amounts events carry (a payment's, a refund's), in centavos, by event and payment method",
  incremental: true
})

/**
 * The money counters: each committed event once, when the worker fans it out
 * (an event of a transaction that rolled back never is), so a payment or a
 * refund counts once however many workers and receivers there are.
 */
const countEvents = (fanned: ReadonlyArray<FannedOutEvents>) =>
  Effect.forEach(fanned, ({ amount, count, event, method }) => {
    const attributes = { event, method: method ?? "none" }
    return Effect.all([
      Metric.update(Metric.withAttributes(eventsCommitted, attributes), count),
      amount === 0 ? Effect.void : Metric.update(Metric.withAttributes(eventAmounts, attributes), amount)
    ], { discard: true })
  }, { discard: true })

/** The headers of one POST: signature over the exact body, plus the static token when configured. */
// Untraced: it runs for every delivery, thousands a second.
export const deliveryHeaders = Effect.fnUntraced(function*(
  registration: Pick<WebhookRegistration, "secret" | "authToken">,
  body: string,
  extra: Readonly<Record<string, string>> = {}
) {
  const now = yield* Clock.currentTimeMillis
  const signature = yield* signWebhookEffect(registration.secret, body, now)
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "billing-engine-webhooks/1",
    "x-webhook-signature": signature,
    ...extra
  }
  if (registration.authToken) headers["x-access-token"] = registration.authToken
  return headers
})

/**
 * Leases up to `limit` due deliveries, at most `room` of each registration
 * (see `WebhookDeliveries.lease`), with the registrations they go to and
 * until when the lease holds them.
 */
export const leaseDeliveries = Effect.fn("Delivery.lease")(function*(options: {
  readonly limit: number
  readonly room: DeliveryRoom
}) {
  const now = yield* Clock.currentTimeMillis
  const leaseUntil = now + DELIVERY_LEASE_MILLIS
  const deliveries = yield* (yield* WebhookDeliveries).lease({ ...options, now: new Date(now), leaseUntil: new Date(leaseUntil) })
  const found = yield* (yield* Webhooks).findMany([...new Set(deliveries.map((d) => d.webhookId))])
  return { deliveries, registrations: new Map(found.map((r) => [r.id, r])), leaseUntil }
})

/** What a lease keeps after the POST: for the outcome to be written, and for clocks that disagree a little. */
const RESULT_MARGIN_MILLIS = 3_000

/**
 * Whether a delivery leased until `leaseUntil` may still be sent at `now`:
 * only if its POST ends (answered or aborted at the 5 s limit) and its
 * outcome is written while the lease still holds, so that no other worker
 * can have leased it again and be sending it at the same time. Of a 10 s
 * lease, a delivery leased ahead may wait 2 s for a slot.
 */
export const sendableUnderLease = (leaseUntil: number, now: number): boolean =>
  now + DELIVERY_TIMEOUT_MILLIS + RESULT_MARGIN_MILLIS <= leaseUntil

/** Hands back leased deliveries that will not be sent in time (see `sendableUnderLease`): due again at once. */
export const releaseDeliveries = Effect.fn("Delivery.release")(function*(leases: ReadonlyArray<{ readonly id: WebhookDeliveryId; readonly leaseUntil: number }>) {
  yield* (yield* WebhookDeliveries).release(leases.map((l) => ({ id: l.id, leaseUntil: new Date(l.leaseUntil) })))
})

/**
 * POSTs one delivery to its registration (signed over the exact bytes sent)
 * and answers the outcome; never fails. A registration removed or inactive
 * fails the delivery without a POST. `lease` is the lease it is sent under
 * (epoch milliseconds), null for a manual retry.
 */
export const attemptDelivery = Effect.fnUntraced(function*(
  delivery: WebhookDelivery,
  registration: WebhookRegistration | undefined,
  lease: number | null
) {
  const outcome = (fields: Pick<DeliveryOutcome, "status" | "responseStatusCode" | "error">) =>
    Effect.map(Clock.currentTimeMillis, (now): DeliveryOutcome => ({
      id: delivery.id,
      webhookId: delivery.webhookId,
      event: delivery.event,
      ...fields,
      at: new Date(now),
      lease: lease === null ? null : new Date(lease)
    }))
  if (registration === undefined || registration.status !== "active") {
    return yield* outcome({ status: "failed", responseStatusCode: null, error: "webhook registration removed or inactive" })
  }
  const headers = yield* deliveryHeaders(registration, delivery.body, {
    "x-webhook-event-id": delivery.id,
    "x-webhook-event": delivery.event
  })
  const response = yield* (yield* WebhookTransport).post({ url: registration.url, headers, body: delivery.body, timeoutMillis: DELIVERY_TIMEOUT_MILLIS })
  if (response._tag === "NoAnswer") return yield* outcome({ status: "failed", responseStatusCode: null, error: response.reason })
  return yield* response.status >= 200 && response.status < 300
    ? outcome({ status: "delivered", responseStatusCode: response.status, error: null })
    : outcome({ status: "failed", responseStatusCode: response.status, error: `receiver answered HTTP ${response.status}` })
})

const deliveriesAttempted = Metric.counter("billing_webhook_deliveries_total", {
  description: "Webhook deliveries attempted, by outcome (delivered, failed) and event",
  incremental: true
})

/** Counts `outcomes` by outcome and event: one update per pair, not per delivery (thousands a second). */
const countOutcomes = (outcomes: ReadonlyArray<DeliveryOutcome>) => {
  const counts = new Map<string, { readonly outcome: string; readonly event: string; n: number }>()
  for (const { status, event } of outcomes) {
    const key = `${status} ${event}`
    const found = counts.get(key)
    if (found === undefined) counts.set(key, { outcome: status, event, n: 1 })
    else found.n++
  }
  return Effect.forEach(counts.values(), ({ outcome, event, n }) => Metric.update(Metric.withAttributes(deliveriesAttempted, { outcome, event }), n), { discard: true })
}

/**
 * Writes attempts' outcomes back in one statement, and counts them for the
 * metrics. A failed delivery is not retried by itself (spec), so the operator
 * must see it: one warning each, naming the delivery and why; never the URL
 * (it may hold a token) nor the body.
 */
export const recordOutcomes = Effect.fn("Delivery.recordOutcomes")(function*(outcomes: ReadonlyArray<DeliveryOutcome>) {
  yield* (yield* WebhookDeliveries).completeMany(outcomes)
  yield* countOutcomes(outcomes)
  yield* Effect.forEach(outcomes.filter((o) => o.status === "failed"), (o) =>
    Effect.logWarning("webhook delivery failed").pipe(
      Effect.annotateLogs({ deliveryId: o.id, webhookId: o.webhookId, event: o.event, reason: o.error })
    ), { discard: true })
})

/** One round, as a caller drives it (tests, scripts): leases up to `limit` due deliveries, sends them `concurrency` at a time, records them; how many it sent. */
export const deliverDue = Effect.fn("Delivery.deliverDue")(function*(limit: number, concurrency = 8) {
  const { deliveries, registrations, leaseUntil } = yield* leaseDeliveries({ limit, room: { others: limit, of: new Map() } })
  const outcomes = yield* Effect.forEach(deliveries, (d) => attemptDelivery(d, registrations.get(d.webhookId), leaseUntil), { concurrency })
  yield* recordOutcomes(outcomes)
  return deliveries.length
})

/** Sends one delivery again, outside any lease (the manual retry), and records it. */
export const resendDelivery = Effect.fn("Delivery.resend")(function*(delivery: WebhookDelivery) {
  const registration = yield* (yield* Webhooks).find(delivery.accountId, delivery.webhookId)
  const outcome = yield* attemptDelivery(delivery, Option.getOrUndefined(registration), null)
  yield* recordOutcomes([outcome])
  return outcome
})

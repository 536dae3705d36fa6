/**
 * Webhook delivery from the outbox, run by the worker. Two steps, each safe
 * with any number of workers on one database:
 *
 * 1. `fanOut` turns committed outbox events into one delivery row per
 *    subscribed registration, in one transaction that claims the events with
 *    `SKIP LOCKED`, so an event is fanned out exactly once.
 * 2. `deliverDue` leases pending deliveries (again `SKIP LOCKED`, plus a lease
 *    time) and POSTs them. A worker that dies mid-POST leaves its lease to run
 *    out; another worker then sends the row again (at least once, as the spec
 *    warns receivers).
 *
 * A failed POST is recorded as `failed` and is not retried automatically
 * (spec: Events, Delivery rules 3); `retryDelivery` is the manual resend.
 */
import { Clock, Effect, Option } from "effect"
import type { WebhookDelivery, WebhookRegistration } from "../domain/Webhook.ts"
import { Ids } from "../ports/Ids.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Transactor } from "../ports/Transactor.ts"
import { WebhookDeliveries } from "../ports/WebhookDeliveries.ts"
import { Webhooks } from "../ports/Webhooks.ts"
import { WebhookTransport } from "../ports/WebhookTransport.ts"
import { signWebhook } from "./Signature.ts"

/** The receiver must answer within 5 seconds (spec: Delivery rules 1). */
export const DELIVERY_TIMEOUT_MILLIS = 5_000
/** A lease comfortably longer than one POST, after which a dead worker's row is taken again. */
export const DELIVERY_LEASE_MILLIS = 30_000

/** Fans out up to `limit` outbox events; returns how many events it took. */
export const fanOut = Effect.fn("Delivery.fanOut")(function*(limit: number) {
  const outbox = yield* Outbox
  const webhooks = yield* Webhooks
  const deliveries = yield* WebhookDeliveries
  const ids = yield* Ids
  const transactor = yield* Transactor
  return yield* transactor.withTransaction(Effect.gen(function*() {
    const events = yield* outbox.claimUnprocessed(limit)
    if (events.length === 0) return 0
    const rows: Array<WebhookDelivery> = []
    for (const event of events) {
      const subscribers = yield* webhooks.subscribersOf(event.accountId, event.event)
      for (const registration of subscribers) {
        rows.push({
          id: yield* ids.make("whe"),
          accountId: event.accountId,
          webhookId: registration.id,
          event: event.event,
          body: event.body,
          status: "pending",
          attempt: 0,
          responseStatusCode: null,
          error: null,
          createdAt: event.createdAt,
          deliveredAt: null
        })
      }
    }
    yield* deliveries.insertMany(rows)
    yield* outbox.markProcessed(events.map((e) => e.id))
    return events.length
  }))
})

/** The headers of one POST: signature over the exact body, plus the static token when configured. */
export const deliveryHeaders = Effect.fn("Delivery.headers")(function*(
  registration: Pick<WebhookRegistration, "secret" | "authToken">,
  body: string,
  extra: Readonly<Record<string, string>> = {}
) {
  const now = yield* Clock.currentTimeMillis
  const signature = yield* Effect.promise(() => signWebhook(registration.secret, body, now))
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
 * A failed delivery is not retried by itself (spec), so the operator must see
 * it: one warning naming the delivery, its registration, the event and why.
 * Never the URL (it may hold a token) nor the body.
 */
const logFailure = (delivery: WebhookDelivery, reason: string) =>
  Effect.logWarning("webhook delivery failed").pipe(
    Effect.annotateLogs({ deliveryId: delivery.id, webhookId: delivery.webhookId, event: delivery.event, reason })
  )

/** POSTs one delivery and records the outcome; a failure is logged. */
export const sendDelivery = Effect.fn("Delivery.send")(function*(delivery: WebhookDelivery, countAttempt: boolean) {
  const webhooks = yield* Webhooks
  const deliveries = yield* WebhookDeliveries
  const transport = yield* WebhookTransport
  const registration = yield* webhooks.find(delivery.accountId, delivery.webhookId)
  if (Option.isNone(registration) || registration.value.status !== "active") {
    const at = new Date(yield* Clock.currentTimeMillis)
    const outcome = { status: "failed", responseStatusCode: null, error: "webhook registration removed or inactive", at, countAttempt } as const
    yield* deliveries.complete(delivery.id, outcome)
    yield* logFailure(delivery, outcome.error)
    return outcome
  }
  const headers = yield* deliveryHeaders(registration.value, delivery.body, {
    "x-webhook-event-id": delivery.id,
    "x-webhook-event": delivery.event
  })
  const response = yield* transport.post({
    url: registration.value.url,
    headers,
    body: delivery.body,
    timeoutMillis: DELIVERY_TIMEOUT_MILLIS
  })
  const at = new Date(yield* Clock.currentTimeMillis)
  const outcome = response._tag === "Answered"
    ? response.status >= 200 && response.status < 300
      ? { status: "delivered" as const, responseStatusCode: response.status, error: null, at, countAttempt }
      : { status: "failed" as const, responseStatusCode: response.status, error: `receiver answered HTTP ${response.status}`, at, countAttempt }
    : { status: "failed" as const, responseStatusCode: null, error: response.reason, at, countAttempt }
  yield* deliveries.complete(delivery.id, outcome)
  if (outcome.status === "failed") yield* logFailure(delivery, outcome.error)
  return outcome
})

/** Leases and sends up to `limit` due deliveries; returns how many it sent. */
export const deliverDue = Effect.fn("Delivery.deliverDue")(function*(limit: number, concurrency = 8) {
  const deliveries = yield* WebhookDeliveries
  const now = yield* Clock.currentTimeMillis
  const leased = yield* deliveries.lease(limit, new Date(now), new Date(now + DELIVERY_LEASE_MILLIS))
  yield* Effect.forEach(leased, (d) => sendDelivery(d, false), { concurrency, discard: true })
  return leased.length
})

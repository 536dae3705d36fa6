/**
 * Webhook management for the calling account: register, list, read, update,
 * remove, test deliveries and the manual retry of a failed delivery.
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { InvalidData, invalidData as invalid } from "../domain/Errors.ts"
import { pageLimit } from "../domain/Pagination.ts"
import { type EventName, EventNames } from "../domain/Events.ts"
import { toDeliveryView, toWebhookView, type WebhookRegistration, type WebhookStatus } from "../domain/Webhook.ts"
import { Ids } from "../ports/Ids.ts"
import { Transactor } from "../ports/Transactor.ts"
import { WebhookDeliveries } from "../ports/WebhookDeliveries.ts"
import { Webhooks } from "../ports/Webhooks.ts"
import { WebhookTransport } from "../ports/WebhookTransport.ts"
import { DELIVERY_TIMEOUT_MILLIS, deliveryHeaders, resendDelivery } from "./Delivery.ts"
import { samplePayload } from "./TestPayloads.ts"
import { WebhookEventNotFound, WebhookNotFound } from "./WebhookErrors.ts"
import { type AccountId, type WebhookDeliveryId, type WebhookId, WebhookIds } from "../domain/Ids.ts"

const knownEvents: ReadonlySet<string> = new Set(EventNames)


/**
 * A webhook URL must be absolute http(s). Production accounts must use
 * HTTPS (spec: General rule 1); sandbox accounts and loopback receivers may
 * use plain HTTP so that local development works.
 */
export const checkWebhookUrl = (url: string, sandbox: boolean, field = "url") => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return Effect.fail(invalid(field, `${field} must be an absolute http(s) URL`))
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return Effect.fail(invalid(field, `${field} must be an absolute http(s) URL`))
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname)
  if (parsed.protocol === "http:" && !sandbox && !loopback) {
    return Effect.fail(invalid(field, `${field} must use HTTPS`))
  }
  return Effect.succeed(parsed.toString())
}

const checkEvents = (events: ReadonlyArray<string> | undefined) => {
  const unknown = (events ?? []).filter((e) => !knownEvents.has(e))
  return unknown.length > 0
    ? Effect.fail(new InvalidData({ message: `unknown event(s): ${unknown.join(", ")}`, details: { field: "events", unknown } }))
    : Effect.succeed([...new Set(events ?? [])] as Array<EventName>)
}

/** A new active registration (`uwh_`) of `accountId`; its secret generated when none is given. */
export const newRegistration = Effect.fnUntraced(function*(fields: {
  readonly accountId: AccountId
  readonly sandbox: boolean
  readonly url: string
  readonly events: ReadonlyArray<EventName>
  readonly secret?: string | undefined
  readonly authToken?: string | undefined
  readonly at: Date
}) {
  const ids = yield* Ids
  const registration: WebhookRegistration = {
    id: yield* ids.make(WebhookIds, { sandbox: fields.sandbox }),
    accountId: fields.accountId,
    url: fields.url,
    events: fields.events,
    secret: fields.secret ?? `whsec_${yield* ids.randomHex(24)}`,
    authToken: fields.authToken ?? null,
    status: "active",
    createdAt: fields.at
  }
  return registration
})

export const registerWebhook = Effect.fn("Webhooks.register")(function*(input: {
  readonly url: string
  readonly events?: ReadonlyArray<string> | undefined
  readonly secret?: string | undefined
  readonly authToken?: string | undefined
}) {
  const caller = yield* Caller
  const url = yield* checkWebhookUrl(input.url, caller.account.sandbox)
  const events = yield* checkEvents(input.events)
  if (input.secret !== undefined && input.secret.length < 16) {
    return yield* invalid("secret", "secret must have at least 16 characters")
  }
  const registration = yield* newRegistration({
    accountId: caller.account.id,
    sandbox: caller.account.sandbox,
    url,
    events,
    secret: input.secret,
    authToken: input.authToken,
    at: new Date(yield* Clock.currentTimeMillis)
  })
  const transactor = yield* Transactor
  const webhooks = yield* Webhooks
  yield* transactor.withTransaction(webhooks.insert(registration))
  return toWebhookView(registration, { withSecret: true })
})

const findOwn = Effect.fn("Webhooks.findOwn")(function*(id: WebhookId) {
  const caller = yield* Caller
  const webhooks = yield* Webhooks
  const found = yield* webhooks.find(caller.account.id, id)
  if (Option.isNone(found)) {
    return yield* new WebhookNotFound({ message: `Webhook ${id} não encontrado`, details: null })
  }
  return found.value
})

export const listWebhooks = Effect.fn("Webhooks.list")(function*() {
  const caller = yield* Caller
  const webhooks = yield* Webhooks
  const items = yield* webhooks.list(caller.account.id)
  return { items: items.map((r) => toWebhookView(r)) }
})

export const getWebhook = Effect.fn("Webhooks.get")(function*(id: WebhookId) {
  const registration = yield* findOwn(id)
  const deliveries = yield* (yield* WebhookDeliveries).counters(registration.id)
  return { ...toWebhookView(registration), deliveries }
})

export const updateWebhook = Effect.fn("Webhooks.update")(function*(id: WebhookId, input: {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly status?: WebhookStatus | undefined
  readonly authToken?: string | null | undefined
}) {
  const caller = yield* Caller
  const current = yield* findOwn(id)
  const updated: WebhookRegistration = {
    ...current,
    url: input.url === undefined ? current.url : yield* checkWebhookUrl(input.url, caller.account.sandbox),
    events: input.events === undefined ? current.events : yield* checkEvents(input.events),
    status: input.status ?? current.status,
    authToken: input.authToken === undefined ? current.authToken : input.authToken
  }
  const transactor = yield* Transactor
  const webhooks = yield* Webhooks
  yield* transactor.withTransaction(webhooks.update(updated))
  return toWebhookView(updated)
})

export const removeWebhook = Effect.fn("Webhooks.remove")(function*(id: WebhookId) {
  const caller = yield* Caller
  const webhooks = yield* Webhooks
  const transactor = yield* Transactor
  const removed = yield* transactor.withTransaction(webhooks.remove(caller.account.id, id))
  if (!removed) return yield* new WebhookNotFound({ message: `Webhook ${id} não encontrado`, details: null })
  return { message: "Webhook removido", webhookId: id }
})

/**
 * `POST /v1/users/webhooks/test`: sends a fictional payload of `entity` to a
 * registration (signed with its secret) or to a bare `url` (unsigned), and
 * answers the caller with what happened.
 */
export const testWebhook = Effect.fn("Webhooks.test")(function*(input: {
  readonly entity: string
  readonly webhookId?: WebhookId | undefined
  readonly url?: string | undefined
}) {
  const caller = yield* Caller
  if (!knownEvents.has(input.entity)) {
    return yield* new InvalidData({ message: `unknown event: ${input.entity}`, details: { field: "entity" } })
  }
  const event = input.entity as EventName
  const now = yield* Clock.currentTimeMillis
  const payload = samplePayload(event, caller.account.number, new Date(now))
  const body = JSON.stringify(payload)
  let url: string
  let headers: Record<string, string>
  if (input.webhookId !== undefined) {
    const registration = yield* findOwn(input.webhookId)
    url = registration.url
    headers = yield* deliveryHeaders(registration, body, { "x-webhook-event": event, "x-webhook-test": "true" })
  } else if (input.url !== undefined) {
    url = yield* checkWebhookUrl(input.url, caller.account.sandbox)
    headers = { "content-type": "application/json", "x-webhook-event": event, "x-webhook-test": "true" }
  } else {
    return yield* new InvalidData({ message: "url is required when webhookId is absent", details: { field: "url" } })
  }
  const transport = yield* WebhookTransport
  const response = yield* transport.post({ url, headers, body, timeoutMillis: DELIVERY_TIMEOUT_MILLIS })
  const success = response._tag === "Answered" && response.status >= 200 && response.status < 300
  return {
    success,
    url,
    event,
    payload,
    response: response._tag === "Answered" ? { statusCode: response.status } : null,
    ...(success ? {} : { error: response._tag === "Answered" ? `receiver answered HTTP ${response.status}` : response.reason })
  }
})

export const listDeliveries = Effect.fn("Webhooks.listDeliveries")(function*(query: {
  readonly limit?: number | undefined
  readonly nextPageToken?: string | undefined
  readonly type?: string | undefined
  readonly status?: string | undefined
}) {
  const caller = yield* Caller
  const deliveries = yield* WebhookDeliveries
  const limit = yield* pageLimit(query.limit, 50, invalid)
  const page = yield* deliveries.list(caller.account.id, {
    limit,
    after: query.nextPageToken ?? null,
    event: query.type ?? null,
    status: query.status ?? null
  })
  return {
    items: page.items.map(toDeliveryView),
    count: page.items.length,
    hasMore: page.nextPageToken !== null,
    nextPageToken: page.nextPageToken
  }
})

/** Resends a delivery now: same body, new `t` and signature. */
export const retryDelivery = Effect.fn("Webhooks.retry")(function*(webhookEventId: WebhookDeliveryId) {
  const caller = yield* Caller
  const deliveries = yield* WebhookDeliveries
  const found = yield* deliveries.find(caller.account.id, webhookEventId)
  if (Option.isNone(found)) {
    return yield* new WebhookEventNotFound({ message: `Evento ${webhookEventId} não encontrado`, details: null })
  }
  const outcome = yield* resendDelivery(found.value)
  return {
    message: outcome.status === "delivered" ? "Evento reenviado com sucesso" : "Falha ao reenviar o evento",
    webhookEventId,
    attempt: found.value.attempt + 1,
    status: outcome.status,
    responseStatusCode: outcome.responseStatusCode,
    error: outcome.error
  }
})

/**
 * Webhook POSTs over real HTTP with Node's `http`/`https` and keep-alive
 * agents: connections to a receiver are reused across deliveries, which is
 * most of the cost of a small POST (`fetch` pooled them too, at several
 * times the CPU per request). The spec's 5 s limit covers connecting,
 * sending and the answer; at most 4 KiB of the answer is read and kept.
 * Redirects are not followed. A timeout or a network error is a `NoAnswer`
 * whose reason is recorded on the delivery, but for a pooled connection the
 * receiver had closed, which is sent again once on a new one.
 */
import { boundedMemo, WebhookTransport, type WebhookResponse } from "@billing/core"
import { Effect, Layer } from "effect"
import http from "node:http"
import https from "node:https"
import { urlToHttpOptions } from "node:url"

/** Sockets kept per receiver origin; the dispatcher's own limits bound what is in flight. */
const MAX_SOCKETS_PER_ORIGIN = 256
const MAX_ANSWER_CHARS = 4096

const agentOptions = { keepAlive: true, maxSockets: MAX_SOCKETS_PER_ORIGIN, maxFreeSockets: 64, scheduling: "lifo" } as const

const reasonOf = (error: unknown) => `request failed: ${error instanceof Error ? error.message : String(error)}`

/** Where a URL's POSTs go, or why they cannot; parsed once per registration URL rather than once per delivery. */
type Target = { readonly _tag: "Target"; readonly secure: boolean; readonly options: http.RequestOptions } | { readonly _tag: "Invalid"; readonly reason: string }

const targetOf = (url: string): Target => {
  try {
    const parsed = new URL(url)
    const secure = parsed.protocol === "https:"
    return { _tag: "Target", secure, options: { ...urlToHttpOptions(parsed), method: "POST" } }
  } catch (error) {
    return { _tag: "Invalid", reason: reasonOf(error) }
  }
}

/** Reads the receiver's answer: its status and at most `MAX_ANSWER_CHARS` of its body. */
const readAnswer = (res: http.IncomingMessage, done: (response: WebhookResponse) => void) => {
  let body = ""
  res.setEncoding("utf8")
  res.on("data", (chunk: string) => {
    if (body.length < MAX_ANSWER_CHARS) body += chunk.slice(0, MAX_ANSWER_CHARS - body.length)
  })
  res.on("end", () => done({ _tag: "Answered", status: res.statusCode ?? 0, body }))
  res.on("error", (error) => done({ _tag: "NoAnswer", reason: reasonOf(error) }))
}

/**
 * A pooled connection the receiver closed while it sat idle (its keep-alive
 * timeout ran out as we reused it) fails before any answer, the request
 * most likely unread. Such a POST is sent again once, on a new
 * connection; a delivery is at least once anyway, under the same event id.
 */
const isStaleConnection = (req: http.ClientRequest, answered: boolean, error: unknown) =>
  req.reusedSocket && !answered && ["ECONNRESET", "EPIPE"].includes((error as NodeJS.ErrnoException).code ?? "")

export const WebhookTransportHttp = Layer.sync(WebhookTransport, () => {
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) }
  const cachedTargetOf = boundedMemo(10_000, targetOf)
  return WebhookTransport.of({
    post: (request) =>
      Effect.callback<WebhookResponse>((resume) => {
        let settled = false
        let timer: ReturnType<typeof setTimeout> | undefined
        let inFlight: http.ClientRequest | undefined
        const done = (response: WebhookResponse) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          resume(Effect.succeed(response))
        }
        const target = cachedTargetOf(request.url)
        if (target._tag === "Invalid") {
          done({ _tag: "NoAnswer", reason: target.reason })
          return
        }
        // `agent: false` is a connection of its own, outside the pool.
        const send = (agent: http.Agent | false) => {
          const req = (target.secure ? https : http).request({
            ...target.options,
            agent,
            headers: { ...request.headers, "content-length": Buffer.byteLength(request.body) }
          })
          inFlight = req
          let answered = false
          req.on("response", (res) => {
            answered = true
            readAnswer(res, done)
          })
          req.on("error", (error) => {
            if (agent !== false && !settled && isStaleConnection(req, answered, error)) send(false)
            else done({ _tag: "NoAnswer", reason: reasonOf(error) })
          })
          req.end(request.body)
        }
        // The limit covers both sends.
        timer = setTimeout(() => {
          done({ _tag: "NoAnswer", reason: `no answer within ${request.timeoutMillis} ms` })
          inFlight?.destroy()
        }, request.timeoutMillis)
        send(target.secure ? agents.https : agents.http)
        // Interrupted (the worker stops): the request is abandoned.
        return Effect.sync(() => {
          settled = true
          clearTimeout(timer)
          inFlight?.destroy()
        })
      })
  })
})

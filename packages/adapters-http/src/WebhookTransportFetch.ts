import { WebhookTransport } from "@billing/core"
import { Effect, Layer } from "effect"

/**
 * Webhook POSTs over real HTTP with `fetch`. The receiver's answer is read
 * (at most 4 KiB kept) so connections are reused; a timeout or a network
 * error is a `NoAnswer` with the reason recorded on the delivery.
 */
export const WebhookTransportFetch = Layer.succeed(WebhookTransport, {
  post: (request) =>
    Effect.promise(async (signal) => {
      const timeout = AbortSignal.timeout(request.timeoutMillis)
      try {
        const response = await fetch(request.url, {
          method: "POST",
          headers: request.headers,
          body: request.body,
          redirect: "manual",
          signal: AbortSignal.any([signal, timeout])
        })
        const body = (await response.text()).slice(0, 4096)
        return { _tag: "Answered", status: response.status, body } as const
      } catch (error) {
        const reason = timeout.aborted
          ? `no answer within ${request.timeoutMillis} ms`
          : `request failed: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`
        return { _tag: "NoAnswer", reason } as const
      }
    })
})

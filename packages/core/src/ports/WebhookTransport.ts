import { Context, type Effect } from "effect"

/** What came back from one POST of a webhook. */
export type WebhookResponse =
  | { readonly _tag: "Answered"; readonly status: number; readonly body: string }
  | { readonly _tag: "NoAnswer"; readonly reason: string }

/**
 * Sends one webhook POST. The production adapter uses real HTTP with the 5 s
 * limit of the spec; the transport never fails; a timeout or a refused
 * connection is a `NoAnswer` that the caller records as a failed delivery.
 */
export class WebhookTransport extends Context.Service<WebhookTransport, {
  readonly post: (request: {
    readonly url: string
    readonly headers: Readonly<Record<string, string>>
    readonly body: string
    readonly timeoutMillis: number
  }) => Effect.Effect<WebhookResponse>
}>()("@billing/core/ports/WebhookTransport") {}

import { Context, type Effect } from "effect"
import type { OutboxEvent } from "../domain/Events.ts"

/** Events recorded with the change they describe (DESIGN: one transaction per command), fanned out by the worker. */
export class Outbox extends Context.Service<Outbox, {
  /** Records an event; call it inside the command's transaction. */
  readonly append: (event: Omit<OutboxEvent, "id" | "createdAt">) => Effect.Effect<void>
  /** Records events in one statement, in order (a batch's); call it inside the command's transaction. */
  readonly appendMany: (events: ReadonlyArray<Omit<OutboxEvent, "id" | "createdAt">>) => Effect.Effect<void>
  // Fanning events out is one statement over the outbox, the registrations and the deliveries: `WebhookDeliveries.fanOut`.
}>()("@billing/core/ports/Outbox") {}

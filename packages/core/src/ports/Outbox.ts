import { Context, type Effect } from "effect"
import type { OutboxEvent } from "../domain/Events.ts"

/** Events recorded with the change they describe (DESIGN: one transaction per command), fanned out by the worker. */
export class Outbox extends Context.Service<Outbox, {
  /** Records an event; call it inside the command's transaction. */
  readonly append: (event: Omit<OutboxEvent, "id" | "createdAt">) => Effect.Effect<void>
  /** Records events in one statement, in order (a batch's); call it inside the command's transaction. */
  readonly appendMany: (events: ReadonlyArray<Omit<OutboxEvent, "id" | "createdAt">>) => Effect.Effect<void>
  /**
   * Claims up to `limit` unprocessed events for this transaction only: rows
   * another transaction holds are skipped, so concurrent workers never take
   * the same event. Call inside `Transactor.withTransaction` and mark them.
   */
  readonly claimUnprocessed: (limit: number) => Effect.Effect<ReadonlyArray<OutboxEvent>>
  readonly markProcessed: (ids: ReadonlyArray<string>) => Effect.Effect<void>
}>()("@billing/core/ports/Outbox") {}

/** Storage of card disputes. */
import { Context, type Effect, type Option } from "effect"
import type { Dispute, DisputeStatus } from "../domain/Dispute.ts"

export class Disputes extends Context.Service<Disputes, {
  readonly insert: (dispute: Dispute) => Effect.Effect<void>
  /** The account's dispute, locked until the transaction ends. */
  readonly lock: (accountId: string, id: string) => Effect.Effect<Option.Option<Dispute>>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<Dispute>>
  /** Decides an `OPEN` dispute; the dispute decided, or none when it was decided already. */
  readonly decide: (id: string, status: Exclude<DisputeStatus, "OPEN">, refundId: string | null, at: Date) => Effect.Effect<Option.Option<Dispute>>
}>()("@billing/core/ports/Disputes") {}

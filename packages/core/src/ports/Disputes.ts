/** Storage of card disputes. */
import { Context, type Effect, type Option } from "effect"
import type { Dispute } from "../domain/Dispute.ts"
import type { DisputeTransition } from "../rules/DisputeTransitions.ts"
import type { AccountId, DisputeId, RefundId } from "../domain/Ids.ts"

export class Disputes extends Context.Service<Disputes, {
  readonly insert: (dispute: Dispute) => Effect.Effect<void>
  /** The account's dispute, locked until the transaction ends. */
  readonly lock: (accountId: AccountId, id: DisputeId) => Effect.Effect<Option.Option<Dispute>>
  readonly find: (accountId: AccountId, id: DisputeId) => Effect.Effect<Option.Option<Dispute>>
  /** Applies `transition` (with the chargeback's `refundId`, if any) if the dispute is still in one of its `from` statuses; the dispute decided, or none when it was decided already. */
  readonly decide: (id: DisputeId, transition: DisputeTransition, refundId: RefundId | null, at: Date) => Effect.Effect<Option.Option<Dispute>>
}>()("@billing/core/ports/Disputes") {}

import type { Backlog } from "../domain/Backlog.ts"
import { Context, type Effect } from "effect"
import type { RunScope } from "../domain/RunScope.ts"
import type { AccountId, ChargeId } from "../domain/Ids.ts"

/** Queue of sandbox payments requested by `POST /v1/wallet/pay/{chargeId}`. */
export class SandboxPayments extends Context.Service<SandboxPayments, {
  /** Records the request; a second request for the same charge is a no-op. */
  readonly enqueue: (chargeId: ChargeId, accountId: AccountId, at: Date) => Effect.Effect<void>
  /** Claims up to `limit` pending requests with `SKIP LOCKED`; call in a transaction and mark them. */
  readonly claimPending: (limit: number, scope: RunScope) => Effect.Effect<ReadonlyArray<{ readonly chargeId: ChargeId; readonly accountId: AccountId }>>
  readonly markProcessed: (chargeId: ChargeId, at: Date) => Effect.Effect<void>
  /** The payments requested and not confirmed yet (counted up to `cap`) and the oldest request, for the metrics. */
  readonly backlog: (cap: number) => Effect.Effect<Backlog>
}>()("@billing/core/ports/SandboxPayments") {}

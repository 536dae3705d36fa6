/** Storage of MED infractions. */
import { Context, type Effect, type Option } from "effect"
import type { MedInfraction } from "../domain/Med.ts"
import type { Cents } from "../money/Money.ts"
import type { MedTransition } from "../rules/MedTransitions.ts"
import type { AccountId, ChargeId, MedInfractionId, RefundId } from "../domain/Ids.ts"

export class MedInfractions extends Context.Service<MedInfractions, {
  readonly insert: (infraction: MedInfraction) => Effect.Effect<void>
  /** The account's infraction, locked until the transaction ends. */
  readonly lock: (accountId: AccountId, id: MedInfractionId) => Effect.Effect<Option.Option<MedInfraction>>
  readonly find: (accountId: AccountId, id: MedInfractionId) => Effect.Effect<Option.Option<MedInfraction>>
  /** What the charge's open infractions block: money the payer's bank may still take back, which no refund may return meanwhile. Call under the charge's lock. */
  readonly blockedOf: (chargeId: ChargeId) => Effect.Effect<Cents>
  /** Applies `transition` (with the refund that returned the money, if any) if the infraction is still in one of its `from` statuses; the infraction decided, or none when it was decided already. */
  readonly decide: (id: MedInfractionId, transition: MedTransition, refundId: RefundId | null, at: Date) => Effect.Effect<Option.Option<MedInfraction>>
}>()("@billing/core/ports/MedInfractions") {}

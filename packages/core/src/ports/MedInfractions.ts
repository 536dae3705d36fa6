/** Storage of MED infractions. */
import { Context, type Effect, type Option } from "effect"
import type { MedInfraction, MedStatus } from "../domain/Med.ts"
import type { Cents } from "../money/Money.ts"

export class MedInfractions extends Context.Service<MedInfractions, {
  readonly insert: (infraction: MedInfraction) => Effect.Effect<void>
  /** The account's infraction, locked until the transaction ends. */
  readonly lock: (accountId: string, id: string) => Effect.Effect<Option.Option<MedInfraction>>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<MedInfraction>>
  /** What the charge's open infractions block: money the payer's bank may still take back, which no refund may return meanwhile. Call under the charge's lock. */
  readonly blockedOf: (chargeId: string) => Effect.Effect<Cents>
  /** Decides an `OPEN` infraction; the infraction decided, or none when it was decided already. */
  readonly decide: (id: string, status: Exclude<MedStatus, "OPEN">, refundId: string | null, at: Date) => Effect.Effect<Option.Option<MedInfraction>>
}>()("@billing/core/ports/MedInfractions") {}

/** Storage of Pix key portability claims. */
import { Context, type Effect, type Option } from "effect"
import type { PixClaim } from "../domain/PixClaim.ts"
import type { PixClaimTransition } from "../rules/PixClaimTransitions.ts"
import type { AccountId, PixClaimId } from "../domain/Ids.ts"

export class PixClaims extends Context.Service<PixClaims, {
  /** Inserts an open claim; false when the key has an open claim already (a unique index decides between racing claims). */
  readonly insertOpen: (claim: PixClaim) => Effect.Effect<boolean>
  readonly find: (accountId: AccountId, id: PixClaimId) => Effect.Effect<Option.Option<PixClaim>>
  /** The account's claims, newest first. */
  readonly list: (accountId: AccountId, limit: number) => Effect.Effect<ReadonlyArray<PixClaim>>
  /** Applies `transition` if the account's claim is still in one of its `from` statuses; the claim moved, or none when it was not. */
  readonly close: (accountId: AccountId, id: PixClaimId, transition: PixClaimTransition, at: Date) => Effect.Effect<Option.Option<PixClaim>>
  /** Whether the account completed a claim of this key: the key is its holder's. */
  readonly holds: (accountId: AccountId, pixKey: string) => Effect.Effect<boolean>
}>()("@billing/core/ports/PixClaims") {}

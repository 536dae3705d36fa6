/**
 * The state machine of a Pix key portability claim, in one table as the
 * charge's (`ChargeTransitions.ts`): a claim is `OPEN` until the
 * institution holding the key confirms it or the holder cancels it, and
 * storage closes it as one conditional UPDATE (`WHERE status IN from`), so
 * a confirmation and a cancel racing on one claim cannot both win.
 *
 * Spec: Wallet, `POST /v1/wallet/pix-claims`; it leaves the routes to
 * confirm and cancel unshown (`wallet/PixClaims.ts`).
 */
import type { PixClaim } from "../domain/PixClaim.ts"

/** A claim's status (`domain/PixClaim.ts`). */
type ClaimStatus = PixClaim["status"]

/** What moves a claim. */
export type PixClaimTrigger =
  /** The institution holding the key confirmed it: the key now points here. */
  | "completed"
  /** The holder canceled it. */
  | "canceled"

export interface PixClaimTransition {
  readonly trigger: PixClaimTrigger
  readonly from: ReadonlyArray<ClaimStatus>
  readonly to: ClaimStatus
}

/** Claims still waiting for an answer: a key has at most one (a unique index on them decides between racing claims). */
export const OPEN_PIX_CLAIM_STATUSES: ReadonlyArray<ClaimStatus> = ["OPEN"]

export const PixClaimTransitions = {
  completed: { trigger: "completed", from: OPEN_PIX_CLAIM_STATUSES, to: "COMPLETED" },
  canceled: { trigger: "canceled", from: OPEN_PIX_CLAIM_STATUSES, to: "CANCELED" }
} as const satisfies { readonly [T in PixClaimTrigger]: PixClaimTransition & { readonly trigger: T } }

/** Claims that make their key the account holder's, for withdrawals to it. */
export const HOLDING_PIX_CLAIM_STATUSES: ReadonlyArray<ClaimStatus> = [PixClaimTransitions.completed.to]

/** The status `trigger` moves a claim in `from` to, or `undefined` when the table has no such move. */
export const nextPixClaimStatus = (from: ClaimStatus, trigger: PixClaimTrigger): ClaimStatus | undefined => {
  const transition: PixClaimTransition = PixClaimTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

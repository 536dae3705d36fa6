/**
 * The MED infraction's state machine, in one table as the charge's
 * (`ChargeTransitions.ts`): an infraction is `OPEN`, its amount blocked in
 * the account, until it is decided, and storage decides it as one
 * conditional UPDATE (`WHERE status IN from`), so it is decided once.
 *
 * Spec: the five `med.*` events; it leaves the flow unshown (`domain/Med.ts`).
 */
import type { MedStatus } from "../domain/Med.ts"

/** What moves an infraction. */
export type MedTrigger =
  /** Decided for the account: the block goes back to its available balance. */
  | "released"
  /** Decided for the payer: what was blocked goes back to the payer. */
  | "returned"

export interface MedTransition {
  readonly trigger: MedTrigger
  readonly from: ReadonlyArray<MedStatus>
  readonly to: MedStatus
}

/** Infractions not decided yet: what they block of a charge no refund may return meanwhile. */
export const OPEN_MED_STATUSES: ReadonlyArray<MedStatus> = ["OPEN"]

export const MedTransitions = {
  released: { trigger: "released", from: OPEN_MED_STATUSES, to: "RELEASED" },
  returned: { trigger: "returned", from: OPEN_MED_STATUSES, to: "RETURNED" }
} as const satisfies { readonly [T in MedTrigger]: MedTransition & { readonly trigger: T } }

/** The status `trigger` moves an infraction in `from` to, or `undefined` when the table has no such move. */
export const nextMedStatus = (from: MedStatus, trigger: MedTrigger): MedStatus | undefined => {
  const transition: MedTransition = MedTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

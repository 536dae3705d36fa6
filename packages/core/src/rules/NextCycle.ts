/**
 * Which cycle is a subscription's next one: the first not issued yet (in a
 * free period, cycle 1 itself). Its due date is when a cancel at period end
 * takes effect, when a plan change's prorata ends, and what a due date change
 * moves.
 */
import type { BillingCycle } from "../domain/Subscription.ts"
import { SCHEDULED_CYCLE_STATUSES } from "./CycleTransitions.ts"

/** The next cycle to bill among `cycles` (in number order), or null when every one was issued. */
export const nextCycleOf = <C extends Pick<BillingCycle, "status">>(aggregate: { readonly cycles: ReadonlyArray<C> }): C | null =>
  aggregate.cycles.find((cycle) => SCHEDULED_CYCLE_STATUSES.includes(cycle.status)) ?? null

/**
 * The billing run's settings, as references with defaults: provide another
 * value to tune a worker or a run (`billing worker` reads the lease from
 * `BILLING_CLAIM_LEASE_SECONDS`).
 */
import { Clock, Context, Effect } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { DEFAULT_CYCLE_GROWTH_LIMIT } from "../rules/CycleBounds.ts"

/**
 * How long a claim holds, in milliseconds: long enough for a batch of card
 * authorizations, short enough that a stopped worker's rows return soon.
 * One minute unless provided.
 */
export const ClaimLease = Context.Reference<number>("@billing/core/BillingRun/ClaimLease", { defaultValue: () => 60_000 })

/**
 * How many times the last billed cycle a cycle may bill before the run holds
 * it for review (`rules/CycleBounds.ts`); 10 unless provided.
 */
export const CycleGrowthLimit = Context.Reference<number>("@billing/core/BillingRun/CycleGrowthLimit", {
  defaultValue: () => DEFAULT_CYCLE_GROWTH_LIMIT
})

/** The clock of a claim: today in São Paulo, now, and the end of the lease. */
export const claimClock = Effect.gen(function*() {
  const now = yield* Clock.currentTimeMillis
  return { today: saoPauloDate(now), now: new Date(now), leaseUntil: new Date(now + (yield* ClaimLease)) }
})

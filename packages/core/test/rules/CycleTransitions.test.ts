/**
 * The billing cycle state machine is one table: each trigger moves a cycle
 * only from the statuses written here by hand, takes its own invoice with it
 * where a settlement does, and refuses every other (status, trigger) pair.
 * The status sets storage reads (open, unpaid, not issued, retryable) and
 * the next cycle of a subscription are pinned down the same way.
 */
import { describe, expect, it } from "vitest"
import { type BillingCycle, type CycleStatus, CycleStatuses } from "../../src/domain/Subscription.ts"
import {
  CycleTransitions,
  type CycleTrigger,
  nextCycleStatus,
  OPEN_CYCLE_STATUSES,
  RETRYABLE_CYCLE_STATUSES,
  SCHEDULED_CYCLE_STATUSES,
  UNPAID_CYCLE_STATUSES
} from "../../src/rules/CycleTransitions.ts"
import { nextCycleOf } from "../../src/rules/NextCycle.ts"
import { afterRefusal } from "../../src/rules/RetrySchedule.ts"

const unsettled: ReadonlyArray<CycleStatus> = ["SCHEDULED", "PENDING", "AWAITING_PAYMENT", "PROCESSING", "RETRY_SCHEDULED", "DUNNING"]

// Written out by hand from the spec's cycle statuses and docs/decisions.md (retry schedule, dunning), not read from the code.
const allowed: ReadonlyArray<readonly [CycleStatus, CycleTrigger, CycleStatus]> = [
  ["SCHEDULED", "issued", "AWAITING_PAYMENT"],
  ["SCHEDULED", "cardAttempted", "PROCESSING"],
  ["RETRY_SCHEDULED", "retried", "PROCESSING"],
  ["PROCESSING", "attemptRefused", "RETRY_SCHEDULED"],
  ["PROCESSING", "lastAttemptRefused", "DUNNING"],
  ...unsettled.map((from) => [from, "paid", "PAID"] as const),
  ...unsettled.map((from) => [from, "firstCardRefused", "FAILED"] as const),
  ["DUNNING", "dunningEnded", "FAILED"],
  ["PENDING", "expired", "EXPIRED"],
  ["AWAITING_PAYMENT", "expired", "EXPIRED"],
  ...unsettled.map((from) => [from, "canceled", "CANCELED"] as const)
]

describe("cycle transitions", () => {
  const triggers = Object.keys(CycleTransitions) as ReadonlyArray<CycleTrigger>

  it("allows exactly the moves written here, and refuses every other pair", () => {
    const expected = new Map(allowed.map(([from, trigger, to]) => [`${from} ${trigger}`, to]))
    for (const from of CycleStatuses) {
      for (const trigger of triggers) {
        expect(nextCycleStatus(from, trigger), `${from} on ${trigger}`).toBe(expected.get(`${from} ${trigger}`))
      }
    }
  })

  it("moves the cycle's own invoice only when the cycle is settled", () => {
    expect(Object.fromEntries(triggers.map((t) => [t, CycleTransitions[t].invoice?.trigger ?? null]))).toEqual({
      issued: null,
      cardAttempted: null,
      retried: null,
      attemptRefused: null,
      lastAttemptRefused: null,
      paid: "paid",
      firstCardRefused: "uncollectible",
      dunningEnded: "uncollectible",
      expired: "expired",
      canceled: "canceled"
    })
  })

  it("never moves a settled cycle", () => {
    for (const settled of ["PAID", "FAILED", "EXPIRED", "CANCELED"] as const) {
      expect(triggers.filter((t) => nextCycleStatus(settled, t) !== undefined), settled).toEqual([])
    }
  })

  it("sends a refused card attempt where the retry schedule says, by the transition whose target it is", () => {
    expect(afterRefusal(1, "2027-03-10").status).toBe(CycleTransitions.attemptRefused.to)
    expect(afterRefusal(4, "2027-03-10").status).toBe(CycleTransitions.lastAttemptRefused.to)
  })
})

describe("cycle status sets", () => {
  it("open: every status not settled; unpaid: the open ones issued; scheduled: not issued yet", () => {
    expect([...OPEN_CYCLE_STATUSES].sort()).toEqual([...unsettled].sort())
    expect([...UNPAID_CYCLE_STATUSES].sort()).toEqual(["AWAITING_PAYMENT", "DUNNING", "PENDING", "PROCESSING", "RETRY_SCHEDULED"])
    expect(SCHEDULED_CYCLE_STATUSES).toEqual(["SCHEDULED"])
  })

  it("retryable by hand: the statuses a refused card leaves a renewal in", () => {
    expect([...RETRYABLE_CYCLE_STATUSES].sort()).toEqual(["DUNNING", "RETRY_SCHEDULED"])
  })
})

describe("next cycle", () => {
  const cycle = (cycleNumber: number, status: CycleStatus) => ({ cycleNumber, status }) as Pick<BillingCycle, "cycleNumber" | "status">

  it("is the first cycle not issued yet", () => {
    const cycles = [cycle(1, "PAID"), cycle(2, "AWAITING_PAYMENT"), cycle(3, "SCHEDULED"), cycle(4, "SCHEDULED")]
    expect(nextCycleOf({ cycles })?.cycleNumber).toBe(3)
  })

  it("is cycle 1 itself during a free period", () => {
    expect(nextCycleOf({ cycles: [cycle(1, "SCHEDULED")] })?.cycleNumber).toBe(1)
  })

  it("is none once every cycle was issued or canceled", () => {
    expect(nextCycleOf({ cycles: [cycle(1, "PAID"), cycle(2, "CANCELED")] })).toBeNull()
  })
})

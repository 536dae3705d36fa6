/**
 * A Pix sent out of an account moves by one table: the provider's answer
 * ends one in flight, and nothing else moves it. The sets storage reads
 * (what the worker claims, what counts against the daily limit) are
 * written here by hand.
 */
import { describe, expect, it } from "vitest"
import { WithdrawalStatus } from "../../src/domain/Withdrawal.ts"
import {
  IN_FLIGHT_WITHDRAWAL_STATUSES,
  LIMIT_COUNTED_WITHDRAWAL_STATUSES,
  nextWithdrawalStatus,
  WithdrawalTransitions,
  type WithdrawalTrigger
} from "../../src/rules/WithdrawalTransitions.ts"

// Written out by hand from the spec (Wallet) and `wallet/SendPix.ts`'s payout, not read from the code.
const allowed: ReadonlyArray<readonly [string, WithdrawalTrigger, string]> = [
  ["PROCESSING", "paidOut", "COMPLETED"],
  ["PROCESSING", "returned", "FAILED"]
]

describe("withdrawal transitions", () => {
  const triggers = Object.keys(WithdrawalTransitions) as ReadonlyArray<WithdrawalTrigger>

  it("records the provider's answer only for a withdrawal in flight, and refuses every other pair", () => {
    const expected = new Map(allowed.map(([from, trigger, to]) => [`${from} ${trigger}`, to]))
    for (const from of WithdrawalStatus.literals) {
      for (const trigger of triggers) {
        expect(nextWithdrawalStatus(from, trigger), `${from} on ${trigger}`).toBe(expected.get(`${from} ${trigger}`))
      }
    }
    for (const settled of ["COMPLETED", "FAILED"] as const) {
      expect(triggers.filter((t) => nextWithdrawalStatus(settled, t) !== undefined), settled).toEqual([])
    }
  })

  it("claims withdrawals in flight, and counts all but returned ones against the daily limit", () => {
    expect(IN_FLIGHT_WITHDRAWAL_STATUSES).toEqual(["PROCESSING"])
    expect([...LIMIT_COUNTED_WITHDRAWAL_STATUSES].sort()).toEqual(["COMPLETED", "PROCESSING"])
  })
})

import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { allocateRemainderToFirst } from "../../src/money/Allocation.ts"
import { cents } from "../../src/money/Money.ts"

describe("allocation with the remainder on the first part", () => {
  it("puts the leftover centavos on the first part only", () => {
    // 100.00 / 3 = 33.333…: 33.33 each, 0.01 left over, so 33.34 + 33.33 + 33.33.
    expect(allocateRemainderToFirst(cents(10000), 3)).toEqual([3334, 3333, 3333])
    // 100.02 / 3 = 33.34 exactly: nothing left over.
    expect(allocateRemainderToFirst(cents(10002), 3)).toEqual([3334, 3334, 3334])
    // 100.01 / 3: 33.33 each, 0.02 left over, both on the first: 33.35 (not 33.34 + 33.34).
    expect(allocateRemainderToFirst(cents(10001), 3)).toEqual([3335, 3333, 3333])
    // 0.05 / 3: 0.01 each, 0.02 left over.
    expect(allocateRemainderToFirst(cents(5), 3)).toEqual([3, 1, 1])
    // 1000.00 / 12 = 83.333…: 83.33 × 11 = 916.63, the first 83.37.
    expect(allocateRemainderToFirst(cents(100000), 12)).toEqual([8337, ...Array(11).fill(8333)])
    expect(allocateRemainderToFirst(cents(1000), 1)).toEqual([1000])
  })

  it("parts add up to the total, all but the first are the total divided by n rounded down, the first exceeds them by less than n (law)", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 1, max: 12 }), (total, n) => {
      const parts = allocateRemainderToFirst(cents(total), n)
      expect(parts).toHaveLength(n)
      // Summed and divided in BigInt: exact at any size, independent of the function's arithmetic.
      expect(parts.reduce((a, p) => a + BigInt(p), 0n)).toBe(BigInt(total))
      const floor = BigInt(total) / BigInt(n)
      for (const p of parts.slice(1)) expect(BigInt(p)).toBe(floor)
      expect(BigInt(parts[0]!) - floor).toBe(BigInt(total) % BigInt(n))
    }))
  })
})

import { describe, expect, it } from "vitest"
import { DELIVERY_LEASE_MILLIS, sendableUnderLease } from "../../src/webhooks/Delivery.ts"

describe("a delivery leased ahead", () => {
  // Leased at 0 for 10 s; a POST may take the spec's 5 s, and 3 s are kept for writing its outcome.
  const leaseUntil = DELIVERY_LEASE_MILLIS

  it("starts only while its POST would end, at the 5 s limit, with 3 s of the lease left for its outcome", () => {
    expect(DELIVERY_LEASE_MILLIS).toBe(10_000)
    expect(sendableUnderLease(leaseUntil, 0)).toBe(true)
    expect(sendableUnderLease(leaseUntil, 2_000)).toBe(true)
    expect(sendableUnderLease(leaseUntil, 2_001)).toBe(false)
    expect(sendableUnderLease(leaseUntil, 12_000)).toBe(false)
  })
})

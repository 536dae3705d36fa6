import { describe, expect, it } from "vitest"
import { isPixReturnable, pixReturnableUntil } from "../../src/rules/PixReturnWindow.ts"

describe("the Pix return window", () => {
  // Settled 2030-01-10 15:30:00 UTC; 90 days later (2030 is not a leap year: 21 days of January left, 28, 31, then 10 of April).
  const settled = new Date("2030-01-10T15:30:00.000Z")

  it("ends 90 days to the millisecond after the settlement", () => {
    expect(pixReturnableUntil(settled).toISOString()).toBe("2030-04-10T15:30:00.000Z")
  })

  it("returns a Pix up to the window's last instant, and not one millisecond after", () => {
    expect(isPixReturnable(settled, settled)).toBe(true)
    expect(isPixReturnable(settled, new Date("2030-04-10T15:30:00.000Z"))).toBe(true)
    expect(isPixReturnable(settled, new Date("2030-04-10T15:30:00.001Z"))).toBe(false)
    expect(isPixReturnable(settled, new Date("2030-07-01T00:00:00.000Z"))).toBe(false)
  })
})

import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addDays } from "../../src/brazil/CalendarDate.ts"
import { cents } from "../../src/money/Money.ts"
import { anchoredDueDate, cycleDueDate, firstDueDate, issueDate, lastPayableDate, type RecurrenceType } from "../../src/rules/CycleSchedule.ts"
import { dueDayChangeProrata, prorata } from "../../src/rules/Prorata.ts"

const monthly = { recurrenceType: "MONTHLY" as const, recurrenceInterval: 1 }

describe("cycle schedule", () => {
  it("bills on the billing day, on the last day of shorter months, and returns to the chosen day", () => {
    const first = "2026-01-31"
    const dates = [1, 2, 3, 4].map((n) => cycleDueDate(first, monthly, n, 31))
    expect(dates).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
    expect(cycleDueDate("2027-12-30", monthly, 3, 30)).toBe("2028-02-29") // leap year
  })

  it("steps by interval and unit", () => {
    expect(cycleDueDate("2026-01-15", { recurrenceType: "MONTHLY", recurrenceInterval: 2 }, 2)).toBe("2026-03-15")
    expect(cycleDueDate("2026-01-15", { recurrenceType: "QUARTERLY", recurrenceInterval: 1 }, 2)).toBe("2026-04-15")
    expect(cycleDueDate("2026-01-15", { recurrenceType: "SEMIANNUAL", recurrenceInterval: 1 }, 3)).toBe("2027-01-15")
    expect(cycleDueDate("2026-01-15", { recurrenceType: "YEARLY", recurrenceInterval: 1 }, 2)).toBe("2027-01-15")
    expect(cycleDueDate("2026-01-15", { recurrenceType: "WEEKLY", recurrenceInterval: 2 }, 2)).toBe("2026-01-29")
    expect(cycleDueDate("2026-01-31", { recurrenceType: "DAILY", recurrenceInterval: 1 }, 2)).toBe("2026-02-01")
  })

  it("starts after the trial, on the next billing day", () => {
    // Created 2026-11-22 with 7 trial days → 2026-11-29; billing day 10 → 2026-12-10.
    expect(firstDueDate("2026-11-22", { trialDays: 7, billingDay: 10 })).toBe("2026-12-10")
    expect(firstDueDate("2026-11-22", { billingDay: 22 })).toBe("2026-11-22")
    expect(firstDueDate("2026-12-22", { billingDay: 5 })).toBe("2027-01-05")
    expect(firstDueDate("2026-11-22", {})).toBe("2026-11-22")
  })

  it("counts cycles from the anchor's cycle and returns to the billing day after a short month", () => {
    // Cycle 2 anchored on 28 Feb 2027 with billing day 31: 28 Feb, 31 Mar, 30 Apr.
    const anchor = { anchorDate: "2027-02-28", anchorCycle: 2, interval: "MONTHLY" as const, intervalCount: 1, billingDay: 31 }
    expect([2, 3, 4].map((n) => anchoredDueDate(anchor, n))).toEqual(["2027-02-28", "2027-03-31", "2027-04-30"])
  })

  it("issues before the due date and accepts payment up to 60 days after", () => {
    expect(issueDate("2026-12-10", 5)).toBe("2026-12-05")
    expect(lastPayableDate("2026-12-10", 3)).toBe("2026-12-13")
    expect(lastPayableDate("2026-12-10", 90)).toBe("2027-02-08") // capped at 60
  })

  it("cycle dates are strictly increasing and land on the billing day or the month's last day (law)", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 3650 }).map((d) => addDays("2026-01-01", d)),
      fc.integer({ min: 1, max: 31 }),
      fc.constantFrom<RecurrenceType>("MONTHLY", "QUARTERLY", "SEMIANNUAL", "YEARLY"),
      fc.integer({ min: 1, max: 3 }),
      (start, billingDay, recurrenceType, recurrenceInterval) => {
        const first = firstDueDate(start, { billingDay })
        let previous = ""
        for (let n = 1; n <= 24; n++) {
          const due = cycleDueDate(first, { recurrenceType, recurrenceInterval }, n, billingDay)
          expect(due > previous).toBe(true)
          const day = Number(due.slice(8, 10))
          const lastDay = new Date(Date.UTC(Number(due.slice(0, 4)), Number(due.slice(5, 7)), 0)).getUTCDate()
          expect(day === billingDay || (day === lastDay && lastDay < billingDay)).toBe(true)
          previous = due
        }
      }
    ))
  })
})

describe("prorata", () => {
  const cycle = { cycleStart: "2026-11-01", nextCycleDate: "2026-12-01" } // 30 days

  it("charges the remaining part of the new plan minus the unused part of the old", () => {
    // 100.00 → 160.00 on day 10 of 30: 20 days left. Credit 100 × 20/30 = 66.666 → 66.66 (down);
    // due (160 − 100) × 20/30 = 40.00; new charge 66.66 + 40.00 = 106.66.
    const r = prorata({ ...cycle, changeDate: "2026-11-11", currentAmount: cents(10000), newAmount: cents(16000) })
    expect(r).toMatchObject({ kind: "UPGRADE", cycleDays: 30, remainingDays: 20, currentCredit: 6666, newCharge: 10666, prorataAmount: 4000 })
    // 100.00 → 100.10 with 20 of 30 days left: 0.10 × 20/30 = 0.0666 → 0.07 (up).
    expect(prorata({ ...cycle, changeDate: "2026-11-11", currentAmount: cents(10000), newAmount: cents(10010) }).prorataAmount).toBe(7)
  })

  it("schedules a downgrade for the next cycle with nothing due now", () => {
    const r = prorata({ ...cycle, changeDate: "2026-11-11", currentAmount: cents(16000), newAmount: cents(10000) })
    expect(r).toMatchObject({ kind: "DOWNGRADE", prorataAmount: 0, nextCycleChargeDate: "2026-12-01" })
  })

  it("does not charge a change to the same total now: only a greater total is an upgrade", () => {
    // 100.00 → 100.00 with 20 of 30 days left: credit and new part both 66.666…, the credit down (66.66), the new part up (66.67).
    const r = prorata({ ...cycle, changeDate: "2026-11-11", currentAmount: cents(10000), newAmount: cents(10000) })
    expect(r).toMatchObject({ kind: "DOWNGRADE", prorataAmount: 0, currentCredit: 6666, newCharge: 6667 })
  })

  const arb = fc.record({
    current: fc.integer({ min: 1, max: 10_000_000 }),
    extra: fc.integer({ min: 1, max: 10_000_000 }),
    day: fc.integer({ min: 0, max: 30 })
  })

  it("on the first day an upgrade costs exactly the price difference; on the last day nothing (law)", () => {
    fc.assert(fc.property(arb, ({ current, extra }) => {
      const first = prorata({ ...cycle, changeDate: cycle.cycleStart, currentAmount: cents(current), newAmount: cents(current + extra) })
      expect(first.newCharge - first.currentCredit).toBe(extra)
      const last = prorata({ ...cycle, changeDate: cycle.nextCycleDate, currentAmount: cents(current), newAmount: cents(current + extra) })
      expect(last.prorataAmount).toBe(0)
    }))
  })

  it("the amount due never grows as the cycle goes by (law)", () => {
    fc.assert(fc.property(arb, ({ current, extra, day }) => {
      const at = (d: number) =>
        prorata({ ...cycle, changeDate: addDays(cycle.cycleStart, d), currentAmount: cents(current), newAmount: cents(current + extra) }).prorataAmount
      expect(at(Math.min(30, day + 1))).toBeLessThanOrEqual(at(day))
    }))
  })

  it("upgrading then reverting the same day never creates money for the customer (law)", () => {
    fc.assert(fc.property(arb, ({ current, extra, day }) => {
      const changeDate = addDays(cycle.cycleStart, day)
      const up = prorata({ ...cycle, changeDate, currentAmount: cents(current), newAmount: cents(current + extra) })
      // Even if the reversal were credited at once, it could not return more than was paid.
      const back = prorata({ ...cycle, changeDate, currentAmount: cents(current + extra), newAmount: cents(current) })
      expect(back.prorataAmount).toBe(0)
      expect(back.currentCredit - back.newCharge).toBeLessThanOrEqual(up.prorataAmount)
    }))
  })

  it("bills the extra days of a later due day and credits the skipped ones of an earlier one", () => {
    // 90.00 over 30 days, due day moved 5 days later: 90 × 5/30 = 15.00 due; 5 days earlier: 15.00 credit.
    expect(dueDayChangeProrata({ amount: cents(9000), cycleDays: 30, currentNextDate: "2026-12-10", newNextDate: "2026-12-15" })).toBe(1500)
    expect(dueDayChangeProrata({ amount: cents(9000), cycleDays: 30, currentNextDate: "2026-12-10", newNextDate: "2026-12-05" })).toBe(-1500)
  })
})

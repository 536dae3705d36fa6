import { describe, expect, it } from "vitest"
import {
  addBusinessDays,
  bankHolidays,
  creditRecognitionDate,
  isBusinessDay,
  nextBusinessDay,
  saoPauloDate
} from "../../src/brazil/BankCalendar.ts"

// National and bank holidays published for the financial system (FEBRABAN / BCB).
const published: Record<number, Array<string>> = {
  2026: [
    "2026-01-01", "2026-02-16", "2026-02-17", "2026-04-03", "2026-04-21", "2026-05-01", "2026-06-04",
    "2026-09-07", "2026-10-12", "2026-11-02", "2026-11-15", "2026-11-20", "2026-12-25"
  ],
  2027: [
    "2027-01-01", "2027-02-08", "2027-02-09", "2027-03-26", "2027-04-21", "2027-05-01", "2027-05-27",
    "2027-09-07", "2027-10-12", "2027-11-02", "2027-11-15", "2027-11-20", "2027-12-25"
  ]
}

describe("bank calendar", () => {
  it.each([2026, 2027])("has every published bank holiday of %i", (year) => {
    const holidays = bankHolidays(year)
    for (const day of published[year]!) expect(holidays.has(day), day).toBe(true)
  })

  it.each([2026, 2027])("has no weekday holiday beyond the published list in %i", (year) => {
    const extra = [...bankHolidays(year)].filter((d) => isWeekday(d) && !published[year]!.includes(d))
    expect(extra).toEqual([])
  })

  it("treats Carnival Monday and Tuesday and Corpus Christi as non-business days, Ash Wednesday as one", () => {
    expect(isBusinessDay("2026-02-16")).toBe(false)
    expect(isBusinessDay("2026-02-17")).toBe(false)
    expect(isBusinessDay("2026-02-18")).toBe(true)
    expect(isBusinessDay("2026-06-04")).toBe(false)
    expect(isBusinessDay("2027-05-27")).toBe(false)
  })

  it("skips weekends and holidays", () => {
    // Friday 2026-02-13 → Monday and Tuesday are Carnival → Wednesday 18.
    expect(nextBusinessDay("2026-02-13")).toBe("2026-02-18")
    // Thursday 2026-12-24 + 1 business day: Friday 25 is Christmas → Monday 28.
    expect(addBusinessDays("2026-12-24", 1)).toBe("2026-12-28")
    expect(addBusinessDays("2026-11-23", 0)).toBe("2026-11-23")
    expect(addBusinessDays("2026-11-23", 5)).toBe("2026-11-30")
  })

  it("keeps a weekend receivable date and recognises the credit on the next business day", () => {
    expect(creditRecognitionDate("2026-11-21")).toBe("2026-11-23") // Saturday → Monday
    expect(creditRecognitionDate("2026-11-20")).toBe("2026-11-23") // Consciência Negra (Friday) → Monday
    expect(creditRecognitionDate("2026-11-24")).toBe("2026-11-24")
  })

  it("tells today's date in São Paulo (UTC-3) from an instant", () => {
    expect(saoPauloDate(Date.UTC(2026, 0, 1, 2, 59))).toBe("2025-12-31")
    expect(saoPauloDate(Date.UTC(2026, 0, 1, 3, 0))).toBe("2026-01-01")
  })
})

const isWeekday = (date: string) => {
  const d = new Date(`${date}T12:00:00Z`).getUTCDay()
  return d !== 0 && d !== 6
}

import { getHolidays } from "@brazilian-utils/brazilian-utils"
import Holidays from "date-holidays"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  addBusinessDays,
  bankHolidays,
  businessDayOnOrAfter,
  easterSunday,
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

  it.each([2026, 2027])("has exactly the published list in %i, and no election Sunday", (year) => {
    expect([...bankHolidays(year)].sort()).toEqual(published[year])
    expect(bankHolidays(2026).has("2026-10-04")).toBe(false) // first round of the 2026 elections
  })

  it("agrees with date-holidays (country BR, its national and bank rules) for every year from 1990 to 2200", () => {
    // Its rules of the national bank holidays; it also types election Sundays and state holidays `public`.
    const national = new Set(["01-01", "easter -48", "easter -47", "easter -2", "04-21", "05-01", "easter 60", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25"])
    const source = new Holidays("BR", { types: ["public", "bank"] })
    for (let year = 1990; year <= 2200; year++) {
      const theirs = source.getHolidays(year).filter((h) => national.has(h.rule)).map((h) => h.date.slice(0, 10))
      expect([...bankHolidays(year)].sort(), String(year)).toEqual([...new Set(theirs)].sort())
    }
  })

  it("finds Easter Sunday on the dates the Church published", () => {
    // Dates from the tables of the Roman Missal, including both extremes (22 March, 25 April).
    expect(["1818", "1943", "2000", "2019", "2024", "2025", "2026", "2038", "2285"].map((y) => easterSunday(Number(y)))).toEqual([
      "1818-03-22", "1943-04-25", "2000-04-23", "2019-04-21", "2024-03-31", "2025-04-20", "2026-04-05", "2038-04-25", "2285-03-22"
    ])
  })

  it("agrees with brazilian-utils for every year from 2024 (Consciência Negra national) to 2099", () => {
    // Its national list, plus the bank holidays it types `optional`: Carnival
    // Tuesday (and the Monday before it) and Corpus Christi.
    const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
    for (let year = 2024; year <= 2099; year++) {
      const theirs = new Set<string>()
      for (const h of getHolidays(year)) {
        if (h.type === "national") theirs.add(local(h.date))
        if (h.name.startsWith("Carnaval") || h.name === "Corpus Christi") theirs.add(local(h.date))
        if (h.name.startsWith("Carnaval")) theirs.add(local(new Date(h.date.getFullYear(), h.date.getMonth(), h.date.getDate() - 1)))
      }
      expect([...bankHolidays(year)].sort(), String(year)).toEqual([...theirs].sort())
    }
  })

  it("is not a business day on weekends and holidays, is one on any other day", () => {
    expect(isBusinessDay("2026-11-21")).toBe(false) // Saturday
    expect(isBusinessDay("2026-11-22")).toBe(false) // Sunday
    expect(isBusinessDay("2026-04-03")).toBe(false) // Good Friday
    expect(isBusinessDay("2027-03-26")).toBe(false) // Good Friday
    expect(isBusinessDay("2026-04-02")).toBe(true)
    expect(isBusinessDay("2026-12-24")).toBe(true) // Christmas Eve is not a bank holiday
    expect(isBusinessDay("2026-12-31")).toBe(true)
  })

  it("treats Carnival Monday and Tuesday and Corpus Christi as non-business days, Ash Wednesday as one", () => {
    expect(isBusinessDay("2026-02-16")).toBe(false)
    expect(isBusinessDay("2026-02-17")).toBe(false)
    expect(isBusinessDay("2026-02-18")).toBe(true)
    expect(isBusinessDay("2026-06-04")).toBe(false)
    expect(isBusinessDay("2027-05-27")).toBe(false)
  })

  it("distinguishes on-or-after from strictly after", () => {
    expect(businessDayOnOrAfter("2026-11-24")).toBe("2026-11-24")
    expect(nextBusinessDay("2026-11-24")).toBe("2026-11-25")
    expect(businessDayOnOrAfter("2027-02-06")).toBe("2027-02-10") // Saturday before Carnival → Ash Wednesday
    expect(nextBusinessDay("2027-05-26")).toBe("2027-05-28") // Corpus Christi on Thursday 27
    expect(nextBusinessDay("2026-12-31")).toBe("2027-01-04") // over New Year and a weekend
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
    // In 2018 São Paulo still kept daylight saving (UTC-2 in January).
    expect(saoPauloDate(Date.UTC(2018, 0, 15, 1, 59))).toBe("2018-01-14")
    expect(saoPauloDate(Date.UTC(2018, 0, 15, 2, 0))).toBe("2018-01-15")
  })

  it("tells the same date as a fresh formatter for any instant, asked in any order", () => {
    const fresh = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" })
    // 2015 to 2035, with the daylight-saving years; runs of instants inside one hour and across its edges.
    const instant = fc.integer({ min: Date.UTC(2015, 0, 1), max: Date.UTC(2035, 0, 1) })
    fc.assert(fc.property(fc.array(fc.tuple(instant, fc.integer({ min: -3_600_000, max: 3_600_000 })), { minLength: 1, maxLength: 20 }), (asks) => {
      for (const [at, step] of asks) {
        for (const t of [at, at + step]) expect(saoPauloDate(t)).toBe(fresh.format(t))
      }
    }), { numRuns: 300 })
  })
})

const pad = (n: number) => String(n).padStart(2, "0")

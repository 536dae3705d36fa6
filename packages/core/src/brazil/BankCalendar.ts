/**
 * Business days of the Brazilian financial system, in `America/Sao_Paulo`:
 * not Saturday or Sunday, not a national holiday, not a bank holiday
 * (Carnival Monday and Tuesday, Corpus Christi). The holidays come from
 * `date-holidays` (types `public` and `bank` for BR), one set per year, built
 * once and cached: these functions run on the hot path of charge creation.
 */
import Holidays from "date-holidays"
import { addDays, dayOfWeek, toDayNumber } from "./CalendarDate.ts"

export const SAO_PAULO = "America/Sao_Paulo"

const source = new Holidays("BR", { types: ["public", "bank"] })
const byYear = new Map<number, ReadonlySet<string>>()

/** The bank holidays of a year as `YYYY-MM-DD`. */
export const bankHolidays = (year: number): ReadonlySet<string> => {
  let set = byYear.get(year)
  if (set === undefined) {
    set = new Set(
      (source.getHolidays(year) as Array<{ date: string; type: string }>)
        .filter((h) => h.type === "public" || h.type === "bank")
        .map((h) => h.date.slice(0, 10))
    )
    byYear.set(year, set)
  }
  return set
}

/** True when banks work on `date` (`YYYY-MM-DD`). */
export const isBusinessDay = (date: string): boolean => {
  const dow = dayOfWeek(date)
  return dow !== 0 && dow !== 6 && !bankHolidays(Number(date.slice(0, 4))).has(date)
}

/** `date` itself when it is a business day, else the next one. */
export const businessDayOnOrAfter = (date: string): string => {
  let d = date
  while (!isBusinessDay(d)) d = addDays(d, 1)
  return d
}

/** The first business day strictly after `date`. */
export const nextBusinessDay = (date: string): string => businessDayOnOrAfter(addDays(date, 1))

/** `days` business days after `date` (`days` >= 0; 0 gives `businessDayOnOrAfter(date)`). */
export const addBusinessDays = (date: string, days: number): string => {
  let d = businessDayOnOrAfter(date)
  for (let i = 0; i < days; i++) d = nextBusinessDay(d)
  return d
}

/**
 * When money receivable on `date` is credited: a receivable date on a weekend
 * or holiday is kept as it is, and the credit is recognised on the next
 * business day (spec: Versioning 3).
 */
export const creditRecognitionDate = (receivableDate: string): string => businessDayOnOrAfter(receivableDate)

const formatter = new Intl.DateTimeFormat("en-CA", { timeZone: SAO_PAULO, year: "numeric", month: "2-digit", day: "2-digit" })

/** The calendar date in São Paulo at the instant `epochMillis`. */
export const saoPauloDate = (epochMillis: number): string => formatter.format(epochMillis)

/**
 * The last instant of a calendar day in São Paulo. The city has kept UTC−3
 * all year since 2019 (no daylight saving), so it is 03:00 UTC of the next
 * day minus 1 ms.
 */
export const endOfSaoPauloDay = (date: string): Date => new Date((toDayNumber(date)! + 1) * 86_400_000 + 3 * 3_600_000 - 1)

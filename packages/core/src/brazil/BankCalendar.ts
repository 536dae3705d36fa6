/**
 * Business days of the Brazilian financial system, in `America/Sao_Paulo`:
 * not Saturday or Sunday, not a national holiday, not a bank holiday
 * (Carnival Monday and Tuesday, Corpus Christi).
 *
 * The dates come from `date-holidays` (country BR, types `public` and
 * `bank`), kept to the national list by their rule: that package also marks
 * election Sundays as `public`, and a state or city holiday must never stop a
 * nationwide settlement. One set per year, built once and cached: these
 * functions run on the hot path of charge creation.
 *
 * Dates are plain `YYYY-MM-DD` strings (see `CalendarDate.ts`); functions
 * taking one expect a real date: check untrusted text with `toDayNumber`.
 */
import Holidays from "date-holidays"
import { addDays, dayOfWeek, toDayNumber } from "./CalendarDate.ts"

export const SAO_PAULO = "America/Sao_Paulo"

/**
 * The `date-holidays` rules of the national bank holidays: Confraternização
 * Universal, Carnival Monday and Tuesday, Good Friday, Tiradentes, Labour
 * Day, Corpus Christi, Independence, Aparecida, Finados, Proclamação da
 * República, Consciência Negra (national since 2024; the package knows the
 * year) and Christmas.
 */
const NATIONAL_RULES: ReadonlySet<string> = new Set([
  "01-01",
  "easter -48",
  "easter -47",
  "easter -2",
  "04-21",
  "05-01",
  "easter 60",
  "09-07",
  "10-12",
  "11-02",
  "11-15",
  "11-20",
  "12-25"
])

const source = new Holidays("BR", { types: ["public", "bank"] })
const byYear = new Map<number, ReadonlySet<string>>()

/** The national and bank holidays of a year as `YYYY-MM-DD`, weekends included. */
export const bankHolidays = (year: number): ReadonlySet<string> => {
  let set = byYear.get(year)
  if (set === undefined) {
    set = new Set(
      source
        .getHolidays(year)
        .filter((h) => (h.type === "public" || h.type === "bank") && NATIONAL_RULES.has(h.rule))
        .map((h) => h.date.slice(0, 10))
    )
    byYear.set(year, set)
  }
  return set
}

/** True when banks work on `date` (`YYYY-MM-DD`): a weekday that is not a bank holiday. */
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

/** The first business day strictly after `date`, whatever `date` is. */
export const nextBusinessDay = (date: string): string => businessDayOnOrAfter(addDays(date, 1))

/**
 * `days` business days after `date`, counting from `businessDayOnOrAfter(date)`:
 * so 0 gives that day, and from a Saturday 1 gives the Tuesday of a plain
 * week. `days` must be a whole number >= 0.
 */
export const addBusinessDays = (date: string, days: number): string => {
  let d = businessDayOnOrAfter(date)
  for (let i = 0; i < days; i++) d = nextBusinessDay(d)
  return d
}

/**
 * When money receivable on `date` is credited: a receivable date on a weekend
 * or holiday is kept as it is (it is what the merchant sees), and the credit
 * is recognised on the next business day (spec: Versioning 3).
 */
export const creditRecognitionDate = (receivableDate: string): string => businessDayOnOrAfter(receivableDate)

// en-CA formats dates as YYYY-MM-DD.
const formatter = new Intl.DateTimeFormat("en-CA", { timeZone: SAO_PAULO, year: "numeric", month: "2-digit", day: "2-digit" })

let lastHour = Number.NaN
let lastDate = ""

/**
 * The calendar date in São Paulo at the instant `epochMillis`: "today" for
 * charges and settlement. The date of the last hour asked is kept: a billing
 * run asks it for every cycle, and the city's offsets from UTC have always
 * been whole hours, so its date never changes within an hour of UTC.
 */
export const saoPauloDate = (epochMillis: number): string => {
  const hour = Math.floor(epochMillis / 3_600_000)
  if (hour !== lastHour) {
    lastDate = formatter.format(epochMillis)
    lastHour = hour
  }
  return lastDate
}

/**
 * The last instant of a calendar day in São Paulo. The city has kept UTC−3
 * all year since 2019 (no daylight saving), so it is 03:00 UTC of the next
 * day minus 1 ms; were daylight saving to return, this is the one place to
 * change.
 */
export const endOfSaoPauloDay = (date: string): Date => new Date((toDayNumber(date)! + 1) * 86_400_000 + 3 * 3_600_000 - 1)

/** The first instant of a calendar day in São Paulo. */
export const startOfSaoPauloDay = (date: string): Date => new Date(toDayNumber(date)! * 86_400_000 + 3 * 3_600_000)

/**
 * The instant a person means by `text`: a date `YYYY-MM-DD` is its first
 * instant in São Paulo, anything else is read as an ISO 8601 instant; null
 * when it is neither.
 */
export const saoPauloInstant = (text: string): Date | null => {
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? (toDayNumber(text) === undefined ? NaN : startOfSaoPauloDay(text).getTime()) : Date.parse(text)
  return Number.isFinite(at) ? new Date(at) : null
}

/**
 * Business days of the Brazilian financial system, in `America/Sao_Paulo`:
 * not Saturday or Sunday, not a national holiday, not a bank holiday
 * (Carnival Monday and Tuesday, Corpus Christi).
 *
 * The dates are worked out here: eight fixed dates, Consciência Negra from
 * 2024 (Lei 14.759/2023), and four that follow Easter. A state or city
 * holiday never stops a nationwide settlement, and election Sundays are
 * Sundays. The test checks every year from 1990 to 2200 against the
 * `date-holidays` package (country BR, its national and bank rules), which
 * the engine used to load at run time: it carries every country's rules,
 * 35 MB of memory in each process for these thirteen dates. One set per
 * year, built once and cached: these functions run on the hot path of
 * charge creation.
 *
 * Dates are plain `YYYY-MM-DD` strings (see `CalendarDate.ts`); functions
 * taking one expect a real date: check untrusted text with `toDayNumber`.
 */
import { addDays, dayOfWeek, toDayNumber } from "./CalendarDate.ts"

export const SAO_PAULO = "America/Sao_Paulo"

/**
 * Confraternização Universal, Tiradentes, Labour Day, Independence,
 * Aparecida, Finados, Proclamação da República and Christmas.
 */
const FIXED_HOLIDAYS = ["01-01", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "12-25"]

/** Consciência Negra, national since 2024. */
const CONSCIENCIA_NEGRA = { date: "11-20", since: 2024 }

/** Carnival Monday and Tuesday, Good Friday and Corpus Christi: days from Easter Sunday. */
const FROM_EASTER = [-48, -47, -2, 60]

/** Easter Sunday of `year` (Gregorian): the anonymous computus of Meeus, Jones and Butcher. */
export const easterSunday = (year: number): string => {
  const golden = year % 19
  const century = Math.floor(year / 100)
  const epact = (19 * golden + century - Math.floor(century / 4) - Math.floor((century - Math.floor((century + 8) / 25) + 1) / 3) + 15) % 30
  const yearOfCentury = year % 100
  const toSunday = (32 + 2 * (century % 4) + 2 * Math.floor(yearOfCentury / 4) - epact - (yearOfCentury % 4)) % 7
  const correction = Math.floor((golden + 11 * epact + 22 * toSunday) / 451)
  const n = epact + toSunday - 7 * correction + 114
  const [month, day] = [Math.floor(n / 31), (n % 31) + 1].map((part) => String(part).padStart(2, "0"))
  return `${year}-${month}-${day}`
}

const byYear = new Map<number, ReadonlySet<string>>()

/** The national and bank holidays of a year as `YYYY-MM-DD`, weekends included. */
export const bankHolidays = (year: number): ReadonlySet<string> => {
  let set = byYear.get(year)
  if (set === undefined) {
    const easter = easterSunday(year)
    const fixed = year >= CONSCIENCIA_NEGRA.since ? [...FIXED_HOLIDAYS, CONSCIENCIA_NEGRA.date] : FIXED_HOLIDAYS
    set = new Set([...fixed.map((day) => `${year}-${day}`), ...FROM_EASTER.map((days) => addDays(easter, days))])
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

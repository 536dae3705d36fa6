/**
 * The year of the scenarios that run on a sandbox test clock. A test clock
 * only moves forward, so a fixed year would fail every such test once the
 * real date passed it; this one is always ahead of the real date, and its
 * calendar is the one the scenarios' dates were worked out on, 2027's: 1
 * January a Friday and 365 days (2027, 2038, 2049, 2055, ...), so February
 * ends on the 28th and every date falls on the same weekday. Easter (Carnaval,
 * Good Friday, Corpus Christi) moves between such years: a scenario whose
 * expectations depend on it must work them out for the year.
 */

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const hasCalendarOf2027 = (year: number) => new Date(Date.UTC(year, 0, 1)).getUTCDay() === 5 && !isLeap(year)

/** The first year after the real one with 2027's calendar. */
export const scenarioYear = (now: number = Date.now()): number => {
  let year = new Date(now).getUTCFullYear() + 1
  while (!hasCalendarOf2027(year)) year++
  return year
}

/** One advance of a test clock goes at most ten years (`TestClocks`); 3,650 days stay under that. */
const HOP_DAYS = 3_650

/**
 * The `{ days }` advances that bring a clock reading `now` within one advance
 * of `to` (an ISO instant): none while it is less than ten years off, one more
 * for each ten years beyond.
 */
export const hopsTowards = (now: number, to: string): ReadonlyArray<{ readonly days: number }> =>
  Array.from({ length: Math.max(0, Math.ceil((Date.parse(to) - now) / (HOP_DAYS * 86_400_000)) - 1) }, () => ({ days: HOP_DAYS }))

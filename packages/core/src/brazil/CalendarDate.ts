/**
 * Plain calendar dates (`YYYY-MM-DD`) as whole day numbers since the Unix
 * epoch, so date arithmetic never meets a time zone or a daylight change
 * (all through UTC; local time is never read).
 *
 * `toDayNumber` is the gate for untrusted text: it answers `undefined` for
 * anything that is not a real date. The other functions expect real dates
 * (years 1000 to 9999) and are not meant for unchecked input.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DAY = 86_400_000

/** Day number of a `YYYY-MM-DD` date, or `undefined` when it is not a real date. */
export const toDayNumber = (date: string): number | undefined => {
  const m = ISO_DATE.exec(date)
  if (m === null) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const t = Date.UTC(y, mo - 1, d)
  const back = new Date(t)
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined
  return t / DAY
}

/** The `YYYY-MM-DD` of a day number. */
export const fromDayNumber = (day: number): string => new Date(day * DAY).toISOString().slice(0, 10)

/** `date` plus `days` (negative to go back). */
export const addDays = (date: string, days: number): string => fromDayNumber(toDayNumber(date)! + days)

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => toDayNumber(to)! - toDayNumber(from)!

/** Day of week of a date, 0 = Sunday. */
export const dayOfWeek = (date: string): number => (toDayNumber(date)! + 4) % 7 // 1970-01-01 was a Thursday

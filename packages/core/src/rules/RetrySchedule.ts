/**
 * What follows a refused card on a renewal (cycle 2 onwards, or the first
 * charge after a free period): the days of the automatic retries, then a
 * dunning window in which only a manual retry or a new card can save the
 * cycle, then the end.
 *
 * The anchors: Kill Bill retries every 8 days three times; Stripe's smart
 * retries make up to 4 attempts within 2 weeks by default. We retry 3, 5 and
 * 7 days after each refusal (days 3, 8 and 15 after the due date: never the
 * next day, as the spec asks of a refused first card, and every retry lands
 * on a different weekday), then wait 7 days of dunning (day 22) before the
 * cycle fails and the subscription is canceled for default. A checkout's
 * own first charge is never retried (spec, Versioning 3).
 */
import { addDays } from "../brazil/CalendarDate.ts"

/** Days from each refused automatic attempt to the next one. */
export const RETRY_GAPS_DAYS: ReadonlyArray<number> = [3, 5, 7]

/** Days of dunning after the last automatic attempt was refused. */
export const DUNNING_DAYS = 7

/** Where a cycle goes after its automatic attempt number `attempt` (1 = the due date's) was refused on `today`. */
export type AfterRefusal =
  | { readonly status: "RETRY_SCHEDULED"; readonly nextAttemptOn: string }
  | { readonly status: "DUNNING"; readonly nextAttemptOn: string }

export const afterRefusal = (attempt: number, today: string): AfterRefusal => {
  const gap = RETRY_GAPS_DAYS[attempt - 1]
  return gap === undefined
    ? { status: "DUNNING", nextAttemptOn: addDays(today, DUNNING_DAYS) }
    : { status: "RETRY_SCHEDULED", nextAttemptOn: addDays(today, gap) }
}

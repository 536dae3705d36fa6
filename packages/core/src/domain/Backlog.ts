/**
 * A queue's waiting work as the metrics report it: the items due, counted up
 * to a cap (a scrape must stay cheap with a million due: past the cap the
 * gauge reads the cap), and when the oldest of them came due (a
 * `YYYY-MM-DD` day, São Paulo, or an ISO instant), or null when none waits.
 */
export interface Backlog {
  readonly due: number
  readonly oldest: string | null
}

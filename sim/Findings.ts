/**
 * Engine issues the simulator found and that are not fixed yet: each has an
 * id, what breaks, and the fix proposed. An invariant reports an occurrence
 * of one as a violation whose detail starts with `[known:<id>]`; a run keeps
 * those apart (`known` in its result, counted in the CLI's report) and
 * fails only on the others, so that one open issue does not hide the next.
 * When an issue is fixed, its entry and the invariant's special case go,
 * and its occurrences become plain violations again if it comes back.
 */
import type { Violation } from "./Invariants.ts"

export interface Finding {
  readonly id: string
  readonly summary: string
  readonly fix: string
}

/**
 * None open. Fixed since they were found (each with its engine test):
 * `statement-devolucoes` (a PSP's statement of a day missed the devoluções
 * of earlier days' Pix), `first-card-cycle-unknown` (a subscription's first
 * card cycle whose authorization went unanswered expired behind a captured
 * payment), a renewal whose answer was lost expired and charged again,
 * `statement-of-every-account` (a production account's reconciliation
 * listed every Pix of the operator's key), `refund-posting-time` (a
 * devolução answered after midnight posted on the wrong day),
 * `cancel-card-in-flight` (a subscription's cancel hid a renewal the
 * acquirer then approved), `paid-at-other-psp` (a charge paid at a PSP's
 * late copy refunded at the PSP it had moved to), `return-window` (a Pix
 * refunded more than 90 days after its settlement, which no PSP returns and
 * no statement read 90 days back lists), `split-within-net` (a cycle
 * whose net no longer fitted its split, never issued),
 * `close-before-expiry` (a Pix paid while its PSP was down, its callback
 * lost, expired here and never credited); and, never registered here since
 * the run stopped on them, a Pix paid the instant its PSP registered it then
 * canceled with its subscription and never credited, and a card renewal the
 * acquirer did not answer never marked overdue.
 */
export const FINDINGS: ReadonlyArray<Finding> = []

const KNOWN = /^\[known:([a-z-]+)\] /

/** The id of the known issue a violation is an occurrence of, if any. */
export const knownIssueOf = (violation: Violation): string | undefined => KNOWN.exec(violation.detail)?.[1]

/** Violations apart from the occurrences of known issues. */
export const splitKnown = (violations: ReadonlyArray<Violation>) => ({
  violations: violations.filter((v) => knownIssueOf(v) === undefined),
  known: violations.filter((v) => knownIssueOf(v) !== undefined)
})

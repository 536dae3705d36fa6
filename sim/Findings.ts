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
 * Open: `refund-posting-time`. Fixed since they were found:
 * `statement-devolucoes` (a PSP's statement of a day missed the devoluções
 * of earlier days' Pix) and `first-card-cycle-unknown` (a subscription's
 * first card cycle whose authorization went unanswered expired behind a
 * captured payment).
 */
export const FINDINGS: ReadonlyArray<Finding> = [
  {
    id: "refund-posting-time",
    summary:
      "a Pix refund is posted to the ledger (REFUND_SETTLED, its rail line) when the engine records the PSP's answer, not when the SPI settled the devolução: " +
      "answered on a later São Paulo day (the process died between the PSP's answer and its record, so the refund waited for its claim's lease and the next pass; " +
      "or a devolução EM_PROCESSAMENTO asked again after midnight), Billing.reconciliation shows it missing in the ledger on the PSP's day and missing at the PSP on the ledger's day",
    fix: "carry the settlement instant in the port's answer (`PayoutAnswer.Paid.at`: the devolução's `horario.liquidacao`, Efí's `horario`) and post the refund's rail line at it, " +
      "as a received Pix is posted at its `horario`"
  }
]

const KNOWN = /^\[known:([a-z-]+)\] /

/** The id of the known issue a violation is an occurrence of, if any. */
export const knownIssueOf = (violation: Violation): string | undefined => KNOWN.exec(violation.detail)?.[1]

/** Violations apart from the occurrences of known issues. */
export const splitKnown = (violations: ReadonlyArray<Violation>) => ({
  violations: violations.filter((v) => knownIssueOf(v) === undefined),
  known: violations.filter((v) => knownIssueOf(v) !== undefined)
})

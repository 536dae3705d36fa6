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
 * Open: `refund-posting-time`, `cancel-card-in-flight`, `paid-at-other-psp`, `statement-of-every-account`. Fixed since they were found:
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
  },
  {
    id: "cancel-card-in-flight",
    summary:
      "canceling a subscription at once (`cancelSubscription`, and the dunning end's and period end's `cancelNow`) cancels its open charges with " +
      "`Charges.cancelOpenOfSubscription`, a production card charge left PROCESSING by an unanswered authorization included: when the acquirer then approves it " +
      "(a payment in review), the buyer is charged and the charge stays CANCELED, for the stalled-card job and `resolveCardOutcomes` only look at PROCESSING charges; nothing refunds it",
    fix: "leave a card charge awaiting its acquirer out of `cancelOpenOfSubscription` (its job records the answer: an approval is then paid and refundable, a refusal fails it), " +
      "or let the stalled-card job also look up CANCELED card charges canceled while in flight and refund an approval through `Acquirer.refund`"
  },
  {
    id: "paid-at-other-psp",
    summary:
      "a charge whose creation timed out at the first PSP, which could not then say whether it held it, moves to the second PSP and records it; the copy left at the first " +
      "(registered after all) is watched only in memory and for two minutes, so when its payer pays it (here, before the first PSP's answer was lost) the Pix confirms the " +
      "charge by its txid (the poll), but the charge keeps recording the second PSP: its refunds go there and fail (PixNaoEncontrado), and its copy there stays payable",
    fix: "record on the charge the PSP that received the Pix confirming it (`ReceivedPix` naming its PSP: the callback route and the poll know which), so that refunds go " +
      "where the money is; and take the other copy off sale (`removeCob`) once the charge is paid"
  },
  {
    id: "statement-of-every-account",
    summary:
      "`Billing.reconciliation` of a production account compares its ledger with `PixProvider.statement({ account })`, but the PSP port (`PixProviderPsp.statement`, " +
      "`GET /pix` of the operator's key) ignores `account` and lists every Pix the PSP received: with a second production account (a sub-account receiving splits, " +
      "or a second merchant) each account's report lists the other's Pix and devoluções as missing in its ledger, every day, so the report can never reconcile",
    fix: "keep in the statement only the Pix whose txid is one of the account's charges (and their devoluções), e.g. `statementOf` filtered by the account's txids " +
      "from `Charges`, or reconcile at the operator's level (the sum of every account's rail movements against the PSP's statement)"
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

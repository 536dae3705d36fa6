/**
 * Posting to the ledger: entries get their ids (and their lines', the
 * statement's `txn_` ids) and are appended through the `Ledger` port, in the
 * caller's transaction.
 */
import { Effect } from "effect"
import type { EntryDraft } from "../domain/Ledger.ts"
import { Ids } from "../ports/Ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { JournalEntryIds, LedgerLineIds } from "../domain/Ids.ts"

/**
 * Whether ids made for what `reference` (an engine id) records are sandbox
 * ones: the ledger's ids follow the environment of the charge or withdrawal
 * they move money for (spec: General rule 5).
 */
export const isSandboxReference = (reference: string): boolean => reference.startsWith("SANDBOX_")

/** Appends `entries` at `at`; each answer says whether its entry was new (not posted before). */
export const postEntries = Effect.fn("Ledger.post")(function*(entries: ReadonlyArray<EntryDraft>, at: Date) {
  if (entries.length === 0) return []
  const ids = yield* Ids
  const toPost = yield* Effect.forEach(entries, (entry) =>
    Effect.gen(function*() {
      const sandbox = isSandboxReference(entry.referenceId)
      const id = yield* ids.make(JournalEntryIds, { sandbox })
      const lineIds = yield* Effect.forEach(entry.lines, () => ids.make(LedgerLineIds, { sandbox }))
      return { ...entry, id, lineIds }
    }))
  return yield* (yield* Ledger).post(toPost, at)
})

/** The accounts whose available balance `entries` credit: the ones that may now pay their debts. */
export const creditedHolders = (entries: ReadonlyArray<EntryDraft>): ReadonlyArray<string> => [
  ...new Set(entries.flatMap((entry) => entry.lines.filter((l) => l.book === "AVAILABLE" && l.amount > 0).map((l) => l.holder)))
]

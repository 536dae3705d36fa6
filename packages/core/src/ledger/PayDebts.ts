/**
 * Split debts are paid automatically from the debtor's next credits: after a
 * credit, what the holder has available pays its pending debts, oldest
 * first, as one entry from its `AVAILABLE` book to its `DEBT` book.
 */
import { Effect } from "effect"
import { type Cents, cents } from "../money/Money.ts"
import { Ids } from "../ports/Ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { Refunds, type SplitDebt } from "../ports/Refunds.ts"
import { debtSettlementPosting } from "../rules/Postings.ts"
import { isSandboxReference, postEntries } from "./PostEntries.ts"

/** What `available` pays of `debts` (oldest first): each debt's remaining after it. */
export const payOldestFirst = (debts: ReadonlyArray<SplitDebt>, available: Cents) => {
  let left: number = available
  return debts.flatMap((debt) => {
    const paid = Math.min(left, debt.remaining)
    left -= paid
    return paid === 0 ? [] : [{ id: debt.id, paid: cents(paid), remaining: cents(debt.remaining - paid) }]
  })
}

/** Pays the pending split debts of `holders` from their available balances; call in the transaction that credited them. */
export const payDebtsFrom = Effect.fn("Ledger.payDebtsFrom")(function*(holders: ReadonlyArray<string>, at: Date) {
  if (holders.length === 0) return
  const refunds = yield* Refunds
  const debts = yield* refunds.lockPendingDebts([...new Set(holders)].sort())
  if (debts.length === 0) return
  const ledger = yield* Ledger
  const ids = yield* Ids
  const byHolder = Map.groupBy(debts, (debt) => debt.holder)
  for (const [holder, owed] of byHolder) {
    const payments = payOldestFirst(owed, yield* ledger.lockBalance(holder, "AVAILABLE"))
    const total = cents(payments.reduce((sum, p) => sum + p.paid, 0))
    if (total === 0) continue
    const reference = yield* ids.make("dsp", { sandbox: isSandboxReference(owed[0]!.id) })
    yield* postEntries([debtSettlementPosting(holder, total, reference)], at)
    yield* refunds.payDebts(payments, at)
  }
})

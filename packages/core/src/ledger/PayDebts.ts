/**
 * Split debts are paid automatically from the debtor's next credits: after a
 * credit, what the holder has available pays its pending debts, oldest
 * first, as one entry from its `AVAILABLE` book to its `DEBT` book.
 */
import { Effect } from "effect"
import { sumCents } from "../money/Money.ts"
import { Ids } from "../ports/Ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { Refunds } from "../ports/Refunds.ts"
import { debtSettlementPosting, takeInOrder } from "../rules/Postings.ts"
import { isSandboxReference, postEntries } from "./PostEntries.ts"
import { DebtPaymentIds } from "../domain/Ids.ts"

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
    const payments = takeInOrder(owed, yield* ledger.lockBalance(holder, "AVAILABLE"))
    if (payments.length === 0) continue
    // One entry per kind of debt paid, so the statement names each under its own category (an opening fee is a FEE).
    for (const [category, paid] of Map.groupBy(payments, (p) => p.category)) {
      const reference = yield* ids.make(DebtPaymentIds, { sandbox: isSandboxReference(owed[0]!.id) })
      yield* postEntries([debtSettlementPosting(holder, sumCents(paid.map((p) => p.paid)), reference, category)], at)
    }
    yield* refunds.payDebts(payments, at)
  }
})

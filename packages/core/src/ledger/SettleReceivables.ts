/**
 * Worker step: the boleto and card credits whose day came (São Paulo) move
 * from each holder's `RECEIVABLE` book to its `AVAILABLE` one, claimed in
 * batches with `SKIP LOCKED` and posted in the transaction that marks them
 * settled; a holder who owes split debts pays them from the credit.
 */
import { Clock, Effect } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { Ledger } from "../ports/Ledger.ts"
import { Transactor } from "../ports/Transactor.ts"
import { receivableSettlement } from "../rules/Postings.ts"
import { payDebtsFrom } from "./PayDebts.ts"
import { creditedHolders, postEntries } from "./PostEntries.ts"

export const settleDueReceivables = Effect.fn("Ledger.settleDueReceivables")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const now = yield* Clock.currentTimeMillis
  const at = new Date(now)
  const ledger = yield* Ledger
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const due = yield* ledger.settleDue(saoPauloDate(now), limit, scope, at)
    // A receivable a refund took whole settles nothing.
    const entries = due.filter((receivable) => receivable.amount > 0).map((receivable) => receivableSettlement(receivable, receivable.subscriptionId))
    yield* postEntries(entries, at)
    yield* payDebtsFrom(creditedHolders(entries), at)
    return due.length
  }))
})

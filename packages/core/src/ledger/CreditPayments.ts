/**
 * A confirmed payment moves money: the gross to the charge's owner, our fee,
 * the split parts to their receivers (`rules/Postings.ts`). Called in the
 * transaction that marks the charges paid, so a charge is never `PAID`
 * without its credit, nor credited twice (an entry per charge, unique). A
 * holder credited who owes split debts pays them from the credit.
 */
import { Effect } from "effect"
import type { Charge } from "../domain/Charge.ts"
import type { Counterparty } from "../domain/Ledger.ts"
import { Ids } from "../ports/Ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { paymentPosting } from "../rules/Postings.ts"
import { payDebtsFrom } from "./PayDebts.ts"
import { creditedHolders, isSandboxReference, postEntries } from "./PostEntries.ts"
import { ReceivableIds } from "../domain/Ids.ts"

/** The Pix payer as the other side of the statement line. */
const payerOf = (charge: Charge): Counterparty | null =>
  charge.payer === null ? null : { name: charge.payer.name, bank: charge.payer.bank, taxId: charge.payer.taxId, account: charge.payer.account }

/** Credits the paid `charges` (each paid at its `paidAt`, or `at`). */
export const creditPayments = Effect.fn("Ledger.creditPayments")(function*(charges: ReadonlyArray<Charge>, at: Date) {
  if (charges.length === 0) return
  const postings = charges.map((charge) => paymentPosting(charge, charge.paidAt ?? at, payerOf(charge)))
  const posted = yield* postEntries(postings.map((p) => p.entry), at)
  // A charge credited before (its entry exists) brings nothing new.
  const fresh = postings.filter((_, i) => posted[i])
  const ids = yield* Ids
  const receivables = yield* Effect.forEach(fresh.flatMap((p) => p.receivables), (receivable) =>
    Effect.map(ids.make(ReceivableIds, { sandbox: isSandboxReference(receivable.chargeId) }), (id) => ({ ...receivable, id })))
  yield* (yield* Ledger).insertReceivables(receivables)
  yield* payDebtsFrom(creditedHolders(fresh.map((p) => p.entry)), at)
})

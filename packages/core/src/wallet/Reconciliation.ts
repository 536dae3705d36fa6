/**
 * `GET /v1/wallet/reconciliation?date=YYYY-MM-DD`: the ledger against the
 * account's part of the Pix provider's statement for one São Paulo day.
 * Every Pix the ledger says crossed the rails (a payment in, a withdrawal
 * or transfer out, a refund or MED return out) is matched to the provider's
 * entry by its SPI id; what one side has and the other has not, and what
 * both have with different amounts or directions, is listed.
 */
import { Clock, Effect } from "effect"
import { saoPauloDate, startOfSaoPauloDay } from "../brazil/BankCalendar.ts"
import { addDays, toDayNumber } from "../brazil/CalendarDate.ts"
import { invalidData } from "../domain/Errors.ts"
import type { AccountId } from "../domain/Ids.ts"
import type { ReconciliationQuery } from "../domain/WalletViews.ts"
import { sumCents } from "../money/Money.ts"
import { Charges } from "../ports/Charges.ts"
import { Ledger } from "../ports/Ledger.ts"
import { PixProvider, type PspEntry } from "../ports/PixProvider.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { walletAccount } from "./WalletAccount.ts"

/** What each side has that the other has not, and what both have differently (pure; the law of the route). */
const reconcile = (ledger: ReadonlyArray<PspEntry>, provider: ReadonlyArray<PspEntry>) => {
  const theirs = new Map(provider.map((entry) => [entry.endToEndId, entry]))
  const ours = new Map(ledger.map((entry) => [entry.endToEndId, entry]))
  const differing = ledger.flatMap((mine) => {
    const other = theirs.get(mine.endToEndId)
    return other !== undefined && (other.amount !== mine.amount || other.direction !== mine.direction)
      ? [{ endToEndId: mine.endToEndId, ledger: mine, provider: other }]
      : []
  })
  return {
    matched: ledger.filter((mine) => theirs.has(mine.endToEndId)).length - differing.length,
    missingInProvider: ledger.filter((mine) => !theirs.has(mine.endToEndId)),
    missingInLedger: provider.filter((other) => !ours.has(other.endToEndId)),
    differing
  }
}

const totals = (entries: ReadonlyArray<PspEntry>) => ({
  count: entries.length,
  credits: sumCents(entries.filter((e) => e.direction === "CREDIT").map((e) => e.amount)),
  debits: sumCents(entries.filter((e) => e.direction === "DEBIT").map((e) => e.amount))
})

/**
 * The provider's entries that are the account's: every one of a statement
 * that is the account's own; of one that names each entry's charge (a PSP's,
 * listing every Pix of the operator's key), those of the account's charges.
 */
const ownEntries = Effect.fnUntraced(function*(accountId: AccountId, entries: ReadonlyArray<PspEntry>) {
  if (entries.every((entry) => entry.txid === undefined)) return entries
  const named = [...new Set(entries.flatMap((entry) => (entry.txid == null ? [] : [entry.txid])))]
  const own = new Set(yield* (yield* Charges).pixTxidsOf(accountId, named))
  return entries.flatMap(({ txid, ...entry }) => (txid != null && own.has(txid) ? [entry] : []))
})

export const reconciliation = Effect.fn("Wallet.reconciliation")(function*(query: ReconciliationQuery) {
  const account = yield* walletAccount(query.accountId)
  const date = query.date ?? saoPauloDate(yield* Clock.currentTimeMillis)
  if (toDayNumber(date) === undefined) return yield* invalidData("date", "date must be a date, YYYY-MM-DD")
  // The sandbox PSP's statement says nothing of a production account's real one.
  yield* requireProvider(account, "pix")
  const [from, to] = [startOfSaoPauloDay(date), startOfSaoPauloDay(addDays(date, 1))]
  const ledger = yield* (yield* Ledger).railMovements(account.id, from, to)
  const statement = yield* (yield* PixProvider).statement({ account, from, to }).pipe(
    Effect.mapError((e) => new ProviderUnavailable({ message: `Extrato do provedor PIX indisponível: ${e.message}`, details: null }))
  )
  const provider = yield* ownEntries(account.id, statement)
  const result = reconcile(ledger, provider)
  return {
    accountId: account.number,
    date,
    ledger: totals(ledger),
    provider: totals(provider),
    matched: result.matched,
    reconciled: result.missingInLedger.length === 0 && result.missingInProvider.length === 0 && result.differing.length === 0,
    missingInProvider: result.missingInProvider,
    missingInLedger: result.missingInLedger,
    differing: result.differing
  }
})

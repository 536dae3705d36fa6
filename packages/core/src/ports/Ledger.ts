/**
 * Storage of the ledger. Posting appends entries and their lines; the
 * database keeps each account's book balances as the lines arrive, refuses
 * an entry that does not balance or a balance below zero, and never lets a
 * line change.
 */
import type { PspEntry } from "./PixProvider.ts"
import { Context, type Effect, type Option } from "effect"
import type { RunScope } from "../domain/RunScope.ts"
import type { AccountBook, EntryDraft, LedgerCategory, LedgerLine, Receivable, WalletBalance } from "../domain/Ledger.ts"
import type { Cents } from "../money/Money.ts"
import type { ReceivableTaken } from "../domain/Refund.ts"
import type { AccountId, ChargeId, JournalEntryId, LedgerLineId, SubscriptionId } from "../domain/Ids.ts"

/** A journal entry with its id and each line's id, ready to append. */
export interface EntryToPost extends EntryDraft {
  readonly id: JournalEntryId
  readonly lineIds: ReadonlyArray<LedgerLineId>
}

/** The filters of a statement page, each `null` when not applied; newest first, before `beforeSeq`. */
export interface StatementFilter {
  readonly direction: "CREDIT" | "DEBIT" | null
  readonly category: LedgerCategory | null
  readonly from: Date | null
  readonly to: Date | null
  readonly limit: number
  /** The cursor of the previous page: the position of its last line. */
  readonly beforeSeq: string | null
}

export interface StatementPage {
  readonly lines: ReadonlyArray<LedgerLine & { readonly seq: string }>
  readonly hasMore: boolean
}

export class Ledger extends Context.Service<Ledger, {
  /**
   * Appends `entries` at `at`. An entry whose (kind, reference) was posted
   * already is skipped (and answered false), so posting is idempotent.
   * Call in a transaction: a balance that would go below zero aborts it.
   */
  readonly post: (entries: ReadonlyArray<EntryToPost>, at: Date) => Effect.Effect<ReadonlyArray<boolean>>
  /** Each account's balances; zero for an account that never moved money. */
  readonly balances: (accountIds: ReadonlyArray<AccountId>) => Effect.Effect<ReadonlyMap<string, WalletBalance>>
  /**
   * The balance of one book of `accountId`, locked until the transaction
   * ends: two withdrawals of one account wait for each other. Lock an
   * entry's accounts in id order. Call in a transaction.
   */
  readonly lockBalance: (accountId: AccountId, book: AccountBook) => Effect.Effect<Cents>
  /**
   * Locks every book of `holders` until the transaction ends, in the order
   * every posting takes them (holder, then book): a transaction that will
   * post for several accounts one after the other takes them all first, so
   * two such transactions never wait for each other in a circle.
   */
  readonly lockBooks: (holders: ReadonlyArray<string>) => Effect.Effect<void>
  readonly statement: (accountId: AccountId, filter: StatementFilter) => Effect.Effect<StatementPage>
  /** Sets the merchant's note on one of its statement lines; the line, or none when it is not one of the account's. */
  readonly setNote: (accountId: AccountId, lineId: LedgerLineId, note: string, at: Date) => Effect.Effect<Option.Option<LedgerLine>>
  readonly insertReceivables: (receivables: ReadonlyArray<Receivable>) => Effect.Effect<void>
  /**
   * Claims up to `limit` receivables due on or before `day` (São Paulo) and
   * marks them settled at `at`, skipping rows another worker holds. Call in
   * the transaction that posts their settlement.
   */
  readonly settleDue: (day: string, limit: number, scope: RunScope, at: Date) => Effect.Effect<ReadonlyArray<Receivable & { readonly subscriptionId: SubscriptionId | null }>>
  /**
   * The Pix the ledger says crossed the rails for `accountId` between `from`
   * (inclusive) and `to` (exclusive): its clearing lines that carry the
   * SPI's id, money in as `CREDIT`, out as `DEBIT`, in the shape of the
   * provider's own statement.
   */
  readonly railMovements: (accountId: AccountId, from: Date, to: Date) => Effect.Effect<ReadonlyArray<PspEntry>>
  /**
   * Takes up to `amount` from the holder's unsettled receivables of the
   * charge, newest installment first (a refund of a card not settled yet),
   * the rows locked until the transaction ends; what it took of each.
   */
  readonly takeReceivables: (holder: string, chargeId: ChargeId, amount: Cents) => Effect.Effect<ReadonlyArray<ReceivableTaken>>
  /** Gives back what a refused refund took; the receivables it went back to (those settled meanwhile are left out). */
  readonly restoreReceivables: (taken: ReadonlyArray<ReceivableTaken>) => Effect.Effect<ReadonlyArray<ReceivableTaken>>
  /** What `accountId` will receive on each day from `from` to `to` (inclusive), unsettled receivables summed by day. */
  readonly receivableDays: (accountId: AccountId, from: string, to: string) => Effect.Effect<ReadonlyArray<{
    readonly day: string
    readonly amount: Cents
    readonly count: number
  }>>
  /** The unsettled receivables of `accountId` on `day`, at most `limit`, by charge. */
  readonly receivablesOn: (accountId: AccountId, day: string, limit: number) => Effect.Effect<ReadonlyArray<Receivable>>
}>()("@billing/core/ports/Ledger") {}

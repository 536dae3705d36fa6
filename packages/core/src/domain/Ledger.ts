/**
 * The wallet's double-entry ledger: every movement of money is one journal
 * entry of lines that sum to zero, each line moving one book of one holder.
 * The lines of an account's `AVAILABLE`, `RETAINED` and `DEBT` books are its
 * statement (the spec's wallet transactions; a line's `balanceAfter` is its
 * book's: a retained line's the amount still blocked, a debt line's what the
 * account still owes, negative); the one definition of a line, from which
 * the stored row and the statement view derive.
 */
import { Schema } from "effect"
import { Cents } from "../money/Money.ts"
import { PaymentType } from "./Charge.ts"
import { AccountId, ChargeId, JournalEntryId, LedgerLineId, ReceivableId, SubscriptionId } from "./Ids.ts"

/** The holder of the house's books: the rails (clearing), our fees, payouts in flight. */
export const HOUSE = "HOUSE"

/**
 * Books of an account: what it can spend now (`AVAILABLE`), what it will
 * receive on a known day (`RECEIVABLE`: boleto and card credits), what is
 * blocked while a Pix return is examined (`RETAINED`), and what it owes for
 * split reversals it could not pay (`DEBT`, never above zero). Books of
 * the house: `CLEARING` (money in and out of the rails), `FEES` (our income),
 * `PAYOUTS` (withdrawals sent, not yet settled by the provider).
 */
export const AccountBooks = ["AVAILABLE", "RECEIVABLE", "RETAINED", "DEBT"] as const
export type AccountBook = typeof AccountBooks[number]
export const HouseBooks = ["CLEARING", "FEES", "PAYOUTS"] as const
export const Book = Schema.Literals([...AccountBooks, ...HouseBooks])
export type Book = typeof Book.Type

/** What a movement was, as the statement's `category` says (spec: Wallet transaction; the provider's list). */
export const LedgerCategories = [
  "PAYMENT", "PIX_IN", "PIX_OUT", "WITHDRAWAL", "REFUND", "FEE", "TRANSFER", "BOLETO_IN", "CARD_IN",
  "MED_BLOCK", "MED_RELEASE", "MED_RETURN", "CHARGEBACK"
] as const
export const LedgerCategory = Schema.Literals(LedgerCategories)
export type LedgerCategory = typeof LedgerCategories[number]

/** What a journal entry records; with its reference, unique: nothing is posted twice. */
export const EntryKinds = [
  "PAYMENT", "RECEIVABLE_SETTLED", "PIX_SENT", "PIX_SENT_SETTLED", "PIX_SENT_RETURNED",
  "REFUND", "REFUND_SETTLED", "REFUND_RETURNED", "DEBT_SETTLED", "MED_BLOCK", "MED_RELEASE", "MED_RETURN", "OPENING_FEE"
] as const
export type EntryKind = typeof EntryKinds[number]

/** The other side of a movement, when known (a Pix payer, a split's payer or receiver). */
export const Counterparty = Schema.Struct({
  name: Schema.String,
  bank: Schema.String,
  taxId: Schema.String,
  account: Schema.String
})
export type Counterparty = typeof Counterparty.Type

/**
 * One line of a journal entry. `amount` is signed: positive moves money into
 * the book, negative out of it. `balanceAfter` is the book's balance after
 * this line (the database computes it); null on the house's books, which keep
 * no running balance.
 */
export const LedgerLine = Schema.Struct({
  id: LedgerLineId,
  entryId: JournalEntryId,
  holder: Schema.String,
  book: Book,
  amount: Cents,
  balanceAfter: Schema.NullOr(Cents),
  category: LedgerCategory,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  paymentMethod: Schema.NullOr(PaymentType),
  chargeId: Schema.NullOr(ChargeId),
  subscriptionId: Schema.NullOr(SubscriptionId),
  endToEndId: Schema.NullOr(Schema.String),
  counterparty: Schema.NullOr(Counterparty),
  /** The withdrawal, receivable or charge the movement belongs to. */
  referenceId: Schema.NullOr(Schema.String),
  /** The merchant's own note (`PATCH /v1/wallet/transactions/{id}`), kept beside the line. */
  note: Schema.NullOr(Schema.String),
  createdAt: Schema.Date
}).annotate({ identifier: "LedgerLine" })
export type LedgerLine = typeof LedgerLine.Type

/** A line to post: everything but what the entry and the database give it. */
export type LineDraft = Omit<LedgerLine, "id" | "entryId" | "balanceAfter" | "note" | "createdAt">

/** A journal entry to post: its lines must sum to zero (the database refuses otherwise). */
export interface EntryDraft {
  readonly kind: EntryKind
  /** The account the movement is for (a payment's owner, the account that sent or refunded): whose rails statement it belongs to. */
  readonly accountId: AccountId
  readonly referenceId: string
  readonly lines: ReadonlyArray<LineDraft>
}

/** Money a holder receives on a day: a boleto's or one card installment's net share. */
export const Receivable = Schema.Struct({
  id: ReceivableId,
  /** Always an account: the house receives nothing later (its fee is taken at payment). */
  holder: AccountId,
  chargeId: ChargeId,
  installment: Schema.Int,
  amount: Cents,
  paymentMethod: Schema.Literals(["BOLETO", "CREDIT_CARD"]),
  /** `YYYY-MM-DD`: the first business day on or after the scheduled day. */
  settlesOn: Schema.String
}).annotate({ identifier: "Receivable" })
export type Receivable = typeof Receivable.Type

/** An account's balances (cents): spendable now, to be received, blocked, and owed (zero or negative). */
export interface WalletBalance {
  readonly available: Cents
  readonly receivable: Cents
  readonly retained: Cents
  readonly debt: Cents
}

/**
 * Pix sent out of an account (spec: Wallet, Limits): withdrawals to a key of
 * the account's own holder (`POST /v1/wallet/withdraw`) and transfers to a
 * third party's key (the provider's `POST /v1/wallet/pix-transfer`), looked
 * up in the DICT (`POST /v1/wallet/dict`). Either costs the account's
 * transfer fee (0.47 by default) and counts against its daily limit (3,000
 * by default, São Paulo day). Amount and fee leave the available balance
 * when it is requested, in one transaction that holds the balance's lock, so
 * concurrent sends can never together spend more than there is. The worker
 * then pays it out through the Pix provider: `COMPLETED`, or `FAILED` with
 * the money back.
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { normalizeDocument } from "../brazil/Documents.ts"
import type { Account } from "../domain/Account.ts"
import { invalidData } from "../domain/Errors.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import type { Counterparty } from "../domain/Ledger.ts"
import { type DictRequest, toWithdrawalView, type WithdrawalListQuery, type WithdrawRequest } from "../domain/WalletViews.ts"
import {
  DailyLimitExceeded,
  InsufficientBalance,
  OwnershipMismatch,
  type PixKey,
  PixKeyNotFound,
  normalizePixKey,
  type Withdrawal
} from "../domain/Withdrawal.ts"
import { postEntries } from "../ledger/PostEntries.ts"
import { keysetPagination, pageLimit } from "../domain/Pagination.ts"
import { type Cents, cents, toDecimalString } from "../money/Money.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Ids } from "../ports/Ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { PixClaims } from "../ports/PixClaims.ts"
import { PixProvider } from "../ports/PixProvider.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Withdrawals } from "../ports/Withdrawals.ts"
import { DEFAULT_DAILY_TRANSFER_LIMIT, DEFAULT_PIX_TRANSFER_FEE } from "../rules/Fees.ts"
import { pixSendPosting, pixSendReturnedPosting, pixSendSettledPosting } from "../rules/Postings.ts"
import { WithdrawalTransitions } from "../rules/WithdrawalTransitions.ts"
import { walletAccount } from "./WalletAccount.ts"
import { handingBackOnInterrupt } from "../jobs/HandBack.ts"
import { type AccountId, TransferIds, WithdrawalIds } from "../domain/Ids.ts"

/** How long a worker holds the withdrawals it is paying out before another may take them. */
export const PAYOUT_LEASE_MILLIS = 60_000

/** Each account's transfer fee and daily limit: what an operator set, else the spec's defaults. */
export const transferLimitsOf = Effect.fn("Wallet.transferLimitsOf")(function*(accountIds: ReadonlyArray<AccountId>) {
  const set = yield* (yield* Withdrawals).limits(accountIds)
  const defaults = { dailyLimit: DEFAULT_DAILY_TRANSFER_LIMIT, fee: DEFAULT_PIX_TRANSFER_FEE }
  return new Map(accountIds.map((id) => [id, set.get(id) ?? defaults]))
})

/** The account's transfer fee and daily limit. */
export const transferLimits = (accountId: AccountId) => Effect.map(transferLimitsOf([accountId]), (limits) => limits.get(accountId)!)

/** 400 `OWNERSHIP_MISMATCH`: the key is not the account holder's. */
export const notTheHolders = () => new OwnershipMismatch({ message: "A chave PIX nao pertence ao titular da conta", details: null })

/** The key in its canonical form, or `INVALID_DATA` naming `pixKey`. */
export const parseKey = (request: { readonly pixKey: string; readonly pixKeyType: PixKey["type"] }) => {
  const value = normalizePixKey(request.pixKeyType, request.pixKey)
  return value === undefined
    ? Effect.fail(invalidData("pixKey", `pixKey is not a valid ${request.pixKeyType} key`))
    : Effect.succeed<PixKey>({ type: request.pixKeyType, value })
}

/** The key's holder in the DICT, asked for `account`; an unreachable provider counts as unknown. */
const holderOf = (account: Account, key: PixKey) =>
  Effect.flatMap(PixProvider, (provider) => provider.lookupKey(account, key).pipe(Effect.orElseSucceed(() => Option.none())))

/**
 * The key, checked to be one of `account`'s holder: its CPF or CNPJ, the
 * account's own registered key, a key it claimed by portability, or a key
 * the DICT says its holder holds.
 */
const ownKey = Effect.fn("Wallet.ownKey")(function*(account: Account, request: WithdrawRequest) {
  const key = yield* parseKey(request)
  if (request.documentNumber !== undefined && normalizeDocument(request.documentNumber) !== account.document) return yield* notTheHolders()
  if (key.value === account.document || key.value === account.pixKey) return key
  // A key the holder brought here by portability is its own.
  if (yield* (yield* PixClaims).holds(account.id, key.value)) return key
  const holder = yield* holderOf(account, key)
  if (Option.isSome(holder) && holder.value.document === account.document) return key
  return yield* notTheHolders()
})

/** A third party's key and who holds it, from the DICT; 404 `PIX_KEY_NOT_FOUND` when no one does. */
const thirdPartyKey = Effect.fn("Wallet.thirdPartyKey")(function*(account: Account, request: { readonly pixKey: string; readonly pixKeyType: PixKey["type"] }) {
  const key = yield* parseKey(request)
  const holder = yield* holderOf(account, key)
  if (Option.isNone(holder)) return yield* new PixKeyNotFound({ message: "Chave PIX não encontrada", details: { pixKey: key.value } })
  const receiver: Counterparty = { name: holder.value.name, taxId: holder.value.document, bank: holder.value.bank, account: "" }
  return { key, receiver }
})

/** Takes amount and fee from the locked balance, within the daily limit, and records the withdrawal with its entry. */
const debit = Effect.fn("Wallet.debitWithdrawal")(function*(withdrawal: Withdrawal, dailyLimit: Cents) {
  const balance = yield* (yield* Ledger).lockBalance(withdrawal.accountId, "AVAILABLE")
  if (balance < withdrawal.amount + withdrawal.fee) {
    return yield* new InsufficientBalance({
      message: `Saldo insuficiente: disponível ${toDecimalString(balance)}, necessário ${toDecimalString(cents(withdrawal.amount + withdrawal.fee))}`,
      details: { availableBalance: toDecimalString(balance), amount: toDecimalString(withdrawal.amount), fee: toDecimalString(withdrawal.fee) }
    })
  }
  const withdrawals = yield* Withdrawals
  const today = yield* withdrawals.dayTotal(withdrawal.accountId, withdrawal.day)
  if (today + withdrawal.amount > dailyLimit) {
    return yield* new DailyLimitExceeded({
      message: `Limite diário de transferências excedido: limite ${toDecimalString(dailyLimit)}, já transferido ${toDecimalString(today)}`,
      details: { dailyLimit: toDecimalString(dailyLimit), usedToday: toDecimalString(today) }
    })
  }
  yield* withdrawals.insert(withdrawal)
  yield* postEntries([pixSendPosting(withdrawal)], withdrawal.createdAt)
})

/** Records and debits a Pix of `account` to `key`; the send as the API shows it. */
const send = Effect.fn("Wallet.sendPix")(function*(account: Account, kind: Withdrawal["kind"], amount: Withdrawal["amount"], key: PixKey, extra: {
  readonly receiver: Counterparty | null
  readonly description: string | null
}) {
  const limits = yield* transferLimits(account.id)
  const now = yield* Clock.currentTimeMillis
  const at = new Date(now)
  const withdrawal: Withdrawal = {
    id: yield* (yield* Ids).make(kind === "WITHDRAWAL" ? WithdrawalIds : TransferIds, { sandbox: account.sandbox }),
    kind,
    accountId: account.id,
    accountNumber: account.number,
    amount,
    fee: limits.fee,
    pixKey: key.value,
    pixKeyType: key.type,
    status: "PROCESSING",
    ...extra,
    endToEndId: null,
    failureReason: null,
    day: saoPauloDate(now),
    createdAt: at,
    updatedAt: at
  }
  yield* (yield* Transactor).withTransaction(debit(withdrawal, limits.dailyLimit))
  return toWithdrawalView(withdrawal)
})

export const withdraw = Effect.fn("Wallet.withdraw")(function*(request: WithdrawRequest) {
  const account = yield* walletAccount(request.accountId)
  yield* requireProvider(account, "pix")
  const key = yield* ownKey(account, request)
  return yield* send(account, "WITHDRAWAL", request.amount, key, { receiver: null, description: request.description ?? null })
})

/** The provider's `POST /v1/wallet/pix-transfer`: a Pix to a third party's key, under the same fee and daily limit. */
export const pixTransfer = Effect.fn("Wallet.pixTransfer")(function*(request: WithdrawRequest) {
  const account = yield* walletAccount(request.accountId)
  yield* requireProvider(account, "pix")
  const { key, receiver } = yield* thirdPartyKey(account, request)
  return yield* send(account, "PIX_TRANSFER", request.amount, key, { receiver, description: request.description ?? null })
})

/** The provider's `POST /v1/wallet/dict`: who holds a key, as the DICT answers (the document masked, as bank apps show it). */
export const lookupPixKey = Effect.fn("Wallet.lookupPixKey")(function*(request: DictRequest) {
  // The sandbox DICT's answer about a real key would be made up.
  const { account } = yield* Caller
  yield* requireProvider(account, "pix")
  const { key, receiver } = yield* thirdPartyKey(account, request)
  return { pixKey: key.value, pixKeyType: key.type, name: receiver.name, document: maskDocument(receiver.taxId), bank: receiver.bank }
})

/** A CPF as `***.456.789-**`, a CNPJ shown whole (a company's is public). */
const maskDocument = (document: string) =>
  document.length === 11 ? `***.${document.slice(3, 6)}.${document.slice(6, 9)}-**` : document

export const listWithdrawals = Effect.fn("Wallet.listWithdrawals")(function*(query: WithdrawalListQuery) {
  const account = yield* walletAccount(query.accountId)
  const limit = yield* pageLimit(query.limit, 50, invalidData)
  const page = yield* (yield* Withdrawals).list(account.id, { limit, lastKey: query.lastKey ?? null })
  return { items: page.items.map(toWithdrawalView), pagination: keysetPagination(page, limit) }
})

/**
 * Worker step: pays out up to `limit` requested withdrawals. The provider is
 * asked outside any transaction (a payout is a call to a bank), by the
 * withdrawal's id, so asking again after a crash never pays twice; its
 * answer is then recorded with its ledger entry in one transaction.
 */
export const payOutWithdrawals = Effect.fn("Wallet.payOutWithdrawals")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const withdrawals = yield* Withdrawals
  const at = new Date(yield* Clock.currentTimeMillis)
  const claimed = yield* withdrawals.claimProcessing(limit, scope, at, PAYOUT_LEASE_MILLIS)
  yield* Effect.forEach(claimed, payOut, { concurrency: 8, discard: true }).pipe(
    handingBackOnInterrupt(new Date(at.getTime() + PAYOUT_LEASE_MILLIS), (leaseUntil, now) => withdrawals.expireClaims(claimed.map((w) => w.id), leaseUntil, now))
  )
  return claimed.length
})

const payOut = Effect.fnUntraced(function*(withdrawal: Withdrawal) {
  const account = yield* (yield* Accounts).findById(withdrawal.accountId)
  if (Option.isNone(account)) return
  const at = new Date(yield* Clock.currentTimeMillis)
  const key: PixKey = { type: withdrawal.pixKeyType, value: withdrawal.pixKey }
  const answer = yield* (yield* PixProvider).payOut({ account: account.value, reference: withdrawal.id, amount: withdrawal.amount, key, at }).pipe(
    // No answer: the lease runs out and a worker asks again, by the same reference.
    Effect.option
  )
  if (Option.isNone(answer)) return
  const [transition, changes] = answer.value._tag === "Paid"
    ? [WithdrawalTransitions.paidOut, { endToEndId: answer.value.endToEndId, failureReason: null }] as const
    : [WithdrawalTransitions.returned, { endToEndId: null, failureReason: answer.value.reason }] as const
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const settled = yield* (yield* Withdrawals).settle(withdrawal.id, transition, changes, at)
    if (Option.isNone(settled)) return
    const posting = transition === WithdrawalTransitions.paidOut ? pixSendSettledPosting(settled.value) : pixSendReturnedPosting(settled.value)
    yield* postEntries([posting], at)
  }))
})

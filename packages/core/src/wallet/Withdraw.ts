/**
 * Pix withdrawals (spec: Wallet, Limits). A withdrawal goes only to a key of
 * the account's own holder, costs the account's transfer fee (0.47 by
 * default) and counts against its daily limit (3,000 by default, São Paulo
 * day). Amount and fee leave the available balance when it is requested, in
 * one transaction that holds the balance's lock, so concurrent withdrawals
 * can never together spend more than there is. The worker then pays it out
 * through the Pix provider: `COMPLETED`, or `FAILED` with the money back.
 */
import { Clock, Effect, Option } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { normalizeDocument } from "../brazil/Documents.ts"
import type { Account } from "../domain/Account.ts"
import { invalidData } from "../domain/Errors.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { toWithdrawalView, type WithdrawalListQuery, type WithdrawRequest } from "../domain/WalletViews.ts"
import { DailyLimitExceeded, InsufficientBalance, OwnershipMismatch, type PixKey, normalizePixKey, type Withdrawal } from "../domain/Withdrawal.ts"
import { postEntries } from "../ledger/PostEntries.ts"
import { keysetPagination, pageLimit } from "../domain/Pagination.ts"
import { type Cents, cents, toDecimalString } from "../money/Money.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Ids } from "../ports/Ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { PixProvider } from "../ports/PixProvider.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Withdrawals } from "../ports/Withdrawals.ts"
import { DEFAULT_DAILY_TRANSFER_LIMIT, DEFAULT_PIX_TRANSFER_FEE } from "../rules/Fees.ts"
import { withdrawalPosting, withdrawalReturnedPosting, withdrawalSettledPosting } from "../rules/Postings.ts"
import { walletAccount } from "./WalletAccount.ts"

/** How long a worker holds the withdrawals it is paying out before another may take them. */
export const PAYOUT_LEASE_MILLIS = 60_000

/** The account's transfer fee and daily limit: what an operator set, else the spec's defaults. */
export const transferLimits = Effect.fn("Wallet.transferLimits")(function*(accountId: string) {
  const set = yield* (yield* Withdrawals).limits(accountId)
  return Option.getOrElse(set, () => ({ dailyLimit: DEFAULT_DAILY_TRANSFER_LIMIT, fee: DEFAULT_PIX_TRANSFER_FEE }))
})

const notTheHolders = () => new OwnershipMismatch({ message: "A chave PIX nao pertence ao titular da conta", details: null })

/**
 * The key, checked to be one of `account`'s holder: its CPF or CNPJ, the
 * account's own registered key, or a key the DICT says its holder holds.
 */
const ownKey = Effect.fn("Wallet.ownKey")(function*(account: Account, request: WithdrawRequest) {
  const value = normalizePixKey(request.pixKeyType, request.pixKey)
  if (value === undefined) return yield* invalidData("pixKey", `pixKey is not a valid ${request.pixKeyType} key`)
  if (request.documentNumber !== undefined && normalizeDocument(request.documentNumber) !== account.document) return yield* notTheHolders()
  const key: PixKey = { type: request.pixKeyType, value }
  if (value === account.document || value === account.pixKey) return key
  const holder = yield* (yield* PixProvider).lookupKey(key).pipe(Effect.orElseSucceed(() => Option.none()))
  if (Option.isSome(holder) && holder.value.document === account.document) return key
  return yield* notTheHolders()
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
  yield* postEntries([withdrawalPosting(withdrawal)], withdrawal.createdAt)
})

export const withdraw = Effect.fn("Wallet.withdraw")(function*(request: WithdrawRequest) {
  const account = yield* walletAccount(request.accountId)
  const key = yield* ownKey(account, request)
  const limits = yield* transferLimits(account.id)
  const now = yield* Clock.currentTimeMillis
  const at = new Date(now)
  const withdrawal: Withdrawal = {
    id: yield* (yield* Ids).make("wdr", { sandbox: account.sandbox }),
    accountId: account.id,
    accountNumber: account.number,
    amount: request.amount,
    fee: limits.fee,
    pixKey: key.value,
    pixKeyType: key.type,
    status: "PROCESSING",
    endToEndId: null,
    failureReason: null,
    day: saoPauloDate(now),
    createdAt: at,
    updatedAt: at
  }
  yield* (yield* Transactor).withTransaction(debit(withdrawal, limits.dailyLimit))
  return toWithdrawalView(withdrawal)
})

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
  yield* Effect.forEach(claimed, payOut, { concurrency: 8, discard: true })
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
  const outcome = answer.value._tag === "Paid"
    ? { status: "COMPLETED" as const, endToEndId: answer.value.endToEndId, failureReason: null }
    : { status: "FAILED" as const, endToEndId: null, failureReason: answer.value.reason }
  yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const settled = yield* (yield* Withdrawals).settle(withdrawal.id, outcome, at)
    if (Option.isNone(settled)) return
    const posting = settled.value.status === "COMPLETED" ? withdrawalSettledPosting(settled.value) : withdrawalReturnedPosting(settled.value)
    yield* postEntries([posting], at)
  }))
})

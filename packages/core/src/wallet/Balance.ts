/**
 * `GET /v1/wallet/balance`: read from the ledger's running balances, so it
 * costs one indexed lookup however long the account's history. One account
 * (the caller's, or `accountId`), or several (the header named `accountId`,
 * numbers separated by commas) in the provider's `balances[]` shape.
 */
import { Effect } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import type { Account } from "../domain/Account.ts"
import { invalidData } from "../domain/Errors.ts"
import type { WalletBalance } from "../domain/Ledger.ts"
import { Ledger } from "../ports/Ledger.ts"
import { cents } from "../money/Money.ts"
import { walletAccount } from "./WalletAccount.ts"

/** Most accounts one balance request reads. */
export const MAX_BALANCE_ACCOUNTS = 100

/** One account's balances as the wallet shows them (centavos). */
export const balanceOf = (account: Account, balance: WalletBalance) => ({
  accountNumber: account.number,
  name: account.name,
  availableBalance: balance.available,
  pendingBalance: balance.receivable,
  retainedBalance: balance.retained,
  totalBalance: cents(balance.available + balance.receivable + balance.retained),
  debtBalance: cents(-balance.debt)
})

const read = Effect.fn("Wallet.readBalances")(function*(accounts: ReadonlyArray<Account>) {
  const balances = yield* (yield* Ledger).balances(accounts.map((a) => a.id))
  return accounts.map((account) => balanceOf(account, balances.get(account.id)!))
})

const several = Effect.fn("Wallet.balances")(function*(header: string) {
  const numbers = [...new Set(header.split(",").map((n) => n.trim()).filter((n) => n.length > 0))]
  if (numbers.length === 0) return yield* invalidData("accountId", "accountId must list account numbers separated by commas")
  if (numbers.length > MAX_BALANCE_ACCOUNTS) return yield* invalidData("accountId", `at most ${MAX_BALANCE_ACCOUNTS} accounts per request`)
  const balances = yield* read(yield* Effect.forEach(numbers, walletAccount))
  return { masterAccountId: (yield* Caller).master.number, balances: balances.map((b) => ({ ...b, balance: b.availableBalance })) }
})

/** The balance of the caller, or of the account named by `accountId`; of several when `accounts` (the header) lists them. */
export const walletBalance = Effect.fn("Wallet.balance")(function*(query: {
  readonly accountId?: string | undefined
  readonly accounts?: string | undefined
}) {
  if (query.accounts !== undefined) return yield* several(query.accounts)
  const [one] = yield* read([yield* walletAccount(query.accountId)])
  return one!
})

/**
 * The account a wallet request acts on: the caller's own, or the one named by
 * `accountId` (an account number), which must be the caller's master or one
 * of its sub-accounts. Another master's sub-account is an ownership problem
 * (401 `OWNERSHIP_MISMATCH`, as the provider answers); a number that exists
 * nowhere is unknown (404 `NOT_FOUND`).
 */
import { Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import type { Account } from "../domain/Account.ts"
import { NotFound, SubAccountNotOwned } from "../domain/Errors.ts"
import { Accounts } from "../ports/Accounts.ts"

export const walletAccount = Effect.fn("Wallet.account")(function*(accountNumber: string | undefined) {
  const caller = yield* Caller
  const number = accountNumber?.trim()
  if (number === undefined || number.length === 0 || number === caller.account.number) return caller.account
  if (number === caller.master.number) return caller.master
  const accounts = yield* Accounts
  const sub = yield* accounts.findSubAccount(caller.master.id, number)
  if (Option.isSome(sub)) return sub.value as Account
  if (yield* accounts.numberExists(number)) {
    return yield* new SubAccountNotOwned({ message: "Subconta nao pertence a esta conta", details: { accountId: number } })
  }
  return yield* new NotFound({ message: "Subconta não encontrada", details: { accountId: number } })
})

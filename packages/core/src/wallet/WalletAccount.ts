/**
 * The account a wallet request acts on: the caller's own, or the one named by
 * `accountId` (an account number), which must be the caller's master or one
 * of its sub-accounts. Another master's sub-account is an ownership problem
 * (401 `OWNERSHIP_MISMATCH`, as the provider answers); a number that exists
 * nowhere is unknown (404 `NOT_FOUND`).
 */
import { Effect, Option, Schema } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import type { Account } from "../domain/Account.ts"
import { ErrorFields, NotFound } from "../domain/Errors.ts"
import { Accounts } from "../ports/Accounts.ts"

/**
 * 401 `OWNERSHIP_MISMATCH`: the sub-account named belongs to another master.
 * The same code as a Pix key of another holder (400), with the status the
 * provider gives each; named apart in the OpenAPI document.
 */
export class SubAccountNotOwned extends Schema.TaggedError<SubAccountNotOwned>()("OWNERSHIP_MISMATCH", ErrorFields, {
  httpApiStatus: 401,
  envelopeIdentifier: "OWNERSHIP_MISMATCH_SUBACCOUNT"
}) {}

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

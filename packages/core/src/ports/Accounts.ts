import { Context, type Effect, type Option } from "effect"
import type { Account } from "../domain/Account.ts"
import type { AccountId } from "../domain/Ids.ts"

/** Accounts and sub-accounts; every tenant query of the other ports is scoped by an account id from here. */
export class Accounts extends Context.Service<Accounts, {
  readonly insert: (account: Account) => Effect.Effect<void>
  readonly findById: (id: AccountId) => Effect.Effect<Option.Option<Account>>
  /** The sub-account with this number whose master is `parentId`. */
  readonly findSubAccount: (parentId: AccountId, number: string) => Effect.Effect<Option.Option<Account>>
  /** The sub-account of `parentId` with this document. */
  readonly findSubAccountByDocument: (parentId: AccountId, document: string) => Effect.Effect<Option.Option<Account>>
  /** The caller's own account with this document: the master itself or one of its sub-accounts. */
  readonly findOwnByDocument: (masterId: AccountId, document: string) => Effect.Effect<Option.Option<Account>>
  /** The master's sub-accounts created in `[from, to]`, oldest first, a page at `offset`; and how many there are. */
  readonly listSubAccounts: (parentId: AccountId, query: {
    readonly from: Date | null
    readonly to: Date | null
    readonly offset: number
    readonly limit: number
  }) => Effect.Effect<{ readonly items: ReadonlyArray<Account>; readonly total: number }>
  /** The account with this number, of any holder (for public routes that name one). */
  readonly findByNumber: (number: string) => Effect.Effect<Option.Option<Account>>
  /** True when some account, of any holder, has this number. */
  readonly numberExists: (number: string) => Effect.Effect<boolean>
  /** A fresh account number, unique across the installation. */
  readonly nextNumber: Effect.Effect<string>
  /** The offset of the account's test clock from the real time, in milliseconds, when it has one (sandbox only). */
  readonly clockOffset: (accountId: AccountId) => Effect.Effect<Option.Option<number>>
  /** Sets the offset of the account's test clock (creating the clock). */
  readonly setClockOffset: (accountId: AccountId, offsetMillis: number, at: Date) => Effect.Effect<void>
}>()("@billing/core/ports/Accounts") {}

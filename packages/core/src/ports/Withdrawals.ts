/** Storage of Pix withdrawals. */
import { Context, type Effect, type Option } from "effect"
import type { RunScope } from "../domain/RunScope.ts"
import type { Withdrawal } from "../domain/Withdrawal.ts"
import type { Cents } from "../money/Money.ts"
import type { WithdrawalTransition } from "../rules/WithdrawalTransitions.ts"
import type { AccountId, WithdrawalId } from "../domain/Ids.ts"

export interface WithdrawalPage {
  readonly items: ReadonlyArray<Withdrawal>
  readonly total: number
  /** The cursor of the next page; null on the last one. */
  readonly lastKey: string | null
}

export class Withdrawals extends Context.Service<Withdrawals, {
  /** The daily transfer limit and transfer fee an operator set for each of the accounts that have them (the others take the spec's defaults). */
  readonly limits: (accountIds: ReadonlyArray<AccountId>) => Effect.Effect<ReadonlyMap<string, { readonly dailyLimit: Cents; readonly fee: Cents }>>
  readonly insert: (withdrawal: Withdrawal) => Effect.Effect<void>
  readonly find: (accountId: AccountId, id: WithdrawalId) => Effect.Effect<Option.Option<Withdrawal>>
  /** What `accountId` withdrew on the São Paulo `day`, returned ones left out. */
  readonly dayTotal: (accountId: AccountId, day: string) => Effect.Effect<Cents>
  /** The account's withdrawals, newest first, after the cursor `lastKey`. */
  readonly list: (accountId: AccountId, query: { readonly limit: number; readonly lastKey: string | null }) => Effect.Effect<WithdrawalPage>
  /**
   * Claims up to `limit` `PROCESSING` withdrawals no other worker holds, for
   * `leaseMillis` from `at`: a worker killed mid-payout hands them on.
   */
  readonly claimProcessing: (limit: number, scope: RunScope, at: Date, leaseMillis: number) => Effect.Effect<ReadonlyArray<Withdrawal>>
  /** Ends now (`at`) the claims of `ids` made until `leaseUntil` or later (renewed by the same worker): a stopping worker's withdrawals go to the others at once. */
  readonly expireClaims: (ids: ReadonlyArray<WithdrawalId>, leaseUntil: Date, at: Date) => Effect.Effect<void>
  /** Applies `transition` (the provider's answer, with `changes`) if the withdrawal is still in one of its `from` statuses; the withdrawal moved, or none when it had moved already. */
  readonly settle: (id: WithdrawalId, transition: WithdrawalTransition, changes: {
    readonly endToEndId: string | null
    readonly failureReason: string | null
  }, at: Date) => Effect.Effect<Option.Option<Withdrawal>>
}>()("@billing/core/ports/Withdrawals") {}

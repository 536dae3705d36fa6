/** Storage of refunds and of the split debts they leave. */
import { Context, type Effect, type Option } from "effect"
import type { Refund } from "../domain/Refund.ts"
import type { RunScope } from "../domain/RunScope.ts"
import type { Cents } from "../money/Money.ts"
import type { DebtCategory } from "../rules/DebtTransitions.ts"
import type { RefundTransition } from "../rules/RefundTransitions.ts"
import type { AccountId, ChargeId, DebtId, RefundId } from "../domain/Ids.ts"

export interface RefundPage {
  readonly items: ReadonlyArray<Refund>
  readonly total: number
  readonly lastKey: string | null
}

/** What an account owes: a split reversal or chargeback it could not pay (`refundId`), or its opening fee (`refundId` null). */
export interface SplitDebt {
  readonly id: DebtId
  readonly holder: AccountId
  readonly refundId: RefundId | null
  readonly amount: Cents
  readonly remaining: Cents
}

export class Refunds extends Context.Service<Refunds, {
  /** Inserts a refund; the database refuses one that would take the charge's refunds past the amount paid. */
  readonly insert: (refund: Refund) => Effect.Effect<void>
  /** What was refunded of the charge: refused refunds left out, and those still in flight too when `confirmedOnly`. Call under the charge's lock. */
  readonly refundedOf: (chargeId: ChargeId, options?: { readonly confirmedOnly?: boolean }) => Effect.Effect<Cents>
  readonly find: (accountId: AccountId, id: RefundId) => Effect.Effect<Option.Option<Refund>>
  /** The account's refunds, newest first, after the cursor `lastKey`, optionally between two instants. */
  readonly list: (accountId: AccountId, query: {
    readonly limit: number
    readonly lastKey: string | null
    readonly from: Date | null
    readonly to: Date | null
  }) => Effect.Effect<RefundPage>
  /** Claims up to `limit` `PROCESSING` refunds no other worker holds, for `leaseMillis` from `at`. */
  readonly claimProcessing: (limit: number, scope: RunScope, at: Date, leaseMillis: number) => Effect.Effect<ReadonlyArray<Refund>>
  /** Ends now (`at`) the claims of `ids` made until `leaseUntil` or later (renewed by the same worker): a stopping worker's refunds go to the others at once. */
  readonly expireClaims: (ids: ReadonlyArray<RefundId>, leaseUntil: Date, at: Date) => Effect.Effect<void>
  /** Applies `transition` (the provider's answer, with `changes`) if the refund is still in one of its `from` statuses; the refund moved, or none when it had moved already. */
  readonly settle: (id: RefundId, transition: RefundTransition, changes: {
    readonly returnIdentification: string | null
    readonly providerChargeId: string | null
    readonly error: string | null
  }, at: Date) => Effect.Effect<Option.Option<Refund>>
  /** Opens debts, each owing its whole `amount`. */
  readonly insertDebts: (debts: ReadonlyArray<Omit<SplitDebt, "remaining">>, at: Date) => Effect.Effect<void>
  /** The pending debts of `holders`, oldest first, locked until the transaction ends; each with the statement category of what it is for. */
  readonly lockPendingDebts: (holders: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<SplitDebt & { readonly category: DebtCategory }>>
  /** Records what was paid of each debt (`remaining` after the payment); a debt left at zero is `PAID`. */
  readonly payDebts: (payments: ReadonlyArray<{ readonly id: string; readonly remaining: Cents }>, at: Date) => Effect.Effect<void>
  /** Cancels the debts of a refused refund; each debt as it stood. */
  readonly cancelDebts: (refundId: RefundId, at: Date) => Effect.Effect<ReadonlyArray<SplitDebt>>
}>()("@billing/core/ports/Refunds") {}

/** Storage of sub-account proposals and their onboarding. */
import { Context, type Effect, type Option } from "effect"
import type { Proposal } from "../domain/Proposal.ts"
import type { RunScope } from "../domain/RunScope.ts"
import type { Cents } from "../money/Money.ts"
import type { AccountId } from "../domain/Ids.ts"

export class Proposals extends Context.Service<Proposals, {
  /** Inserts a new form; false when the master has a live form of the document already (another request made it meanwhile). */
  readonly insert: (proposal: Proposal) => Effect.Effect<boolean>
  /** Writes every field of a proposal found before (its form, stages, ids); a worker's lease on it stays. */
  readonly update: (proposal: Proposal) => Effect.Effect<void>
  /** Ends a worker's lease on the proposal: what it could do now is done. */
  readonly release: (formId: string) => Effect.Effect<void>
  readonly find: (accountId: AccountId, formId: string) => Effect.Effect<Option.Option<Proposal>>
  /** The master's proposal, locked until the transaction ends. */
  readonly lock: (accountId: AccountId, formId: string) => Effect.Effect<Option.Option<Proposal>>
  /** The master's latest proposal of `documentNumber` that was not reproved, locked. */
  readonly lockLiveOf: (accountId: AccountId, documentNumber: string) => Effect.Effect<Option.Option<Proposal>>
  /** The proposal whose documents-copy page has this key. */
  readonly findByDocumentsToken: (token: string) => Effect.Effect<Option.Option<Proposal>>
  /**
   * Up to `limit` finished proposals with a stage to run (documents copy
   * only once the documents were sent), leased for `leaseMillis` so that no
   * other worker takes them meanwhile.
   */
  /** The onboarding of each of these sub-accounts that was opened by a proposal. */
  readonly onboardingsOf: (subAccountIds: ReadonlyArray<AccountId>) => Effect.Effect<ReadonlyArray<{ readonly subAccountId: string; readonly onboardingId: string }>>
  /** The opening fee the master charges its new sub-accounts, when it set one (the spec's 15.00 otherwise). */
  readonly openingFeeOf: (masterId: AccountId) => Effect.Effect<Option.Option<Cents>>
  readonly claimDue: (limit: number, scope: RunScope, at: Date, leaseMillis: number) => Effect.Effect<ReadonlyArray<Proposal>>
  /** Ends now (`at`) the claims of `ids` made until `leaseUntil` or later (renewed by the same worker): a stopping worker's proposals go to the others at once. */
  readonly expireClaims: (ids: ReadonlyArray<string>, leaseUntil: Date, at: Date) => Effect.Effect<void>
}>()("@billing/core/ports/Proposals") {}

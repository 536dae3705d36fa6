/**
 * Storage of charges and of the work around them (sandbox payments,
 * expiry). State changes are conditional updates: `transition` only moves a
 * charge that is still in one of the `from` statuses, so a payment and an
 * expiry racing on one charge cannot both win.
 */
import type { Backlog } from "../domain/Backlog.ts"
import { Context, type Effect, type Option } from "effect"
import type { Charge, ChargeStatus, PaymentType } from "../domain/Charge.ts"
import type { AccountId, ChargeId, SubscriptionId } from "../domain/Ids.ts"
import type { RunScope } from "../domain/RunScope.ts"
import type { Cents } from "../money/Money.ts"
import type { ChargeTransition } from "../rules/ChargeTransitions.ts"

/** Whose charges a caller sees: its own account's, or as a master every charge it generated. */
export type ChargeScope =
  | { readonly _tag: "Account"; readonly accountId: AccountId }
  | { readonly _tag: "Master"; readonly masterAccountId: AccountId }

/** The filters of a charge list, each `null` when not applied; newest first, `limit` from `offset`. */
export interface ChargeListFilter {
  readonly offset: number
  readonly limit: number
  readonly from: Date | null
  readonly to: Date | null
  readonly status: ChargeStatus | null
  readonly paymentType: PaymentType | null
  /** The buyer's CPF or CNPJ, exact. */
  readonly document: string | null
  /** Part of the charge id, description, `externalTxid` or the buyer's name, e-mail or document. */
  readonly search: string | null
  /** One account's charges (a master's sub-account, or the account itself). */
  readonly accountId: AccountId | null
}

export interface ChargePage {
  readonly items: ReadonlyArray<Charge>
  readonly total: number
}

export class Charges extends Context.Service<Charges, {
  readonly insert: (charge: Charge) => Effect.Effect<void>
  /**
   * Inserts unless the account already has a charge with the same
   * `externalId` (a unique index decides between concurrent requests);
   * then answers that charge's id.
   */
  readonly insertUnlessDuplicate: (charge: Charge) => Effect.Effect<{ readonly inserted: true } | { readonly inserted: false; readonly existingId: ChargeId }>
  readonly find: (scope: ChargeScope, id: ChargeId) => Effect.Effect<Option.Option<Charge>>
  /**
   * The account's charge with this id or this Pix end-to-end id, locked
   * until the transaction ends (a refund counts what was refunded under it).
   */
  readonly lockOwn: (accountId: AccountId, key: { readonly chargeId: ChargeId } | { readonly endToEndId: string }) => Effect.Effect<Option.Option<Charge>>
  /** Those of `txids` that are txids of the account's Pix charges (a PSP's statement names the charges it paid by them, whichever merchant's). */
  readonly pixTxidsOf: (accountId: AccountId, txids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  /** The Pix charge whose txid is `txid`, locked until the transaction ends (a PSP's callback names charges by it). */
  readonly lockByPixTxid: (txid: string) => Effect.Effect<Option.Option<Charge>>
  /**
   * The boleto charge whose txid (the bank's "nosso número") is `txid`,
   * locked until the transaction ends: a bank's callback and its list of
   * payments name boletos by it.
   */
  readonly lockBoletoByTxid: (txid: string) => Effect.Effect<Option.Option<Charge>>
  /** The same boleto charge, unlocked: read before the bank is asked, outside any transaction. */
  readonly findBoletoByTxid: (txid: string) => Effect.Effect<Option.Option<Charge>>
  /**
   * Claims up to `limit` open boleto or Pix charges of production accounts
   * whose deadline passed and that were untouched since `untouchedSince`,
   * oldest deadline first, with `SKIP LOCKED`; the claim sets their
   * `updatedAt` to `now` (the lease): each is closed at its provider (the
   * bank writes the boleto off, the PSP takes the Pix off sale), by one
   * worker, before it expires (`expireDue` leaves them out).
   */
  readonly dueAtProvider: (
    paymentType: "BOLETO" | "PIX",
    now: Date,
    untouchedSince: Date,
    limit: number,
    scope: RunScope
  ) => Effect.Effect<ReadonlyArray<Charge>>
  /** Up to `limit` production accounts (ids) with open boleto charges: the accounts whose bank a payment poll asks. */
  readonly accountsWithOpenBankBoletos: (limit: number) => Effect.Effect<ReadonlyArray<AccountId>>
  /** Any account's charge by id, for public documents (the boleto PDF) addressed by the unguessable id alone. */
  readonly findForDocument: (id: ChargeId) => Effect.Effect<Option.Option<Charge>>
  readonly list: (scope: ChargeScope, query: ChargeListFilter) => Effect.Effect<ChargePage>
  /** Writes charges made together (a billing run's batch), with their split parts; call in a transaction. */
  readonly insertMany: (charges: ReadonlyArray<Charge>) => Effect.Effect<void>
  /** The address each subscription's charges were first billed to (a boleto needs one), by subscription id. */
  readonly billingAddresses: (subscriptionIds: ReadonlyArray<SubscriptionId>) => Effect.Effect<ReadonlyMap<SubscriptionId, NonNullable<Charge["address"]>>>
  /** The charges of a subscription (its cycles' and its plan changes'), oldest first. */
  readonly listBySubscription: (accountId: AccountId, subscriptionId: SubscriptionId) => Effect.Effect<ReadonlyArray<Charge>>
  /** Cancels every open charge of a subscription (`ChargeTransitions.canceled`); the charges canceled. */
  readonly cancelOpenOfSubscription: (subscriptionId: SubscriptionId, at: Date) => Effect.Effect<ReadonlyArray<Charge>>
  /** What the customer has paid the account: the sum of its `PAID` charges. */
  readonly paidByCustomer: (accountId: AccountId, customerId: string) => Effect.Effect<Cents>
  /** Applies `transition` (with `changes`) if the charge is still in one of its `from` statuses; the updated charge, or none. */
  readonly transition: (
    id: ChargeId,
    transition: ChargeTransition,
    changes: Partial<Pick<Charge, "paidAt" | "endToEndId" | "payer" | "canceledAt" | "archivedAt" | "failureReason" | "psp">>,
    at: Date
  ) => Effect.Effect<Option.Option<Charge>>
  /**
   * Applies `transition` to many charges at once, each with its own payment
   * instant or failure reason (a billing run's card answers); the charges
   * that were still in one of its `from` statuses, updated.
   */
  readonly transitionMany: (
    transition: ChargeTransition,
    rows: ReadonlyArray<{ readonly id: ChargeId; readonly paidAt?: Date | null; readonly failureReason?: string | null }>,
    at: Date
  ) => Effect.Effect<ReadonlyArray<Charge>>
  /**
   * Expires (`ChargeTransitions.expired`) up to `limit` open charges whose deadline passed, claiming them
   * with `SKIP LOCKED`; returns the expired charges. Call in a transaction
   * that also records their events. Boletos and Pix of production accounts
   * are left out: the bank or the PSP closes them first (`dueAtProvider`);
   * so are their card charges, whose outcome only the acquirer knows: the
   * card jobs ask it (`claimUnansweredCards`, the billing run's stalled-card job).
   */
  readonly expireDue: (now: Date, limit: number, scope: RunScope) => Effect.Effect<ReadonlyArray<Charge>>
  /** The earliest deadline after `after` of an open charge of `accountId` (its test clock's next stop). */
  readonly nextExpiry: (accountId: AccountId, after: Date) => Effect.Effect<Option.Option<Date>>
  /**
   * Claims, with `SKIP LOCKED`, up to `limit` card charges that are no
   * billing run's attempt (a checkout's, a subscription's first cycle
   * bought at the checkout, a plan change's prorata) left unanswered in one
   * of `ChargeTransitions.cardApproved`'s `from` statuses and untouched since
   * `untouchedSince`, nearest deadline first. The claim sets their
   * `updatedAt` to `at`: the lease, which keeps them from another claim
   * until `at` is older than the next claim's `untouchedSince`. Answers the
   * charges as they were before the claim, for `endCardClaims`.
   */
  readonly claimUnansweredCards: (at: Date, untouchedSince: Date, limit: number, scope: RunScope) => Effect.Effect<ReadonlyArray<Charge>>
  /**
   * Ends the claims that `claimUnansweredCards` made at `at` on `charges`
   * (as it answered them), each `updatedAt` put back, unless the charge
   * moved meanwhile: they are claimable again at once.
   */
  readonly endCardClaims: (charges: ReadonlyArray<Pick<Charge, "id" | "updatedAt">>, at: Date) => Effect.Effect<void>
  /** The open charges whose deadline passed by `now` (counted up to `cap`) and the earliest deadline, for the metrics. */
  readonly expiryBacklog: (now: Date, cap: number) => Effect.Effect<Backlog>
}>()("@billing/core/ports/Charges") {}

/**
 * Storage of subscriptions with their items, cycles and invoices. Status
 * changes are conditional updates, as for charges: `transition` moves a
 * subscription only from the statuses its table row allows.
 */
import type { Backlog } from "../domain/Backlog.ts"
import { Context, type Effect, type Option } from "effect"
import type {
  BillableSubscription,
  BillingCycle,
  CycleStatus,
  Invoice,
  Subscription,
  SubscriptionAggregate,
  SubscriptionChange,
  SubscriptionItem,
  SubscriptionStatus
} from "../domain/Subscription.ts"
import type { ChargeStatus } from "../domain/Charge.ts"
import type { Cents } from "../money/Money.ts"
import type { RunScope } from "../domain/RunScope.ts"
import type { CycleTransition } from "../rules/CycleTransitions.ts"
import type { InvoiceTransition } from "../rules/InvoiceTransitions.ts"
import type { ItemTransition } from "../rules/ItemTransitions.ts"
import type { SubscriptionTransition } from "../rules/SubscriptionTransitions.ts"

import type { BillingJobName } from "../rules/BillingJobs.ts"
import type { AccountId, ChargeId, SubscriptionId, SubscriptionItemId } from "../domain/Ids.ts"

export type { BillingJobName }

/** The filters of a subscription list, each `null` when not applied; newest first. */
export interface SubscriptionListFilter {
  readonly limit: number
  /** Cursor of the previous page. */
  readonly after: string | null
  readonly status: SubscriptionStatus | null
  /** Without a status filter, `ARCHIVED` subscriptions are left out unless this is set. */
  readonly includeArchived: boolean
  readonly paymentMethod: Subscription["paymentMethod"] | null
  readonly document: string | null
  readonly search: string | null
  readonly from: Date | null
  readonly to: Date | null
  readonly priceId: string | null
  readonly productId: string | null
  readonly checkoutId: string | null
}

/** A cycle a job of the billing run claimed. */
export interface CycleRef {
  readonly accountId: AccountId
  readonly subscriptionId: SubscriptionId
  readonly cycleNumber: number
}

/** An invoice before it is written: storage numbers it, per account, as it writes it. */
export type UnnumberedInvoice = Omit<Invoice, "invoiceNumber">

/** The records a new subscription starts with. */
export interface NewSubscription {
  readonly subscription: Subscription
  readonly items: ReadonlyArray<SubscriptionItem>
  readonly cycles: ReadonlyArray<BillingCycle>
  readonly invoices: ReadonlyArray<UnnumberedInvoice>
}

/** A cycle, by its key. */
export type CycleKey = Omit<CycleRef, "accountId">

/** A move of one cycle by `transition`, its own invoice moving by the transition's `invoice`. */
export interface CycleMove {
  readonly subscriptionId: SubscriptionId
  readonly cycleNumber: number
  readonly transition: CycleTransition
  /** The day of the next card attempt (set when given; null clears it). */
  readonly nextAttemptOn?: string | null
}

/** Which items a read or a move takes: those of subscriptions, by id, or those waiting for a charge. */
export type ItemSelector =
  | { readonly subscriptionIds: ReadonlyArray<SubscriptionId> }
  | { readonly itemIds: ReadonlyArray<SubscriptionItemId> }
  | { readonly chargeId: ChargeId }

/** An item and the item that replaces it (`null`: none any more). */
export interface ItemLink {
  readonly itemId: SubscriptionItemId
  readonly replacementId: SubscriptionItemId | null
}

/** A subscription's main plan moving from the item `from` to the item `to` that replaces it. */
export interface PrimaryReplacement {
  readonly subscriptionId: SubscriptionId
  readonly from: SubscriptionItemId
  readonly to: SubscriptionItemId
}

/** Which not yet issued (`SCHEDULED`) cycles a write takes: a subscription's, or one of them; `held`: only while held for review. */
export interface ScheduledCycles {
  readonly subscriptionId: SubscriptionId
  readonly cycleNumber?: number
  readonly held?: boolean
}

/** What may still change on a cycle not issued yet: what it bills, by which method, when, and its review. */
export type ScheduledCycleFields = Partial<
  Pick<BillingCycle, "amount" | "discount" | "adjustment" | "paymentMethod" | "periodStart" | "dueDate" | "issueDate" | "heldReason" | "approvedAt">
>

/** The instant a claim is made at: today in São Paulo, now, and until when the claim holds. */
export interface ClaimClock {
  readonly today: string
  readonly now: Date
  readonly leaseUntil: Date
}

/**
 * A subscription as the billing run read it, with the version of the rows it
 * came from (its own, its items', its cycles'): opaque, and equal to a later
 * version only when none of those rows was written, added or removed since.
 * A batch compares it under the lock instead of reading everything again.
 */
export type VersionedBillable = BillableSubscription & { readonly version: string }

/** A list entry: the subscription, its main item, its current and next cycles and the last charge issued for it. */
export interface SubscriptionListEntry {
  readonly subscription: Subscription
  readonly primaryItem: Pick<SubscriptionItem, "priceId" | "productId"> | null
  readonly currentCycle: BillingCycle | null
  readonly nextCycle: BillingCycle | null
  readonly lastCharge: { readonly net: Cents; readonly status: ChargeStatus } | null
}

export class Subscriptions extends Context.Service<Subscriptions, {
  /**
   * Locks the subscription's row until the transaction ends: every change of
   * its items, cycles or terms takes it first, then reads and checks again,
   * so two changes of one subscription never interleave.
   */
  readonly lock: (id: SubscriptionId) => Effect.Effect<void>
  /** Writes a new subscription with its items, cycles and invoices (numbered here, per account). Call in a transaction. */
  readonly insert: (records: NewSubscription) => Effect.Effect<void>
  readonly find: (accountId: AccountId, id: SubscriptionId) => Effect.Effect<Option.Option<SubscriptionAggregate>>
  readonly list: (accountId: AccountId, filter: SubscriptionListFilter) => Effect.Effect<{
    readonly items: ReadonlyArray<SubscriptionListEntry>
    readonly total: number
    readonly lastKey: string | null
  }>
  /** The customer's subscriptions, newest first. */
  readonly listByCustomer: (accountId: AccountId, customerId: string) => Effect.Effect<ReadonlyArray<Subscription>>
  /** How many open subscriptions (`OPEN_SUBSCRIPTION_STATUSES`) the customer, or the product's prices, has. */
  readonly countOpen: (accountId: AccountId, by: { readonly customerId: string } | { readonly productId: string }) => Effect.Effect<number>
  /** How many subscriptions, of any status, ever sold the product. */
  readonly countSelling: (accountId: AccountId, productId: string) => Effect.Effect<number>
  /** Applies `transition` (with `changes`) if the subscription is still in one of its `from` statuses. */
  readonly transition: (
    id: SubscriptionId,
    transition: SubscriptionTransition,
    changes: Partial<Pick<Subscription, "canceledAt" | "cancelReason" | "archivedAt">>,
    at: Date
  ) => Effect.Effect<Option.Option<Subscription>>
  /**
   * Applies `transition` to every subscription of `ids` still in one of its
   * `from` statuses (leaving those whose Pix Automático recurrence waits for
   * the payer's bank when `unlessRecurrencePending`); the ids it moved.
   */
  readonly transitionMany: (
    ids: ReadonlyArray<SubscriptionId>,
    transition: SubscriptionTransition,
    at: Date,
    options?: { readonly unlessRecurrencePending?: boolean }
  ) => Effect.Effect<ReadonlyArray<SubscriptionId>>
  /** Sets `cancelAtPeriodEnd` (and the reason) unless it is set already; whether it changed. */
  readonly scheduleCancel: (id: SubscriptionId, reason: string | null, at: Date) => Effect.Effect<boolean>
  /**
   * Moves cycle `n` by its transition (with the day of its next card
   * attempt) if it is still in one of the transition's `from`, and its own
   * invoice with it; whether it moved.
   */
  readonly moveCycle: (subscriptionId: SubscriptionId, n: number, move: Omit<CycleMove, "subscriptionId" | "cycleNumber">, at: Date) => Effect.Effect<boolean>
  /** Moves many cycles at once, each as `moveCycle` would; the cycles it moved. */
  readonly moveCycles: (moves: ReadonlyArray<CycleMove>, at: Date) => Effect.Effect<ReadonlyArray<CycleKey>>
  /**
   * Claims up to `limit` cycles due for `job` in `scope` until
   * `clock.leaseUntil` (`SKIP LOCKED`, and not claimed by a live lease), so
   * workers share the work and a killed one's claims return when they end.
   */
  readonly claimDue: (job: BillingJobName, scope: RunScope, clock: ClaimClock, limit: number) => Effect.Effect<ReadonlyArray<CycleRef>>
  /**
   * Ends now (`at`) the claims of `refs` that `claimDue` made until
   * `leaseUntil` or later (renewed by the same worker, as a card attempt
   * does): a stopping worker's rows go to the others at once, as if its
   * lease had run out. Call only while that lease holds.
   */
  readonly expireClaims: (refs: ReadonlyArray<CycleRef>, leaseUntil: Date, at: Date) => Effect.Effect<void>
  /** How many cycles `claimDue` could claim for `job` now (a long run's progress). */
  readonly countDue: (job: BillingJobName, scope: RunScope, clock: ClaimClock) => Effect.Effect<number>
  /**
   * What `job` has waiting in every account without a test clock, for the
   * metrics: its due cycles counted up to `cap`, and the earliest value of
   * its claim order (a `YYYY-MM-DD` day, or an instant's text), or null.
   */
  readonly backlog: (job: BillingJobName, clock: ClaimClock, cap: number) => Effect.Effect<Backlog>
  /** How many cycles due for `job` now the scope's `heldMethods` leave (production accounts without the provider). */
  readonly countHeld: (job: BillingJobName, scope: RunScope, clock: ClaimClock) => Effect.Effect<number>
  /**
   * The subscriptions `ids` as the billing run reads them, with their cycles
   * from the current one on and the version of what was read (any order;
   * unknown ids are left out).
   */
  readonly findBillable: (ids: ReadonlyArray<SubscriptionId>) => Effect.Effect<ReadonlyArray<VersionedBillable>>
  /**
   * Locks the subscriptions' rows (in id order, so two batches never
   * deadlock) until the transaction ends, and answers the version of each as
   * it stands under the lock: equal to the one `findBillable` read when
   * nothing of it was written since.
   */
  readonly lockMany: (ids: ReadonlyArray<SubscriptionId>) => Effect.Effect<ReadonlyMap<SubscriptionId, string>>
  /**
   * Issues `SCHEDULED` cycles in one statement: each one's status
   * (`AWAITING_PAYMENT`, or `PROCESSING` for a card attempt), charge and
   * amounts (`issueDate` stays the planned day; a late issue's day is its
   * invoice's and charge's creation). Answers the cycles it moved: one issued (or canceled)
   * meanwhile is left out, which is what bills a cycle once.
   */
  readonly issueCycles: (
    rows: ReadonlyArray<{
      readonly ref: CycleRef
      readonly issued: Pick<BillingCycle, "status" | "chargeId" | "amount" | "discount" | "attemptCount">
    }>,
    at: Date,
    /** The claim is renewed from here: a card cycle is `PROCESSING` until its answer is recorded, and stalled only after. */
    leaseUntil: Date
  ) => Effect.Effect<ReadonlyArray<CycleRef>>
  /** The cycles `refs` (any order; unknown ones left out). */
  readonly findCycles: (refs: ReadonlyArray<Omit<CycleRef, "accountId">>) => Effect.Effect<ReadonlyArray<BillingCycle>>
  /** Adds the next cycles of subscriptions (`SCHEDULED`); a cycle that exists already is left as it is. */
  readonly insertCycles: (cycles: ReadonlyArray<BillingCycle>) => Effect.Effect<void>
  /**
   * A new card attempt on an unpaid cycle with charge `chargeId` (its invoice
   * follows): an automatic one moves `RETRY_SCHEDULED` to `PROCESSING` and
   * counts; a manual one (`POST /v1/subscriptions/{id}/retry`) leaves the
   * status and schedule as they are and counts as manual. False when the
   * cycle is in none of `from`.
   */
  readonly startAttempt: (
    ref: CycleRef,
    attempt: {
      readonly chargeId: ChargeId
      readonly manual: boolean
      readonly from: ReadonlyArray<CycleStatus>
      /** An automatic attempt: only when its day came (by `today`), its claim renewed until `leaseUntil`. */
      readonly automatic?: { readonly today: string; readonly leaseUntil: Date }
    },
    at: Date
  ) => Effect.Effect<boolean>
  /** Records `payment.overdue` on the unpaid cycle (its invoice `OVERDUE`) unless already recorded; whether it did. */
  readonly markOverdue: (ref: CycleRef, at: Date) => Effect.Effect<boolean>
  /** Appends a collection message to each cycle's `rulerHistory`. */
  readonly appendRulers: (
    rows: ReadonlyArray<{ readonly ref: Omit<CycleRef, "accountId">; readonly entry: { readonly kind: string; readonly channel: string; readonly sentAt: string } }>,
    at: Date
  ) => Effect.Effect<void>
  /** Makes each cycle the current one of its subscription, unless a later one already is. */
  readonly advanceCurrentCycles: (cycles: ReadonlyArray<{ readonly subscriptionId: SubscriptionId; readonly cycleNumber: number }>, at: Date) => Effect.Effect<void>
  /** The first day after `today` on which a job of the billing run has work for `accountId` (or none). */
  readonly nextWorkDay: (accountId: AccountId, today: string) => Effect.Effect<Option.Option<string>>
  /** Moves by `transition` every cycle of the subscription it applies to, each one's invoice by the transition's; the numbers moved. */
  readonly moveCyclesOf: (subscriptionId: SubscriptionId, transition: CycleTransition, at: Date) => Effect.Effect<ReadonlyArray<number>>
  /** Sets `fields` on the cycles not issued yet that `which` selects; the numbers written (none once issued). */
  readonly updateScheduledCycles: (which: ScheduledCycles, fields: ScheduledCycleFields, at: Date) => Effect.Effect<ReadonlyArray<number>>
  /** Inserts items, each after its subscription's others. */
  readonly insertItems: (items: ReadonlyArray<SubscriptionItem>) => Effect.Effect<void>
  /** The items `which` selects that `transition` applies to (by status, type and whether they replace another). */
  readonly findItems: (which: ItemSelector, transition: ItemTransition) => Effect.Effect<ReadonlyArray<SubscriptionItem>>
  /** Moves by `transition` the items `which` selects that it applies to; answers them as moved. */
  readonly moveItems: (which: ItemSelector, transition: ItemTransition, at: Date) => Effect.Effect<ReadonlyArray<SubscriptionItem>>
  /** Records which item replaces each (an upgrade waiting for payment, a downgrade for the next cycle), or that none does any more. */
  readonly linkReplacements: (links: ReadonlyArray<ItemLink>, at: Date) => Effect.Effect<void>
  /** Makes each replacement its subscription's main plan, where the item it replaces is. */
  readonly replacePrimaries: (replacements: ReadonlyArray<PrimaryReplacement>, at: Date) => Effect.Effect<void>
  /** Inserts invoices, each numbered in its account's sequence. */
  readonly insertInvoices: (invoices: ReadonlyArray<{ readonly accountId: AccountId; readonly invoice: Omit<Invoice, "invoiceNumber"> }>) => Effect.Effect<void>
  /** Moves by `transition` the invoices of charge `chargeId` it applies to, stamped at `at` (its payment or cancel instant). */
  readonly moveInvoices: (which: { readonly chargeId: ChargeId }, transition: InvoiceTransition, at: Date) => Effect.Effect<void>
  /** Appends an entry to the subscription's histories. */
  readonly appendChange: (subscriptionId: SubscriptionId, change: SubscriptionChange) => Effect.Effect<void>
  /** The id of the account's subscription with the Pix Automático recurrence `recurrencyId`. */
  readonly findByRecurrence: (accountId: AccountId, recurrencyId: string) => Effect.Effect<Option.Option<SubscriptionId>>
  /** Records the bank's answer on a pending recurrence; whether it was pending. */
  readonly decideRecurrence: (id: SubscriptionId, status: "AUTHORIZED" | "REJECTED", at: Date) => Effect.Effect<boolean>
  /** Changes the editable fields of a subscription. */
  readonly update: (
    id: SubscriptionId,
    fields: Partial<
      Pick<Subscription, "additionalEmails" | "cancelAtPeriodEnd" | "paymentMethod" | "paymentMethodId" | "card" | "pixRecurrencyId" | "pixRecurrenceStatus" | "billingDay" | "anchorDate" | "anchorCycle">
    >,
    at: Date
  ) => Effect.Effect<void>
}>()("@billing/core/ports/Subscriptions") {}

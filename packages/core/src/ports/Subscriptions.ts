/**
 * Storage of subscriptions with their items, cycles and invoices. Status
 * changes are conditional updates, as for charges: `transition` moves a
 * subscription only from the statuses its table row allows.
 */
import { Context, type Effect, type Option } from "effect"
import type {
  BillingCycle,
  CycleStatus,
  Invoice,
  InvoiceStatus,
  ItemStatus,
  Subscription,
  SubscriptionAggregate,
  SubscriptionChange,
  SubscriptionItem,
  SubscriptionStatus
} from "../domain/Subscription.ts"
import type { ChargeStatus } from "../domain/Charge.ts"
import type { Cents } from "../money/Money.ts"
import type { SubscriptionTransition } from "../rules/SubscriptionTransitions.ts"

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
  readonly lock: (id: string) => Effect.Effect<void>
  /** Writes a new subscription with its items, cycles and invoices (numbered here, per account). Call in a transaction. */
  readonly insert: (aggregate: {
    readonly subscription: Subscription
    readonly items: ReadonlyArray<SubscriptionItem>
    readonly cycles: ReadonlyArray<BillingCycle>
    readonly invoices: ReadonlyArray<Omit<Invoice, "invoiceNumber">>
  }) => Effect.Effect<void>
  readonly find: (accountId: string, id: string) => Effect.Effect<Option.Option<SubscriptionAggregate>>
  readonly list: (accountId: string, filter: SubscriptionListFilter) => Effect.Effect<{
    readonly items: ReadonlyArray<SubscriptionListEntry>
    readonly total: number
    readonly lastKey: string | null
  }>
  /** The customer's subscriptions, newest first. */
  readonly listByCustomer: (accountId: string, customerId: string) => Effect.Effect<ReadonlyArray<Subscription>>
  /** How many open subscriptions (`OPEN_SUBSCRIPTION_STATUSES`) the customer, or the product's prices, has. */
  readonly countOpen: (accountId: string, by: { readonly customerId: string } | { readonly productId: string }) => Effect.Effect<number>
  /** How many subscriptions, of any status, ever sold the product. */
  readonly countSelling: (accountId: string, productId: string) => Effect.Effect<number>
  /** Applies `transition` (with `changes`) if the subscription is still in one of its `from` statuses. */
  readonly transition: (
    id: string,
    transition: SubscriptionTransition,
    changes: Partial<Pick<Subscription, "canceledAt" | "cancelReason" | "archivedAt">>,
    at: Date
  ) => Effect.Effect<Option.Option<Subscription>>
  /** Sets `cancelAtPeriodEnd` (and the reason) unless it is set already; whether it changed. */
  readonly scheduleCancel: (id: string, reason: string | null, at: Date) => Effect.Effect<boolean>
  /** Moves cycle `n` from one of `from` to `to`, and its invoice to `invoice`; whether it moved. */
  readonly moveCycle: (
    subscriptionId: string,
    n: number,
    move: {
      readonly from: ReadonlyArray<CycleStatus>
      readonly to: CycleStatus
      readonly invoice: { readonly status: InvoiceStatus; readonly paidAt?: Date | undefined; readonly canceledAt?: Date | undefined } | null
    },
    at: Date
  ) => Effect.Effect<boolean>
  /** Cancels every open cycle (and its invoice); the numbers canceled. */
  readonly cancelOpenCycles: (subscriptionId: string, at: Date) => Effect.Effect<ReadonlyArray<number>>
  /** Appends items to a subscription (after its others). */
  readonly addItems: (items: ReadonlyArray<SubscriptionItem>) => Effect.Effect<void>
  /** Marks `itemId` as replaced by `replacementId` (an upgrade waiting for payment, or a downgrade for the next cycle). */
  readonly linkReplacement: (itemId: string, replacementId: string, at: Date) => Effect.Effect<void>
  /** Adds an invoice to an existing cycle (a plan change's prorata), numbered per account. */
  readonly addInvoice: (accountId: string, invoice: Omit<Invoice, "invoiceNumber">) => Effect.Effect<void>
  /** Appends an entry to the subscription's histories. */
  readonly appendChange: (subscriptionId: string, change: SubscriptionChange) => Effect.Effect<void>
  /**
   * The items the paid prorata charge `chargeId` was waiting for become
   * `ACTIVE`, and the items they replace `CANCELED` (first, so a price is never
   * live twice); answers the activated items.
   */
  readonly activatePaidItems: (chargeId: string, at: Date) => Effect.Effect<ReadonlyArray<SubscriptionItem>>
  /** The items waiting for the refused prorata charge `chargeId` become `FAILED`; those they would replace keep going. */
  readonly failItemsOfCharge: (chargeId: string, at: Date) => Effect.Effect<void>
  /** Moves the open invoices of charge `chargeId` to `status` at `at` (its payment or cancel instant). */
  readonly settleInvoicesOfCharge: (chargeId: string, status: InvoiceStatus, at: Date) => Effect.Effect<void>
  /** Makes `newItemId` the main plan when it replaces the main plan `oldItemId`. */
  readonly replacePrimary: (subscriptionId: string, oldItemId: string, newItemId: string, at: Date) => Effect.Effect<void>
  /** Ends an item now (`CANCELED`). */
  readonly cancelItem: (itemId: string, at: Date) => Effect.Effect<void>
  /** Sets what a not yet issued (`SCHEDULED`) cycle will bill. */
  readonly repriceScheduledCycle: (subscriptionId: string, n: number, amounts: { readonly amount: Cents; readonly discount: Cents }, at: Date) => Effect.Effect<void>
  /**
   * Moves the not yet issued cycle `n` to a new due date (its period starts
   * then), adding `adjustment` to what it carries, and the subscription's
   * billing day and anchor with it; false when the cycle was issued meanwhile.
   */
  readonly reschedule: (
    subscriptionId: string,
    n: number,
    cycle: { readonly dueDate: string; readonly issueDate: string; readonly adjustment: number },
    terms: Pick<Subscription, "billingDay" | "anchorDate" | "anchorCycle">,
    at: Date
  ) => Effect.Effect<boolean>
  /** The id of the account's subscription with the Pix Automático recurrence `recurrencyId`. */
  readonly findByRecurrence: (accountId: string, recurrencyId: string) => Effect.Effect<Option.Option<string>>
  /** Records the bank's answer on a pending recurrence; whether it was pending. */
  readonly decideRecurrence: (id: string, status: "AUTHORIZED" | "REJECTED", at: Date) => Effect.Effect<boolean>
  /** Sets the payment method of the cycles not issued yet. */
  readonly setScheduledPaymentMethod: (subscriptionId: string, method: Subscription["paymentMethod"], at: Date) => Effect.Effect<void>
  /** Changes the editable fields of a subscription. */
  readonly update: (
    id: string,
    fields: Partial<
      Pick<Subscription, "additionalEmails" | "cancelAtPeriodEnd" | "paymentMethod" | "paymentMethodId" | "card" | "pixRecurrencyId" | "pixRecurrenceStatus">
    >,
    at: Date
  ) => Effect.Effect<void>
  /** Moves the items of `type` in one of `from` to `to`. */
  readonly moveItems: (
    subscriptionId: string,
    which: {
      readonly type: SubscriptionItem["type"]
      readonly from: ReadonlyArray<ItemStatus>
      /** Leave replacements waiting for a payment or for the next cycle as they are. */
      readonly excludeReplacements?: boolean
    },
    to: ItemStatus,
    at: Date
  ) => Effect.Effect<void>
}>()("@billing/core/ports/Subscriptions") {}

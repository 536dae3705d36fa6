/**
 * The subscription item state machine, in one table as the charge's
 * (`ChargeTransitions.ts`). Each move names the items it applies to: their
 * type, and whether they replace another item (an upgrade waiting for its
 * prorata, `PENDING_UPGRADE`; a downgrade waiting for the next cycle,
 * `PENDING` naming the item it replaces). Storage applies a move as one
 * conditional UPDATE over those items.
 *
 * A replacement takes over in two moves, always in this order: the item it
 * replaces `replaced` first, then the replacement started, so a price is
 * never live twice (the database's unique index on live prices, migration
 * 0013, would refuse it).
 */
import type { ItemStatus, SubscriptionItem } from "../domain/Subscription.ts"

/** The statuses of a recurring item the current cycle bills (unless it is a downgrade waiting for the next cycle). */
export const BILLED_ITEM_STATUSES: ReadonlyArray<ItemStatus> = ["PENDING", "TRIALING", "AWAITING_PAYMENT", "ACTIVE", "DEFAULT"]

export type ItemTrigger =
  /** The subscription's first payment: its recurring items start. */
  | "activated"
  /** The invoice that carried an order bump was paid. */
  | "charged"
  /** The subscription was canceled: its recurring items end, a change waiting for its payment with them. */
  | "canceled"
  /** The subscription was canceled: its one-time items not charged yet never will be. */
  | "oneTimeCanceled"
  /** `PATCH` with `old.itemId` alone: the item ends now. */
  | "removed"
  /** Its replacement took over (an upgrade paid, or free; a downgrade's cycle came). */
  | "replaced"
  /** An upgrade or add-on's prorata was paid: the item waiting for it starts. */
  | "upgradePaid"
  /** An upgrade or add-on's prorata was refused, expired, or paid after the subscription ended: it never starts. */
  | "upgradeFailed"
  /** The cycle a downgrade waited for came: the replacement starts. */
  | "downgradeStarted"

export interface ItemTransition {
  readonly trigger: ItemTrigger
  readonly from: ReadonlyArray<ItemStatus>
  readonly to: ItemStatus
  /** The items' type, or null for either. */
  readonly type: SubscriptionItem["type"] | null
  /** Only items that replace another (true), only items that replace none (false), or either (null). */
  readonly replacing: boolean | null
}

export const ItemTransitions = {
  // A downgrade scheduled meanwhile waits for its cycle: it does not start with the plan.
  activated: { trigger: "activated", from: ["PENDING", "TRIALING", "AWAITING_PAYMENT"], to: "ACTIVE", type: "RECURRING", replacing: false },
  charged: { trigger: "charged", from: ["PENDING"], to: "CHARGED", type: "ONE_TIME", replacing: null },
  canceled: { trigger: "canceled", from: [...BILLED_ITEM_STATUSES, "PENDING_UPGRADE"], to: "CANCELED", type: "RECURRING", replacing: null },
  oneTimeCanceled: { trigger: "oneTimeCanceled", from: ["PENDING", "AWAITING_PAYMENT"], to: "CANCELED", type: "ONE_TIME", replacing: null },
  removed: { trigger: "removed", from: BILLED_ITEM_STATUSES, to: "CANCELED", type: null, replacing: null },
  replaced: { trigger: "replaced", from: BILLED_ITEM_STATUSES, to: "CANCELED", type: null, replacing: null },
  upgradePaid: { trigger: "upgradePaid", from: ["PENDING_UPGRADE"], to: "ACTIVE", type: null, replacing: null },
  upgradeFailed: { trigger: "upgradeFailed", from: ["PENDING_UPGRADE"], to: "FAILED", type: null, replacing: null },
  downgradeStarted: { trigger: "downgradeStarted", from: ["PENDING"], to: "ACTIVE", type: "RECURRING", replacing: true }
} as const satisfies { readonly [T in ItemTrigger]: ItemTransition & { readonly trigger: T } }

/** The status `trigger` moves `item` to, or `undefined` when the table has no such move for it. */
export const nextItemStatus = (
  item: Pick<SubscriptionItem, "status" | "type" | "upgradedFromItemId">,
  trigger: ItemTrigger
): ItemStatus | undefined => {
  const transition: ItemTransition = ItemTransitions[trigger]
  const applies = transition.from.includes(item.status) && (transition.type === null || transition.type === item.type) &&
    (transition.replacing === null || transition.replacing === (item.upgradedFromItemId !== null))
  return applies ? transition.to : undefined
}

/** A downgrade waiting for the next cycle: what `downgradeStarted` starts. */
export const isScheduledReplacement = (item: Pick<SubscriptionItem, "status" | "type" | "upgradedFromItemId">): boolean =>
  nextItemStatus(item, "downgradeStarted") !== undefined

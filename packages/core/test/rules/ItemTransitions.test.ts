/**
 * The item state machine is one table: each trigger moves only the items of
 * its type, replacing another or not, in the statuses written here by hand;
 * every other item is left as it is.
 */
import { describe, expect, it } from "vitest"
import { SubscriptionItemId } from "../../src/domain/Ids.ts"
import { type ItemStatus, ItemStatuses, type SubscriptionItem } from "../../src/domain/Subscription.ts"
import { BILLED_ITEM_STATUSES, isScheduledReplacement, ItemTransitions, type ItemTrigger, nextItemStatus } from "../../src/rules/ItemTransitions.ts"

type Type = SubscriptionItem["type"]

const OLD = SubscriptionItemId.make("item_old")

const billed: ReadonlyArray<ItemStatus> = ["PENDING", "TRIALING", "AWAITING_PAYMENT", "ACTIVE", "DEFAULT"]

// Written out by hand from the plan change and cancel rules (docs/decisions.md, Subscriptions), not read from the code:
// the trigger, the statuses it moves, the items' type and whether they replace another ("any": either), and the status reached.
const allowed: ReadonlyArray<readonly [ItemTrigger, ReadonlyArray<ItemStatus>, Type | "any", boolean | "any", ItemStatus]> = [
  ["activated", ["PENDING", "TRIALING", "AWAITING_PAYMENT"], "RECURRING", false, "ACTIVE"],
  ["charged", ["PENDING"], "ONE_TIME", "any", "CHARGED"],
  ["canceled", [...billed, "PENDING_UPGRADE"], "RECURRING", "any", "CANCELED"],
  ["oneTimeCanceled", ["PENDING", "AWAITING_PAYMENT"], "ONE_TIME", "any", "CANCELED"],
  ["removed", billed, "any", "any", "CANCELED"],
  ["replaced", billed, "any", "any", "CANCELED"],
  ["upgradePaid", ["PENDING_UPGRADE"], "any", "any", "ACTIVE"],
  ["upgradeFailed", ["PENDING_UPGRADE"], "any", "any", "FAILED"],
  ["downgradeStarted", ["PENDING"], "RECURRING", true, "ACTIVE"]
]

const expectedMove = (trigger: ItemTrigger, status: ItemStatus, type: Type, replacing: boolean) => {
  const row = allowed.find(([t]) => t === trigger)!
  const [, from, rowType, rowReplacing, to] = row
  const applies = from.includes(status) && (rowType === "any" || rowType === type) && (rowReplacing === "any" || rowReplacing === replacing)
  return applies ? to : undefined
}

describe("item transitions", () => {
  const triggers = Object.keys(ItemTransitions) as ReadonlyArray<ItemTrigger>

  it("names a row for every trigger of the table", () => {
    expect([...triggers].sort()).toEqual(allowed.map(([t]) => t).sort())
  })

  it("moves exactly the items written here, and leaves every other one", () => {
    for (const trigger of triggers) {
      for (const status of ItemStatuses) {
        for (const type of ["RECURRING", "ONE_TIME"] as const) {
          for (const replacing of [true, false]) {
            const item = { status, type, upgradedFromItemId: replacing ? OLD : null }
            expect(nextItemStatus(item, trigger), `${trigger} on a ${type} ${status} item${replacing ? " replacing another" : ""}`)
              .toBe(expectedMove(trigger, status, type, replacing))
          }
        }
      }
    }
  })

  it("counts as billed the recurring statuses of a live item", () => {
    expect([...BILLED_ITEM_STATUSES].sort()).toEqual([...billed].sort())
  })

  it("takes a downgrade waiting for the next cycle for one, and nothing else", () => {
    expect(isScheduledReplacement({ status: "PENDING", type: "RECURRING", upgradedFromItemId: OLD })).toBe(true)
    expect(isScheduledReplacement({ status: "PENDING", type: "RECURRING", upgradedFromItemId: null })).toBe(false)
    expect(isScheduledReplacement({ status: "PENDING_UPGRADE", type: "RECURRING", upgradedFromItemId: OLD })).toBe(false)
    expect(isScheduledReplacement({ status: "ACTIVE", type: "RECURRING", upgradedFromItemId: OLD })).toBe(false)
  })
})

/**
 * Which subscription statuses count as open, finished, billing and hidden,
 * written out by hand from the spec's status table and docs/decisions.md.
 */
import { describe, expect, it } from "vitest"
import { SubscriptionStatuses } from "../../src/domain/Subscription.ts"
import {
  BILLING_SUBSCRIPTION_STATUSES,
  FINISHED_SUBSCRIPTION_STATUSES,
  FIRST_CYCLE_BILLING_STATUSES,
  HIDDEN_SUBSCRIPTION_STATUSES,
  OPEN_SUBSCRIPTION_STATUSES,
  PLAN_CHANGE_STATUSES
} from "../../src/rules/SubscriptionStatuses.ts"

const sorted = (statuses: ReadonlyArray<string>) => [...statuses].sort()

describe("subscription status sets", () => {
  it("open: the statuses that may still bill", () => {
    expect(sorted(OPEN_SUBSCRIPTION_STATUSES)).toEqual(["ACTIVE", "DEFAULT", "PAST_DUE", "PENDING", "TRIALING"])
  })

  it("finished: the statuses that never bill again", () => {
    expect(sorted(FINISHED_SUBSCRIPTION_STATUSES)).toEqual(["ARCHIVED", "CANCELED", "COMPLETED", "EXPIRED"])
  })

  it("puts every status in exactly one of open and finished", () => {
    for (const status of SubscriptionStatuses) {
      expect([OPEN_SUBSCRIPTION_STATUSES.includes(status), FINISHED_SUBSCRIPTION_STATUSES.includes(status)].filter(Boolean), status).toHaveLength(1)
    }
  })

  it("bills every cycle of an active or defaulting subscription, and only the first of one in a free period", () => {
    expect(sorted(BILLING_SUBSCRIPTION_STATUSES)).toEqual(["ACTIVE", "DEFAULT"])
    expect(FIRST_CYCLE_BILLING_STATUSES).toEqual(["TRIALING"])
  })

  it("changes items only of an active or past-due subscription", () => {
    expect(sorted(PLAN_CHANGE_STATUSES)).toEqual(["ACTIVE", "PAST_DUE"])
  })

  it("hides archived subscriptions from listings", () => {
    expect(HIDDEN_SUBSCRIPTION_STATUSES).toEqual(["ARCHIVED"])
  })
})

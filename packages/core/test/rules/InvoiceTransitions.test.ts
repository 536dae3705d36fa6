/**
 * The invoice state machine is one table: an invoice is marked overdue once,
 * is settled once (paid, canceled, expired or uncollectible) from any open
 * status, records the instant of a payment or a cancel, and never moves
 * again once settled.
 */
import { describe, expect, it } from "vitest"
import { type InvoiceStatus, InvoiceStatuses } from "../../src/domain/Subscription.ts"
import { InvoiceTransitions, type InvoiceTrigger, nextInvoiceStatus, OPEN_INVOICE_STATUSES } from "../../src/rules/InvoiceTransitions.ts"

const open: ReadonlyArray<InvoiceStatus> = ["PENDING", "AWAITING_PAYMENT", "OVERDUE"]

// Written out by hand from the spec's invoice statuses, not read from the code.
const allowed: ReadonlyArray<readonly [InvoiceStatus, InvoiceTrigger, InvoiceStatus]> = [
  ["PENDING", "overdue", "OVERDUE"],
  ["AWAITING_PAYMENT", "overdue", "OVERDUE"],
  ...open.map((from) => [from, "paid", "PAID"] as const),
  ...open.map((from) => [from, "canceled", "CANCELED"] as const),
  ...open.map((from) => [from, "expired", "EXPIRED"] as const),
  ...open.map((from) => [from, "uncollectible", "UNCOLLECTIBLE"] as const)
]

describe("invoice transitions", () => {
  const triggers = Object.keys(InvoiceTransitions) as ReadonlyArray<InvoiceTrigger>

  it("allows exactly the moves written here, and refuses every other pair", () => {
    const expected = new Map(allowed.map(([from, trigger, to]) => [`${from} ${trigger}`, to]))
    for (const from of InvoiceStatuses) {
      for (const trigger of triggers) {
        expect(nextInvoiceStatus(from, trigger), `${from} on ${trigger}`).toBe(expected.get(`${from} ${trigger}`))
      }
    }
  })

  it("records the payment's instant when paid, the cancel's when canceled, and nothing else", () => {
    expect(Object.fromEntries(triggers.map((t) => [t, InvoiceTransitions[t].stamps]))).toEqual({
      overdue: null,
      paid: "paidAt",
      canceled: "canceledAt",
      expired: null,
      uncollectible: null
    })
  })

  it("counts as open the statuses still waiting for money", () => {
    expect([...OPEN_INVOICE_STATUSES].sort()).toEqual([...open].sort())
  })
})

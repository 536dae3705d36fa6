/**
 * The charge state machine is one table: each trigger moves a charge only
 * from the statuses the spec allows, and every other (status, trigger) pair
 * is refused.
 */
import { ChargeStatuses, type ChargeStatus, ChargeTransitions, type ChargeTrigger, nextChargeStatus } from "@billing/core"
import { describe, expect, it } from "vitest"

// Written out by hand from the spec's States table and docs/decisions.md, not read from the code.
const allowed: ReadonlyArray<readonly [ChargeStatus, ChargeTrigger, ChargeStatus]> = [
  ["PENDING", "paymentRequested", "PROCESSING"],
  ["PROCESSING", "paymentRequested", "PROCESSING"],
  ["AWAITING_PAYMENT", "paymentRequested", "PROCESSING"],
  ["PENDING", "paymentConfirmed", "PAID"],
  ["PROCESSING", "paymentConfirmed", "PAID"],
  ["AWAITING_PAYMENT", "paymentConfirmed", "PAID"],
  ["PENDING", "expired", "EXPIRED"],
  ["PROCESSING", "expired", "EXPIRED"],
  ["AWAITING_PAYMENT", "expired", "EXPIRED"],
  ["PENDING", "canceled", "CANCELED"],
  ["PROCESSING", "canceled", "CANCELED"],
  ["AWAITING_PAYMENT", "canceled", "CANCELED"],
  ["CANCELED", "archived", "ARCHIVED"],
  ["PROCESSING", "cardApproved", "PAID"],
  ["PROCESSING", "cardFailed", "FAILED"],
  ["PAID", "partiallyRefunded", "PARTIALLY_REFUNDED"],
  ["PARTIALLY_REFUNDED", "partiallyRefunded", "PARTIALLY_REFUNDED"],
  ["PAID", "refunded", "REFUNDED"],
  ["PARTIALLY_REFUNDED", "refunded", "REFUNDED"],
  ["PAID", "disputed", "DISPUTE"],
  ["PARTIALLY_REFUNDED", "disputed", "DISPUTE"],
  ["DISPUTE", "disputeWon", "PAID"],
  ["DISPUTE", "disputeWonAfterRefund", "PARTIALLY_REFUNDED"],
  ["DISPUTE", "chargedBack", "CHARGED_BACK"]
]

describe("charge transitions", () => {
  const triggers = Object.keys(ChargeTransitions) as ReadonlyArray<ChargeTrigger>

  it("allows exactly the moves of the spec, and refuses every other status and trigger pair", () => {
    const expected = new Map(allowed.map(([from, trigger, to]) => [`${from} ${trigger}`, to]))
    let refused = 0
    for (const from of ChargeStatuses) {
      for (const trigger of triggers) {
        const next = nextChargeStatus(from, trigger)
        expect(next, `${from} on ${trigger}`).toBe(expected.get(`${from} ${trigger}`))
        if (next === undefined) refused++
      }
    }
    expect(refused).toBe(ChargeStatuses.length * triggers.length - allowed.length)
  })

  it("emits payment.success when a charge is paid and charge.expired when it expires, nothing else", () => {
    expect(Object.fromEntries(triggers.map((t) => [t, ChargeTransitions[t].event]))).toEqual({
      paymentRequested: null,
      paymentConfirmed: "payment.success",
      expired: "charge.expired",
      canceled: null,
      archived: null,
      cardApproved: "payment.success",
      cardFailed: null,
      partiallyRefunded: null,
      refunded: null,
      disputed: null,
      disputeWon: null,
      disputeWonAfterRefund: null,
      chargedBack: null
    })
  })

  it("never leaves a final status: EXPIRED, ARCHIVED, FAILED, REFUNDED and CHARGED_BACK accept no trigger; PAID only a refund or a dispute", () => {
    for (const from of ["EXPIRED", "ARCHIVED", "FAILED", "REFUNDED", "CHARGED_BACK"] as const) {
      expect(triggers.filter((t) => nextChargeStatus(from, t) !== undefined), from).toEqual([])
    }
    expect(triggers.filter((t) => nextChargeStatus("PAID", t) !== undefined)).toEqual(["partiallyRefunded", "refunded", "disputed"])
  })
})

/**
 * The refund and split-debt state machines are tables: each trigger moves
 * a row only from the statuses written here by hand, and the sets storage
 * reads (in flight, confirmed, counted against the charge; owed debts) and
 * a debt's reason and statement category are pinned down the same way.
 */
import { describe, expect, it } from "vitest"
import { RefundStatus } from "../../src/domain/Refund.ts"
import {
  debtCategory,
  debtPayment,
  DebtReasons,
  debtReasonOf,
  type DebtStatus,
  DebtStatuses,
  DebtTransitions,
  type DebtTrigger,
  NEW_DEBT_STATUS,
  nextDebtStatus,
  OWED_DEBT_STATUSES
} from "../../src/rules/DebtTransitions.ts"
import {
  CONFIRMED_REFUND_STATUSES,
  COUNTED_REFUND_STATUSES,
  IN_FLIGHT_REFUND_STATUSES,
  nextRefundStatus,
  RefundTransitions,
  type RefundTrigger
} from "../../src/rules/RefundTransitions.ts"

const sorted = (statuses: ReadonlyArray<string>) => [...statuses].sort()

// Written out by hand from the spec's Refund status and `wallet/Refunds.ts`'s flow, not read from the code.
const refundMoves: ReadonlyArray<readonly [string, RefundTrigger, string]> = [
  ["PROCESSING", "confirmed", "CONFIRMED"],
  ["PROCESSING", "refused", "ERROR"]
]

describe("refund transitions", () => {
  const triggers = Object.keys(RefundTransitions) as ReadonlyArray<RefundTrigger>

  it("records the provider's answer only for a refund in flight, and refuses every other pair", () => {
    const expected = new Map(refundMoves.map(([from, trigger, to]) => [`${from} ${trigger}`, to]))
    for (const from of RefundStatus.literals) {
      for (const trigger of triggers) {
        expect(nextRefundStatus(from, trigger), `${from} on ${trigger}`).toBe(expected.get(`${from} ${trigger}`))
      }
    }
    for (const settled of ["CONFIRMED", "ERROR"] as const) {
      expect(triggers.filter((t) => nextRefundStatus(settled, t) !== undefined), settled).toEqual([])
    }
  })

  it("claims refunds in flight, moves the charge by confirmed ones, and counts all but refused ones against what is left to refund", () => {
    expect(IN_FLIGHT_REFUND_STATUSES).toEqual(["PROCESSING"])
    expect(CONFIRMED_REFUND_STATUSES).toEqual(["CONFIRMED"])
    expect(sorted(COUNTED_REFUND_STATUSES)).toEqual(["CONFIRMED", "PROCESSING"])
  })
})

// Written out by hand from `ledger/PayDebts.ts` and the refusal of a refund in `wallet/Refunds.ts`.
const debtMoves: ReadonlyArray<readonly [DebtStatus, DebtTrigger, DebtStatus]> = [
  ["PENDING", "partlyPaid", "PENDING"],
  ["PENDING", "paid", "PAID"],
  ["PENDING", "canceled", "CANCELED"],
  ["PAID", "canceled", "CANCELED"]
]

describe("split debt transitions", () => {
  const triggers = Object.keys(DebtTransitions) as ReadonlyArray<DebtTrigger>

  it("pays only an owed debt, cancels one owed or paid, and never moves a canceled one", () => {
    const expected = new Map(debtMoves.map(([from, trigger, to]) => [`${from} ${trigger}`, to]))
    for (const from of DebtStatuses) {
      for (const trigger of triggers) {
        expect(nextDebtStatus(from, trigger), `${from} on ${trigger}`).toBe(expected.get(`${from} ${trigger}`))
      }
    }
    expect(triggers.filter((t) => nextDebtStatus("CANCELED", t) !== undefined)).toEqual([])
  })

  it("opens a debt owed, and a payment that leaves nothing owed pays it off", () => {
    expect(NEW_DEBT_STATUS).toBe("PENDING")
    expect(OWED_DEBT_STATUSES).toEqual(["PENDING"])
    expect(debtPayment(0)).toBe(DebtTransitions.paid)
    expect(debtPayment(1)).toBe(DebtTransitions.partlyPaid)
    expect(debtPayment(4_999)).toBe(DebtTransitions.partlyPaid)
  })

  it("is for a refund when it names one, else for the opening fee; paid under FEE, CHARGEBACK or REFUND", () => {
    expect(sorted(DebtReasons)).toEqual(["OPENING_FEE", "REFUND"])
    expect(debtReasonOf("ref_1")).toBe("REFUND")
    expect(debtReasonOf(null)).toBe("OPENING_FEE")
    expect(debtCategory("OPENING_FEE", null)).toBe("FEE")
    expect(debtCategory("REFUND", "CHARGEBACK")).toBe("CHARGEBACK")
    expect(debtCategory("REFUND", "CUSTOMER_REQUEST")).toBe("REFUND")
    expect(debtCategory("REFUND", "FRAUD")).toBe("REFUND")
  })
})

/**
 * The ledger's closed sets storage reads: the books a statement shows, the
 * book of the rails, and which way a Pix went by its line there. Written
 * out by hand from the spec's wallet transactions and `domain/Ledger.ts`.
 */
import { describe, expect, it } from "vitest"
import { RAILS_BOOK, railDirection, RailDirections, STATEMENT_BOOKS } from "../../src/rules/Postings.ts"

describe("ledger books and directions", () => {
  it("shows an account what it can spend, what is blocked and what it owes; not what it will receive", () => {
    expect([...STATEMENT_BOOKS].sort()).toEqual(["AVAILABLE", "DEBT", "RETAINED"])
  })

  it("reads the rails from the house's clearing book: money leaving it came into the account, money entering it went out", () => {
    expect(RAILS_BOOK).toBe("CLEARING")
    expect(RailDirections).toEqual(["CREDIT", "DEBIT"])
    expect(railDirection(-12_345)).toBe("CREDIT")
    expect(railDirection(12_345)).toBe("DEBIT")
  })
})

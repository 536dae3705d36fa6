/**
 * The note's state machine is a table: each trigger moves a note only from
 * the statuses written here by hand, the pairs the database's trigger admits
 * are exactly those, and the list filter joins the statuses the spec makes
 * one.
 */
import { describe, expect, it } from "vitest"
import { NotaStatus } from "../../src/domain/Nota.ts"
import {
  ENDED_NOTA_STATUSES,
  LIVE_NOTA_STATUSES,
  notaStatusPairs,
  NotaTransitions,
  type NotaTrigger,
  REFUSED_NOTA_STATUSES,
  statusesMatching
} from "../../src/rules/NotaTransitions.ts"

const sorted = (items: ReadonlyArray<string>) => [...items].sort()

// Written out by hand from the spec's fiscal invoice statuses and docs/decisions.md ("Notas"), not read from the code:
// a note waits for the city (PROCESSING), is issued at once or authorized later, refused or never sent; only a refused
// one is sent again, and only a live one is canceled or replaced.
const moves: ReadonlyArray<readonly [NotaTrigger, ReadonlyArray<string>, string]> = [
  ["sent", ["PROCESSING"], "PROCESSING"],
  ["issuedAtOnce", ["PROCESSING"], "ISSUED"],
  ["authorized", ["PROCESSING"], "AUTHORIZED"],
  ["refused", ["PROCESSING"], "FAILED"],
  ["failedToSend", ["PROCESSING"], "ERROR"],
  ["reissued", ["ERROR", "FAILED"], "PROCESSING"],
  ["canceled", ["AUTHORIZED", "ISSUED"], "CANCELED"],
  ["replaced", ["AUTHORIZED", "ISSUED"], "REPLACED"]
]

describe("nota transitions", () => {
  it("moves a note by each trigger only from the statuses written here", () => {
    expect(sorted(Object.keys(NotaTransitions))).toEqual(sorted(moves.map(([trigger]) => trigger)))
    for (const [trigger, from, to] of moves) {
      const transition = NotaTransitions[trigger]
      expect(transition.trigger).toBe(trigger)
      expect(sorted(transition.from), trigger).toEqual(from)
      expect(transition.to, trigger).toBe(to)
    }
  })

  it("admits in the database exactly the pairs of the table, and none out of a canceled or replaced note", () => {
    const expected = moves.flatMap(([, from, to]) => from.map((status) => `${status}>${to}`))
    expect(sorted(notaStatusPairs().map(([from, to]) => `${from}>${to}`))).toEqual(sorted(expected))
    expect(notaStatusPairs().filter(([from]) => from === "CANCELED" || from === "REPLACED")).toEqual([])
  })

  it("names the live, refused and ended statuses, which together with PROCESSING are every status once", () => {
    expect(sorted(LIVE_NOTA_STATUSES)).toEqual(["AUTHORIZED", "ISSUED"])
    expect(sorted(REFUSED_NOTA_STATUSES)).toEqual(["ERROR", "FAILED"])
    expect(sorted(ENDED_NOTA_STATUSES)).toEqual(["CANCELED", "REPLACED"])
    expect(sorted(["PROCESSING", ...LIVE_NOTA_STATUSES, ...REFUSED_NOTA_STATUSES, ...ENDED_NOTA_STATUSES])).toEqual(sorted(NotaStatus.literals))
  })

  it("lists AUTHORIZED and ISSUED as one, ERROR and FAILED as one, and every other status alone", () => {
    expect(sorted(statusesMatching("AUTHORIZED"))).toEqual(["AUTHORIZED", "ISSUED"])
    expect(sorted(statusesMatching("ISSUED"))).toEqual(["AUTHORIZED", "ISSUED"])
    expect(sorted(statusesMatching("ERROR"))).toEqual(["ERROR", "FAILED"])
    expect(sorted(statusesMatching("FAILED"))).toEqual(["ERROR", "FAILED"])
    expect(statusesMatching("PROCESSING")).toEqual(["PROCESSING"])
    expect(statusesMatching("CANCELED")).toEqual(["CANCELED"])
    expect(statusesMatching("REPLACED")).toEqual(["REPLACED"])
  })
})

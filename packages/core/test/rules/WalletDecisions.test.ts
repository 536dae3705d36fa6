/**
 * Pix claims, card disputes and MED infractions are each open until one
 * decision closes them, once: each table moves only an open one, to the
 * status written here by hand, and the sets storage reads are pinned down
 * the same way.
 */
import { describe, expect, it } from "vitest"
import { DisputeStatus } from "../../src/domain/Dispute.ts"
import { MedStatus } from "../../src/domain/Med.ts"
import { PixClaimStatus } from "../../src/domain/PixClaim.ts"
import { DisputeTransitions, type DisputeTrigger, nextDisputeStatus, OPEN_DISPUTE_STATUSES } from "../../src/rules/DisputeTransitions.ts"
import { MedTransitions, type MedTrigger, nextMedStatus, OPEN_MED_STATUSES } from "../../src/rules/MedTransitions.ts"
import {
  HOLDING_PIX_CLAIM_STATUSES,
  nextPixClaimStatus,
  OPEN_PIX_CLAIM_STATUSES,
  PixClaimTransitions,
  type PixClaimTrigger
} from "../../src/rules/PixClaimTransitions.ts"

/** Every (status, trigger) pair of a table, against the moves written by hand: the move's target, or undefined. */
const pairs = <S extends string, T extends string>(
  statuses: ReadonlyArray<S>,
  triggers: ReadonlyArray<T>,
  next: (from: S, trigger: T) => S | undefined
) => Object.fromEntries(statuses.flatMap((from) => triggers.map((trigger) => [`${from} ${trigger}`, next(from, trigger)])))

const expected = (statuses: ReadonlyArray<string>, triggers: ReadonlyArray<string>, moves: Record<string, string>) =>
  Object.fromEntries(statuses.flatMap((from) => triggers.map((trigger) => [`${from} ${trigger}`, moves[`${from} ${trigger}`]])))

describe("Pix claim transitions", () => {
  const triggers = Object.keys(PixClaimTransitions) as ReadonlyArray<PixClaimTrigger>

  it("completes or cancels an open claim, and moves no other", () => {
    expect(pairs(PixClaimStatus.literals, triggers, nextPixClaimStatus)).toEqual(
      expected(PixClaimStatus.literals, triggers, { "OPEN completed": "COMPLETED", "OPEN canceled": "CANCELED" })
    )
  })

  it("keeps one open claim per key, and makes the key the holder's once completed", () => {
    expect(OPEN_PIX_CLAIM_STATUSES).toEqual(["OPEN"])
    expect(HOLDING_PIX_CLAIM_STATUSES).toEqual(["COMPLETED"])
  })
})

describe("dispute transitions", () => {
  const triggers = Object.keys(DisputeTransitions) as ReadonlyArray<DisputeTrigger>

  it("decides an open dispute won or lost, and never decides one twice", () => {
    expect(pairs(DisputeStatus.literals, triggers, nextDisputeStatus)).toEqual(
      expected(DisputeStatus.literals, triggers, { "OPEN won": "WON", "OPEN lost": "LOST" })
    )
    expect(OPEN_DISPUTE_STATUSES).toEqual(["OPEN"])
  })
})

describe("MED infraction transitions", () => {
  const triggers = Object.keys(MedTransitions) as ReadonlyArray<MedTrigger>

  it("releases or returns an open infraction, and never decides one twice", () => {
    expect(pairs(MedStatus.literals, triggers, nextMedStatus)).toEqual(
      expected(MedStatus.literals, triggers, { "OPEN released": "RELEASED", "OPEN returned": "RETURNED" })
    )
  })

  it("blocks a charge's money only while an infraction is open", () => {
    expect(OPEN_MED_STATUSES).toEqual(["OPEN"])
  })
})

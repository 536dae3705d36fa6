/**
 * A proposal's statuses move by tables, and the onboarding job takes a
 * proposal by one claim: both written out here by hand from the spec's
 * Proposal and onboarding and `onboarding/Onboarding.ts`'s steps.
 */
import { describe, expect, it } from "vitest"
import type { Proposal } from "../../src/domain/Proposal.ts"
import { StageStatus } from "../../src/domain/Proposal.ts"
import {
  FormTransitions,
  isLiveProposal,
  nextStageStatus,
  OnboardingClaim,
  onboardingTakes,
  ProposalAccountTransitions,
  REPROVED_STAGE_STATUSES,
  type StageTrigger,
  StageTransitions
} from "../../src/rules/ProposalTransitions.ts"

type Claimable = Pick<Proposal, "formStatus" | "account" | "backgroundCheck" | "documentsCopy" | "proposal" | "documentsSentAt">

/** A finished form, nothing decided yet, documents not sent. */
const fresh: Claimable = {
  formStatus: "FINISHED",
  account: "PENDING",
  backgroundCheck: "PENDING",
  documentsCopy: "PENDING",
  proposal: "PENDING",
  documentsSentAt: null
}
const sent = new Date("2026-11-20T15:00:00.000Z")

describe("proposal transitions", () => {
  it("decides a stage once: a waiting stage is approved or reproved, a decided one never moves", () => {
    const triggers = Object.keys(StageTransitions) as ReadonlyArray<StageTrigger>
    const moves: Record<string, string> = { "PENDING approved": "APPROVED", "PENDING reproved": "REPROVED" }
    for (const from of StageStatus.literals) {
      for (const trigger of triggers) expect(nextStageStatus(from, trigger), `${from} on ${trigger}`).toBe(moves[`${from} ${trigger}`])
    }
  })

  it("completes an unfinished form, and opens the account of a proposal waiting for it", () => {
    expect(FormTransitions.completed).toMatchObject({ from: ["UNFINISHED"], to: "FINISHED" })
    expect(ProposalAccountTransitions.opened).toMatchObject({ from: ["PENDING"], to: "CONFIRMED" })
  })

  it("is live until a stage reproves it", () => {
    expect(REPROVED_STAGE_STATUSES).toEqual(["REPROVED"])
    expect(isLiveProposal(fresh)).toBe(true)
    expect(isLiveProposal({ ...fresh, backgroundCheck: "APPROVED", documentsCopy: "APPROVED", proposal: "APPROVED" })).toBe(true)
    for (const stage of ["backgroundCheck", "documentsCopy", "proposal"] as const) {
      expect(isLiveProposal({ ...fresh, [stage]: "REPROVED" }), stage).toBe(false)
    }
  })
})

describe("the onboarding job's claim", () => {
  it("takes a finished form whose background check waits", () => {
    expect(onboardingTakes(fresh)).toBe(true)
    expect(onboardingTakes({ ...fresh, formStatus: "UNFINISHED" })).toBe(false)
  })

  it("waits for the documents before their copy is checked, and takes the proposal once they are sent", () => {
    const checked = { ...fresh, backgroundCheck: "APPROVED" } as const
    expect(onboardingTakes(checked)).toBe(false)
    expect(onboardingTakes({ ...checked, documentsSentAt: sent })).toBe(true)
  })

  it("takes a proposal whose documents copy was approved: its analysis, then its account, are to run", () => {
    const copied = { ...fresh, backgroundCheck: "APPROVED", documentsCopy: "APPROVED" } as const
    expect(onboardingTakes(copied)).toBe(true)
    expect(onboardingTakes({ ...copied, proposal: "APPROVED" })).toBe(true)
  })

  it("leaves a proposal whose account is open, and one a stage reproved", () => {
    const approved = { ...fresh, backgroundCheck: "APPROVED", documentsCopy: "APPROVED", proposal: "APPROVED", documentsSentAt: sent } as const
    expect(onboardingTakes({ ...approved, account: "CONFIRMED" })).toBe(false)
    expect(onboardingTakes({ ...fresh, backgroundCheck: "REPROVED" })).toBe(false)
    expect(onboardingTakes({ ...fresh, backgroundCheck: "APPROVED", documentsCopy: "REPROVED", documentsSentAt: sent })).toBe(false)
    expect(onboardingTakes({ ...approved, proposal: "REPROVED" })).toBe(false)
  })

  it("reads its statuses from the tables: finished forms, accounts not opened, a waiting background check, an approved copy", () => {
    expect(OnboardingClaim).toEqual({
      formStatuses: ["FINISHED"],
      accountStatuses: ["PENDING"],
      backgroundCheckStatuses: ["PENDING"],
      documentsCopyStatuses: ["APPROVED"]
    })
  })
})

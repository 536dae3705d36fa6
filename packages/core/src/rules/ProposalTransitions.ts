/**
 * A sub-account proposal's statuses, in tables as the charge's
 * (`ChargeTransitions.ts`), one per kind of status a proposal holds: its
 * form's (`formStatus`), each analysis stage's (`backgroundCheck`,
 * `documentsCopy`, `proposal`) and its account's. Use cases move a proposal
 * under its lock (`onboarding/Onboarding.ts`); storage reads the sets below
 * to find live proposals and the ones the onboarding job takes.
 *
 * Spec: Sub-account proposal, Proposal and onboarding.
 */
import { type FormStatus, type OnboardingStage, OnboardingStages, type Proposal, type StageStatus } from "../domain/Proposal.ts"

export type ProposalAccountStatus = Proposal["account"]

/** A move of one of a proposal's statuses (`S`), named by what makes it. */
export interface ProposalTransition<S extends string> {
  readonly trigger: string
  readonly from: ReadonlyArray<S>
  readonly to: S
}

/** A form's moves: complete once no field is missing, and onboarding begins. */
export const FormTransitions = {
  completed: { trigger: "completed", from: ["UNFINISHED"], to: "FINISHED" }
} as const satisfies Record<string, ProposalTransition<FormStatus>>

/** A stage's moves: the KYC provider decides it, once. */
export const StageTransitions = {
  approved: { trigger: "approved", from: ["PENDING"], to: "APPROVED" },
  reproved: { trigger: "reproved", from: ["PENDING"], to: "REPROVED" }
} as const satisfies Record<string, ProposalTransition<StageStatus>>

/** The account's moves: the sub-account is opened once every stage approved it. */
export const ProposalAccountTransitions = {
  opened: { trigger: "opened", from: ["PENDING"], to: "CONFIRMED" }
} as const satisfies Record<string, ProposalTransition<ProposalAccountStatus>>

export type StageTrigger = keyof typeof StageTransitions

/** The status `trigger` moves a stage in `from` to, or `undefined` when the table has no such move. */
export const nextStageStatus = (from: StageStatus, trigger: StageTrigger): StageStatus | undefined => {
  const transition: ProposalTransition<StageStatus> = StageTransitions[trigger]
  return transition.from.includes(from) ? transition.to : undefined
}

/**
 * A stage status that ends the proposal: reproved at any stage, it leads
 * nowhere, and the master may propose the document again. A proposal with
 * none is live: a master has at most one live proposal of a document (a
 * unique index on them, migration 0017).
 */
export const REPROVED_STAGE_STATUSES: ReadonlyArray<StageStatus> = [StageTransitions.reproved.to]

/** Whether `proposal` still leads somewhere: no stage reproved it. */
export const isLiveProposal = (proposal: Pick<Proposal, OnboardingStage>): boolean =>
  !OnboardingStages.some((stage) => REPROVED_STAGE_STATUSES.includes(proposal[stage]))

/** What the onboarding job's claim reads: each a list of the statuses it takes. */
export interface OnboardingClaim {
  readonly formStatuses: ReadonlyArray<FormStatus>
  readonly accountStatuses: ReadonlyArray<ProposalAccountStatus>
  /** Any one of these holding is a step to run: the background check in one of these, */
  readonly backgroundCheckStatuses: ReadonlyArray<StageStatus>
  /** the documents copy in one of these, or the documents sent (`documentsSentAt`). */
  readonly documentsCopyStatuses: ReadonlyArray<StageStatus>
}

/**
 * The proposals the onboarding job takes: live ones of a complete form
 * whose account is not opened yet, with a step to run now: the background
 * check to ask, the documents sent for their copy to be checked, or the
 * documents copy approved (the proposal's analysis, then the account, can
 * run). Storage builds the claim's `WHERE` from it; `onboardingTakes` reads
 * it for one proposal, as the claim does for many.
 */
export const OnboardingClaim: OnboardingClaim = {
  formStatuses: [FormTransitions.completed.to],
  accountStatuses: ProposalAccountTransitions.opened.from,
  backgroundCheckStatuses: StageTransitions.approved.from,
  documentsCopyStatuses: [StageTransitions.approved.to]
}

/** Whether the onboarding job takes `proposal` (its lease aside: a claim also skips a live one). */
export const onboardingTakes = (proposal: Pick<Proposal, "formStatus" | "account" | OnboardingStage | "documentsSentAt">): boolean =>
  OnboardingClaim.formStatuses.includes(proposal.formStatus) && OnboardingClaim.accountStatuses.includes(proposal.account) &&
  isLiveProposal(proposal) &&
  (OnboardingClaim.backgroundCheckStatuses.includes(proposal.backgroundCheck) ||
    OnboardingClaim.documentsCopyStatuses.includes(proposal.documentsCopy) || proposal.documentsSentAt !== null)

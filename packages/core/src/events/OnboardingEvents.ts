/**
 * Bodies of the onboarding events. The spec names the four `onboarding.*`
 * events (sent to the master's registrations, with its `accountId`) and
 * leaves their payloads unshown: each carries the proposal (`formId`,
 * `onboardingId`, `documentNumber`) and the stage's `status`;
 * `onboarding.create` adds the sub-account in `data`: its number in
 * `data.account` (spec: Proposal and onboarding) and beside it the bank
 * details `account_approved` gives, under the same names. The
 * `account_approved` message, sent to the proposal's own `webhookUrl`, is the
 * spec's (Resources: Sub-account proposal).
 */
import { Schema } from "effect"
import type { Account } from "../domain/Account.ts"
import { type Proposal, StageStatus } from "../domain/Proposal.ts"
import { Instant } from "../domain/Wire.ts"

/** The sub-account as the onboarding messages name it: `account` is its number. */
const AccountData = Schema.Struct({
  account: Schema.String,
  branch: Schema.String,
  documentNumber: Schema.String,
  ispb: Schema.String,
  name: Schema.String
})

/** The branch of every account of the engine: one institution, one branch. */
export const ACCOUNT_BRANCH = "0001"

const common = {
  timestamp: Instant,
  accountId: Schema.String,
  formId: Schema.String,
  onboardingId: Schema.String,
  documentNumber: Schema.String
}

export const OnboardingStageEvent = Schema.Struct({
  event: Schema.Literals(["onboarding.backgroundcheck", "onboarding.documentscopy", "onboarding.proposal"]),
  ...common,
  status: StageStatus,
  reason: Schema.NullOr(Schema.String)
}).annotate({ identifier: "OnboardingStageEvent" })

export const OnboardingCreateEvent = Schema.Struct({
  event: Schema.Literal("onboarding.create"),
  ...common,
  status: Schema.Literal("CONFIRMED"),
  data: AccountData
}).annotate({ identifier: "OnboardingCreateEvent" })

export const AccountApprovedMessage = Schema.Struct({
  event: Schema.Literal("account_approved"),
  status: Schema.Literal("CONFIRMED"),
  account: AccountData,
  onboardingId: Schema.String,
  documentNumber: Schema.String,
  formId: Schema.String,
  createdAt: Instant
}).annotate({ identifier: "AccountApprovedMessage" })

const commonOf = (p: Proposal, at: Date) => ({
  timestamp: at,
  accountId: p.accountId,
  formId: p.id,
  onboardingId: p.onboardingId!,
  documentNumber: p.documentNumber
})

const accountData = (account: Account, ispb: string) => ({
  account: account.number,
  branch: ACCOUNT_BRANCH,
  documentNumber: account.document,
  ispb,
  name: account.name
})

const encodeStage = Schema.encodeSync(OnboardingStageEvent)
const encodeCreate = Schema.encodeSync(OnboardingCreateEvent)
const encodeApproved = Schema.encodeSync(AccountApprovedMessage)

export const onboardingStageBody = (event: typeof OnboardingStageEvent.Type["event"], p: Proposal, status: StageStatus, at: Date): string =>
  JSON.stringify(encodeStage({ event, ...commonOf(p, at), status, reason: p.reason }))

export const onboardingCreateBody = (p: Proposal, account: Account, ispb: string, at: Date): string =>
  JSON.stringify(encodeCreate({ event: "onboarding.create", ...commonOf(p, at), status: "CONFIRMED", data: accountData(account, ispb) }))

export const accountApprovedBody = (p: Proposal, account: Account, ispb: string): string =>
  JSON.stringify(encodeApproved({
    event: "account_approved",
    status: "CONFIRMED",
    account: accountData(account, ispb),
    onboardingId: p.onboardingId!,
    documentNumber: p.documentNumber,
    formId: p.id,
    createdAt: account.createdAt
  }))

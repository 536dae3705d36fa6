/**
 * The onboarding of a finished proposal (spec: Proposal and onboarding),
 * run by the worker's `onboarding` job: background check, documents copy
 * (once the owner sent them on the documents-copy page), proposal analysis,
 * each decided by the KYC port with its `onboarding.*` event; then account
 * creation: the sub-account (with its master's fee schedule, read through
 * its master), its opening fee (owed until its first credits pay it),
 * `onboarding.create`, and the signed `account_approved` to the proposal's
 * `webhookUrl`. Each step is one transaction under the proposal's lock, so
 * a step two workers race on happens once.
 */
import { Clock, Effect, Option } from "effect"
import { newAccount } from "../accounts/CreateAccount.ts"
import type { Account } from "../domain/Account.ts"
import { type OnboardingStage, OnboardingStages, type Proposal } from "../domain/Proposal.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { accountApprovedBody, onboardingCreateBody, onboardingStageBody } from "../events/OnboardingEvents.ts"
import { postEntries } from "../ledger/PostEntries.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Ids } from "../ports/Ids.ts"
import { Kyc, type KycDecision } from "../ports/Kyc.ts"
import { Outbox } from "../ports/Outbox.ts"
import { PixProvider } from "../ports/PixProvider.ts"
import { Proposals } from "../ports/Proposals.ts"
import { Refunds } from "../ports/Refunds.ts"
import { Transactor } from "../ports/Transactor.ts"
import { WebhookDeliveries } from "../ports/WebhookDeliveries.ts"
import { SUBACCOUNT_OPENING_FEE } from "../rules/Fees.ts"
import { openingFeePosting } from "../rules/Postings.ts"
import { handingBackOnInterrupt } from "../jobs/HandBack.ts"
import { DebtIds, WebhookDeliveryIds } from "../domain/Ids.ts"

/** How long a worker holds the proposals it is asking the KYC provider about before another may take them. */
export const ONBOARDING_LEASE_MILLIS = 60_000

const STAGE_EVENTS = {
  backgroundCheck: "onboarding.backgroundcheck",
  documentsCopy: "onboarding.documentscopy",
  proposal: "onboarding.proposal"
} as const

/** The proposal as it is now, locked, when `step` still applies to it; none when another worker moved it meanwhile. */
const lockIf = Effect.fnUntraced(function*(proposal: Proposal, step: (p: Proposal) => boolean) {
  const found = yield* (yield* Proposals).lock(proposal.accountId, proposal.id)
  return Option.filter(found, step)
})

/** Records the KYC provider's decision on `stage`, with its event. */
const recordStage = Effect.fnUntraced(function*(proposal: Proposal, stage: OnboardingStage, decision: KycDecision) {
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const current = yield* lockIf(proposal, (p) => p[stage] === "PENDING")
    if (Option.isNone(current)) return Option.none<Proposal>()
    const at = new Date(yield* Clock.currentTimeMillis)
    const status = decision._tag === "Approved" ? "APPROVED" as const : "REPROVED" as const
    const decided: Proposal = { ...current.value, [stage]: status, reason: decision._tag === "Reproved" ? decision.reason : null, updatedAt: at }
    yield* (yield* Proposals).update(decided)
    yield* (yield* Outbox).append({ accountId: decided.accountId, event: STAGE_EVENTS[stage], body: onboardingStageBody(STAGE_EVENTS[stage], decided, status, at) })
    return Option.some(decided)
  }))
})

/** The signed `account_approved` for the proposal's registration, queued as a delivery of the master (never fanned out). */
const queueAccountApproved = Effect.fnUntraced(function*(proposal: Proposal, account: Account, ispb: string, at: Date) {
  if (proposal.webhookId === null) return
  yield* (yield* WebhookDeliveries).insertMany([{
    id: yield* (yield* Ids).make(WebhookDeliveryIds),
    accountId: proposal.accountId,
    webhookId: proposal.webhookId,
    event: "account_approved",
    body: accountApprovedBody(proposal, account, ispb),
    status: "pending",
    attempt: 0,
    responseStatusCode: null,
    error: null,
    createdAt: at,
    deliveredAt: null
  }])
})

/** Opens the approved proposal's sub-account: account, opening fee, `onboarding.create` and `account_approved`. */
const openSubAccount = Effect.fnUntraced(function*(proposal: Proposal) {
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const current = yield* lockIf(proposal, (p) => p.proposal === "APPROVED" && p.account === "PENDING")
    if (Option.isNone(current)) return Option.none<Proposal>()
    const accounts = yield* Accounts
    const master = Option.getOrUndefined(yield* accounts.findById(current.value.accountId))!
    const at = new Date(yield* Clock.currentTimeMillis)
    const form = current.value.form
    const account = yield* newAccount({
      name: (form.fullName ?? form.businessName)!,
      document: current.value.documentNumber,
      sandbox: master.sandbox,
      parentId: master.id,
      email: form.email ?? form.businessEmail ?? null,
      at
    })
    yield* accounts.insert(account)
    const proposals = yield* Proposals
    const fee = Option.getOrElse(yield* proposals.openingFeeOf(master.id), () => SUBACCOUNT_OPENING_FEE)
    if (fee > 0) {
      const debtId = yield* (yield* Ids).make(DebtIds, { sandbox: master.sandbox })
      // One opening fee per proposal: the entry is referenced by it, which the ledger keeps unique.
      yield* postEntries([openingFeePosting(account.id, fee, current.value.id)], at)
      yield* (yield* Refunds).insertDebts([{ id: debtId, holder: account.id, refundId: null, amount: fee }], at)
    }
    const opened: Proposal = { ...current.value, account: "CONFIRMED", subAccountId: account.id, updatedAt: at }
    yield* proposals.update(opened)
    const ispb = (yield* PixProvider).ispbOf(account)
    yield* (yield* Outbox).append({ accountId: master.id, event: "onboarding.create", body: onboardingCreateBody(opened, account, ispb, at) })
    yield* queueAccountApproved(opened, account, ispb, at)
    return Option.some(opened)
  }))
})

/** The proposal as stored now: what another worker made of it when this one lost a race. */
const reread = (proposal: Proposal) =>
  Effect.map(Effect.flatMap(Proposals, (proposals) => proposals.find(proposal.accountId, proposal.id)), Option.getOrElse(() => proposal))

/**
 * Runs every stage of `proposal` that can run now, in order: the next
 * undecided stage (documents copy waits for the documents), then the
 * account once all are approved. Stops at a reproval, at a provider that
 * could not be reached (`unreachable`: asked again once the lease runs
 * out), or when another worker moved the proposal (answered as it is now).
 */
export const advanceProposal = Effect.fn("Onboarding.advance")(function*(proposal: Proposal) {
  let current = proposal
  for (const stage of OnboardingStages) {
    if (current[stage] === "REPROVED") return { proposal: current, unreachable: false }
    if (current[stage] === "APPROVED") continue
    if (stage === "documentsCopy" && current.documentsSentAt === null) return { proposal: current, unreachable: false }
    const decision = yield* (yield* Kyc).decide(stage, current).pipe(Effect.option)
    if (Option.isNone(decision)) return { proposal: current, unreachable: true }
    const decided = yield* recordStage(current, stage, decision.value)
    if (Option.isNone(decided)) return { proposal: yield* reread(current), unreachable: false }
    current = decided.value
    if (decision.value._tag === "Reproved") return { proposal: current, unreachable: false }
  }
  const opened = yield* openSubAccount(current)
  return { proposal: Option.isSome(opened) ? opened.value : yield* reread(current), unreachable: false }
})

/**
 * Worker step: advances up to `limit` finished proposals with a stage to
 * run, each under this worker's lease until it is done with it (so no other
 * worker asks the KYC provider the same thing meanwhile); a provider that
 * could not be reached keeps the lease, and is asked again when it runs out.
 */
export const onboardProposals = Effect.fn("Onboarding.run")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const at = new Date(yield* Clock.currentTimeMillis)
  const proposals = yield* Proposals
  const claimed = yield* proposals.claimDue(limit, scope, at, ONBOARDING_LEASE_MILLIS)
  yield* Effect.forEach(claimed, (proposal) =>
    Effect.flatMap(advanceProposal(proposal), (advanced) => advanced.unreachable ? Effect.void : proposals.release(proposal.id)), {
    concurrency: 8,
    discard: true
  }).pipe(handingBackOnInterrupt(new Date(at.getTime() + ONBOARDING_LEASE_MILLIS), (leaseUntil, now) => proposals.expireClaims(claimed.map((p) => p.id), leaseUntil, now)))
  return claimed.length
})

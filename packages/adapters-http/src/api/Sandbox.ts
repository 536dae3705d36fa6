/** `/v1/sandbox`: a sandbox account's test clock and its MED, card dispute and Pix key claim simulations. */
import {
  AdvanceClockInput,
  AdvanceClockResult,
  ChargeNotFound,
  ChargeNotRefundable,
  DisputeClosed,
  DisputeId,
  DisputeNotFound,
  DisputeRequest,
  DisputeView,
  FormNotFound,
  FormUnfinished,
  InfractionClosed,
  InfractionNotFound,
  InvalidData,
  MedInfractionId,
  MedInfractionRequest,
  MedInfractionView,
  NotSandboxAccount,
  PixClaimClosed,
  PixClaimId,
  PixClaimNotFound,
  PixClaimView,
  ProposalView,
  RefundAmountExceeded,
  TestClockView
} from "@billing/core"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { bare, enveloped } from "../ErrorEnvelope.ts"
import { authenticated, Id, idOf, requires } from "./Common.ts"

const InfractionIdParam = { infractionId: idOf(MedInfractionId) }
const decisionErrors = [enveloped(NotSandboxAccount), enveloped(InfractionNotFound), enveloped(InfractionClosed)]
const DisputeIdParam = { disputeId: idOf(DisputeId) }
const disputeDecisionErrors = [enveloped(NotSandboxAccount), enveloped(DisputeNotFound), enveloped(DisputeClosed)]

export class SandboxGroup extends HttpApiGroup.make("sandbox")
  .add(
    HttpApiEndpoint.get("clock", "/clock", {
      success: TestClockView,
      error: enveloped(NotSandboxAccount)
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "Read the account's test clock"),
    HttpApiEndpoint.post("advanceClock", "/clock/advance", {
      payload: AdvanceClockInput,
      success: AdvanceClockResult,
      error: [enveloped(InvalidData), enveloped(NotSandboxAccount)]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Advance the account's test clock, running every job due on the way"),
    HttpApiEndpoint.post("openInfraction", "/med/infractions", {
      payload: MedInfractionRequest,
      success: MedInfractionView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(NotSandboxAccount), enveloped(ChargeNotFound), enveloped(ChargeNotRefundable), enveloped(RefundAmountExceeded)]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Open a MED infraction on a paid Pix (blocks the amount)"),
    HttpApiEndpoint.get("getInfraction", "/med/infractions/:infractionId", {
      params: InfractionIdParam,
      success: MedInfractionView,
      error: [enveloped(NotSandboxAccount), enveloped(InfractionNotFound)]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "Read a MED infraction"),
    HttpApiEndpoint.post("releaseInfraction", "/med/infractions/:infractionId/release", {
      params: InfractionIdParam,
      success: MedInfractionView,
      error: decisionErrors
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Decide a MED infraction for the account: release the block"),
    HttpApiEndpoint.post("returnInfraction", "/med/infractions/:infractionId/return", {
      params: InfractionIdParam,
      success: MedInfractionView,
      error: [...decisionErrors, enveloped(RefundAmountExceeded)]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Decide a MED infraction for the payer: return the blocked amount"),
    HttpApiEndpoint.post("openDispute", "/disputes", {
      payload: DisputeRequest,
      success: DisputeView.pipe(HttpApiSchema.status(201)),
      error: [enveloped(InvalidData), enveloped(NotSandboxAccount), enveloped(ChargeNotFound), enveloped(ChargeNotRefundable), enveloped(RefundAmountExceeded)]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Open a card dispute on a paid card charge (the charge becomes DISPUTE)"),
    HttpApiEndpoint.get("getDispute", "/disputes/:disputeId", {
      params: DisputeIdParam,
      success: DisputeView,
      error: [enveloped(NotSandboxAccount), enveloped(DisputeNotFound)]
    })
      .annotateMerge(requires("wallet/read"))
      .annotate(OpenApi.Summary, "Read a card dispute"),
    HttpApiEndpoint.post("winDispute", "/disputes/:disputeId/win", {
      params: DisputeIdParam,
      success: DisputeView,
      error: disputeDecisionErrors
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Decide a card dispute for the merchant: the charge is paid again"),
    HttpApiEndpoint.post("loseDispute", "/disputes/:disputeId/lose", {
      params: DisputeIdParam,
      success: DisputeView,
      error: disputeDecisionErrors
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Decide a card dispute for the cardholder: CHARGED_BACK, the amount taken back"),
    HttpApiEndpoint.post("advanceProposal", "/proposals/:formId/advance", {
      params: { formId: Id },
      success: ProposalView,
      error: [enveloped(NotSandboxAccount), bare(FormNotFound), bare(FormUnfinished)]
    })
      .annotateMerge(requires("proposals/write"))
      .annotate(OpenApi.Summary, "Run a proposal's onboarding now: documents sent, every stage decided by the sandbox KYC table"),
    HttpApiEndpoint.post("completePixClaim", "/pix-claims/:claimId/complete", {
      params: { claimId: idOf(PixClaimId) },
      success: PixClaimView,
      error: [enveloped(NotSandboxAccount), enveloped(PixClaimNotFound), enveloped(PixClaimClosed)]
    })
      .annotateMerge(requires("wallet/write"))
      .annotate(OpenApi.Summary, "Complete a Pix key claim as the institution holding the key would")
  )
  .pipe(authenticated({ prefix: "/v1/sandbox", title: "Sandbox", description: "Test clocks, the MED, card dispute, onboarding and Pix key portability simulations of sandbox accounts" }))
{}

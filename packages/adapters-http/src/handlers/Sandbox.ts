/** Handlers of `/v1/sandbox`. */
import { Billing } from "@billing/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, type Services } from "./Common.ts"
import { withDocumentsUrl } from "./Proposals.ts"

export const SandboxHandlers = HttpApiBuilder.group(BillingApi, "sandbox", Effect.fn("Handlers.sandbox")(function*(handlers) {
  const provide = yield* capture<
    | Services<ReturnType<typeof Billing.advanceClock>>
    | Services<ReturnType<typeof Billing.returnInfraction>>
    | Services<ReturnType<typeof Billing.completePixClaim>>
    | Services<ReturnType<typeof Billing.loseDispute>>
    | Services<ReturnType<typeof Billing.advanceProposalNow>>
  >()
  return handlers
    .handle("clock", () => provide(Billing.getTestClock()))
    .handle("advanceClock", ({ payload }) => provide(Billing.advanceClock(payload)))
    .handle("openInfraction", ({ payload }) => provide(Billing.openInfraction(payload)))
    .handle("getInfraction", ({ params }) => provide(Billing.getInfraction(params.infractionId)))
    .handle("releaseInfraction", ({ params }) => provide(Billing.releaseInfraction(params.infractionId)))
    .handle("returnInfraction", ({ params }) => provide(Billing.returnInfraction(params.infractionId)))
    .handle("openDispute", ({ payload }) => provide(Billing.openDispute(payload)))
    .handle("getDispute", ({ params }) => provide(Billing.getDispute(params.disputeId)))
    .handle("winDispute", ({ params }) => provide(Billing.winDispute(params.disputeId)))
    .handle("loseDispute", ({ params }) => provide(Billing.loseDispute(params.disputeId)))
    .handle("advanceProposal", ({ params }) => Effect.flatMap(provide(Billing.advanceProposalNow(params.formId)), withDocumentsUrl))
    .handle("completePixClaim", ({ params }) => provide(Billing.completePixClaim(params.claimId)))
}))

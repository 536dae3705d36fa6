/** Handlers of the sub-account routes: proposals, their status, the master's sub-accounts and the CNPJ lookup. */
import { Billing, type ProposalView } from "@billing/core"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { BillingApi } from "../api/Api.ts"
import { capture, origin, type Services } from "./Common.ts"

/** The proposal with its documents-copy page absolute, on the host the client called. */
export const withDocumentsUrl = (view: ProposalView): Effect.Effect<ProposalView, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(origin, (o) => ({ ...view, proposalStatus: { ...view.proposalStatus, urlDocumentscopy: `${o}${view.proposalStatus.urlDocumentscopy}` } }))

type Needed =
  | Services<ReturnType<typeof Billing.submitProposal>>
  | Services<ReturnType<typeof Billing.getProposal>>
  | Services<ReturnType<typeof Billing.listSubAccounts>>
  | Services<ReturnType<typeof Billing.findAccountByDocument>>

export const ProposalsHandlers = HttpApiBuilder.group(BillingApi, "proposals", Effect.fn("Handlers.proposals")(function*(handlers) {
  const provide = yield* capture<Needed>()
  return handlers
    .handle("submit", ({ payload }) => provide(Billing.submitProposal(payload)))
    .handle("get", ({ params }) => Effect.flatMap(provide(Billing.getProposal(params.formId)), withDocumentsUrl))
    .handle("subAccounts", ({ query }) => provide(Billing.listSubAccounts(query)))
    .handle("byCnpj", ({ params }) => provide(Billing.findAccountByDocument(params.cnpj)))
}))

/**
 * Sub-accounts (spec: Sub-accounts): proposals and their status, the
 * master's sub-accounts and the account lookup by CNPJ. The proposal route's
 * validation errors come in the envelope; its refusals as `{ message, code }`
 * without it, as the spec says.
 */
import {
  AccountLookup,
  AccountNotFound,
  DocumentNumberRequired,
  Forbidden,
  FormAlreadyFinished,
  FormDocumentMismatch,
  FormInProgress,
  FormNotFound,
  InvalidData,
  InvalidDocument,
  ProposalFinished,
  ProposalRequest,
  ProposalUnfinished,
  ProposalView,
  SameContactAsMaster,
  SubAccountExists,
  SubAccountList,
  SubAccountListQuery
} from "@billing/core"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { bare, enveloped } from "../ErrorEnvelope.ts"
import { authenticated, Id, requires } from "./Common.ts"

export class ProposalsGroup extends HttpApiGroup.make("proposals")
  .add(
    HttpApiEndpoint.post("submit", "/proposals", {
      payload: ProposalRequest,
      success: [ProposalFinished.pipe(HttpApiSchema.status(200)), ProposalUnfinished.pipe(HttpApiSchema.status(201))],
      error: [
        enveloped(InvalidData),
        enveloped(DocumentNumberRequired),
        enveloped(InvalidDocument),
        bare(FormNotFound),
        bare(SameContactAsMaster),
        bare(FormAlreadyFinished),
        bare(FormDocumentMismatch),
        bare(FormInProgress),
        bare(SubAccountExists),
        enveloped(Forbidden)
      ]
    })
      .annotateMerge(requires("proposals/write"))
      .annotate(OpenApi.Summary, "Send a PF or PJ sub-account proposal, or complete an unfinished one"),
    HttpApiEndpoint.get("get", "/proposals/:formId", {
      params: { formId: Id },
      success: ProposalView,
      error: bare(FormNotFound)
    })
      .annotateMerge(requires("proposals/write", "proposals/read"))
      .annotate(OpenApi.Summary, "Read a proposal: its form, pending fields and onboarding stages"),
    HttpApiEndpoint.get("subAccounts", "/accounts/subaccounts", {
      query: SubAccountListQuery,
      success: SubAccountList,
      error: enveloped(InvalidData)
    })
      .annotateMerge(requires("subaccounts/read"))
      .annotate(OpenApi.Summary, "List the master's sub-accounts"),
    HttpApiEndpoint.get("byCnpj", "/accounts/cnpj/:cnpj", {
      params: { cnpj: Id },
      success: AccountLookup,
      error: [enveloped(InvalidData), enveloped(AccountNotFound)]
    })
      .annotateMerge(requires())
      .annotate(OpenApi.Summary, "Find one of the caller's accounts (the master or a sub-account) by CNPJ")
  )
  .pipe(authenticated({ prefix: "/v1", title: "Sub-accounts", description: "Proposals, onboarding and the master's sub-accounts" }))
{}

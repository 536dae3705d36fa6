/**
 * Proposals as the API shows them: the answer of `POST /v1/proposals`
 * (`FINISHED` 200 or `UNFINISHED` 201) and the status of
 * `GET /v1/proposals/{formId}`, the provider's shape (the form's fields,
 * `type`, `metaData`, `proposalStatus` with `urlDocumentscopy`) with the
 * pending fields, the stages reached, and the sub-account once opened.
 */
import { Schema } from "effect"
import { FormStatus, type Proposal, ProposalForm, ProposalOwner, StageStatus } from "./Proposal.ts"
import { optional } from "./Values.ts"
import { Instant } from "./Wire.ts"

const answerFields = {
  message: Schema.String,
  formId: Schema.String,
  /** What a complete form still lacks, named as sent (`address.postalCode`, `owner[0].birthDate`). */
  pendingFields: Schema.Array(Schema.String),
  /** When the form's `webhookUrl` was no registration of the master yet: the one made for it and its secret, answered this once. */
  webhookId: Schema.optionalKey(Schema.String),
  webhookSecret: Schema.optionalKey(Schema.String)
}

export const ProposalFinished = Schema.Struct({ status: Schema.Literal("FINISHED"), ...answerFields }).annotate({ identifier: "ProposalFinished" })
export const ProposalUnfinished = Schema.Struct({ status: Schema.Literal("UNFINISHED"), ...answerFields }).annotate({ identifier: "ProposalUnfinished" })
export type ProposalAnswer = typeof ProposalFinished.Type | typeof ProposalUnfinished.Type

/** Where the documents-copy page of a proposal is served, below the server's origin. */
export const documentsCopyPath = (token: string): string => `/v1/sandbox/documentscopy/${token}`

export const ProposalView = Schema.Struct({
  ...ProposalForm.fields,
  /** Each partner, a person (`type: "PF"`), as the provider's status shows them. */
  owner: optional(Schema.Array(Schema.Struct({ ...ProposalOwner.fields, type: Schema.Literal("PF") }))),
  documentNumber: Schema.String,
  type: Schema.Literals(["PF", "PJ"]),
  metaData: Schema.Struct({ formId: Schema.String, createdAt: Instant, updatedAt: Instant, origin: Schema.Literal("API") }),
  proposalStatus: Schema.Struct({
    form: FormStatus,
    backgroundCheck: StageStatus,
    documents: StageStatus,
    proposal: StageStatus,
    account: Schema.Literals(["PENDING", "CONFIRMED"]),
    /** The documents-copy page (absolute, on the host the client called). */
    urlDocumentscopy: Schema.String
  }),
  pendingFields: Schema.Array(Schema.String),
  onboardingId: Schema.NullOr(Schema.String),
  /** The sub-account opened, once `account` is `CONFIRMED`. */
  accountNumber: Schema.NullOr(Schema.String),
  /** Why a stage reproved the proposal. */
  reason: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ProposalStatus" })
export type ProposalView = typeof ProposalView.Type

export const toProposalView = (p: Proposal, accountNumber: string | null): ProposalView => {
  const { owner, ...form } = p.form
  return {
    ...form,
    ...(owner === undefined ? {} : { owner: owner.map((o) => ({ ...o, type: "PF" as const })) }),
    documentNumber: p.documentNumber,
    type: p.type,
    metaData: { formId: p.id, createdAt: p.createdAt, updatedAt: p.updatedAt, origin: "API" },
    proposalStatus: {
      form: p.formStatus,
      backgroundCheck: p.backgroundCheck,
      documents: p.documentsCopy,
      proposal: p.proposal,
      account: p.account,
      urlDocumentscopy: documentsCopyPath(p.documentsToken)
    },
    pendingFields: p.pendingFields,
    onboardingId: p.onboardingId,
    accountNumber,
    reason: p.reason
  }
}

/**
 * The sandbox's side of onboarding: the documents-copy page's upload (any
 * file is accepted: nobody looks at it) and `POST
 * /v1/sandbox/proposals/{formId}/advance`, which sends the documents if the
 * owner has not and runs every stage now, as the worker would, answering
 * the proposal as it ends. The sandbox KYC table decides each stage.
 */
import { Clock, Effect, Option } from "effect"
import { sandboxCaller } from "../auth/SandboxOnly.ts"
import { NotFound } from "../domain/Errors.ts"
import { FormUnfinished, type Proposal } from "../domain/Proposal.ts"
import { advanceProposal } from "../onboarding/Onboarding.ts"
import { ownProposal, proposalView } from "../onboarding/Proposals.ts"
import { Proposals } from "../ports/Proposals.ts"
import { Transactor } from "../ports/Transactor.ts"

/** Records that the proposal's documents were sent, once; the proposal as it is now. */
const markDocumentsSent = Effect.fnUntraced(function*(proposal: Proposal) {
  if (proposal.documentsSentAt !== null) return proposal
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const proposals = yield* Proposals
    const current = Option.getOrUndefined(yield* proposals.lock(proposal.accountId, proposal.id))!
    if (current.documentsSentAt !== null) return current
    const at = new Date(yield* Clock.currentTimeMillis)
    const sent: Proposal = { ...current, documentsSentAt: at, updatedAt: at }
    yield* proposals.update(sent)
    return sent
  }))
})

/** What the documents-copy page shows: whose proposal it is, and whether its documents were sent. */
export interface DocumentsCopyState {
  readonly name: string
  readonly sent: boolean
}

const stateOf = (p: Proposal): DocumentsCopyState => ({ name: (p.form.fullName ?? p.form.businessName ?? p.documentNumber), sent: p.documentsSentAt !== null })

/** The proposal whose documents-copy page has this key; 404 for an unknown key. */
const byDocumentsToken = Effect.fnUntraced(function*(token: string) {
  const found = yield* (yield* Proposals).findByDocumentsToken(token)
  if (Option.isNone(found)) return yield* new NotFound({ message: "Página de envio de documentos não encontrada", details: null })
  return found.value
})

/** The documents-copy page of the proposal with this key. */
export const documentsCopyState = Effect.fn("Onboarding.documentsCopyState")(function*(token: string) {
  return stateOf(yield* byDocumentsToken(token))
})

/** The documents-copy page's upload: the proposal whose page key this is gets its documents (sent twice, recorded once). */
export const receiveDocuments = Effect.fn("Onboarding.receiveDocuments")(function*(token: string) {
  return stateOf(yield* markDocumentsSent(yield* byDocumentsToken(token)))
})

export const advanceProposalNow = Effect.fn("Onboarding.advanceNow")(function*(formId: string) {
  const { master } = yield* sandboxCaller("Análise de proposta imediata disponível apenas em contas sandbox")
  const found = yield* ownProposal(master.id, formId)
  if (found.formStatus === "UNFINISHED") {
    return yield* new FormUnfinished({ message: `O formulário ${formId} ainda tem campos pendentes: ${found.pendingFields.join(", ")}` })
  }
  const { proposal: advanced } = yield* advanceProposal(yield* markDocumentsSent(found))
  return yield* proposalView(advanced)
})

/**
 * `POST /v1/proposals` and `GET /v1/proposals/{formId}` (spec: Sub-accounts).
 * A master sends a PF or PJ form; every field is checked as it arrives, and
 * what a complete form still lacks is answered as `pendingFields` with
 * `UNFINISHED` (201). Sending the missing fields again, with the `formId` or
 * the same document, completes it (`FINISHED`, 200), and onboarding begins.
 * Proposals are always the master's: a sub-account opens no sub-accounts.
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { documentKind, isValidCpf, normalizeDocument } from "../brazil/Documents.ts"
import { Forbidden, invalidData } from "../domain/Errors.ts"
import {
  DocumentNumberRequired,
  FormAlreadyFinished,
  FormDocumentMismatch,
  FormInProgress,
  FormNotFound,
  InvalidDocument,
  type Proposal,
  type ProposalForm,
  type ProposalRequest,
  SameContactAsMaster,
  SubAccountExists
} from "../domain/Proposal.ts"
import { type ProposalAnswer, toProposalView } from "../domain/ProposalView.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Ids, randomUuid } from "../ports/Ids.ts"
import { Proposals } from "../ports/Proposals.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Webhooks } from "../ports/Webhooks.ts"
import { isAdult, isPlausibleBirth, pendingFields } from "../rules/ProposalFields.ts"
import { checkWebhookUrl, newRegistration } from "../webhooks/Webhooks.ts"
import type { AccountId } from "../domain/Ids.ts"

const PF_FIELDS = ["fullName", "motherName", "socialName", "birthDate", "phoneNumber", "email", "isPoliticallyExposedPerson", "address", "financialDetails"] as const
const PJ_FIELDS = ["businessName", "tradingName", "businessEmail", "contactNumber", "companyType", "owner", "businessAddress", "financialCompanyDetails"] as const

/** The proposal's document, normalized, and the form type it opens. */
const documentOf = (request: ProposalRequest) => {
  if (request.documentNumber === undefined || request.documentNumber.trim() === "") {
    return Effect.fail(new DocumentNumberRequired({ message: "documentNumber é obrigatório", details: { field: "documentNumber" } }))
  }
  const document = normalizeDocument(request.documentNumber)
  const kind = documentKind(document)
  return kind === undefined
    ? Effect.fail(new InvalidDocument({ message: "documentNumber não é um CPF ou CNPJ válido", details: { field: "documentNumber" } }))
    : Effect.succeed({ document, type: kind === "CPF" ? "PF" as const : "PJ" as const })
}

/**
 * The request's fields of the form `type`: those of the other type are
 * refused (a CNPJ's proposal has no `fullName`), partners' documents
 * normalized and checked, and each person's birth checked of age.
 */
const formOf = Effect.fnUntraced(function*(type: "PF" | "PJ", request: ProposalRequest, nowMillis: number) {
  const [own, other] = type === "PF" ? [PF_FIELDS, PJ_FIELDS] : [PJ_FIELDS, PF_FIELDS]
  const foreign = other.find((field) => request[field] !== undefined)
  if (foreign !== undefined) return yield* invalidData(foreign, `${foreign} does not apply to a ${type} proposal (${type === "PF" ? "CPF" : "CNPJ"})`)
  const form: Record<string, unknown> = {}
  for (const field of own) if (request[field] !== undefined) form[field] = request[field]
  if (request.webhookUrl !== undefined) form.webhookUrl = yield* checkWebhookUrl(request.webhookUrl, (yield* Caller).master.sandbox, "webhookUrl")
  const owners = (request.owner ?? []).map((owner) => owner.documentNumber === undefined ? owner : { ...owner, documentNumber: normalizeDocument(owner.documentNumber) })
  for (const [i, owner] of owners.entries()) {
    if (owner.documentNumber !== undefined && !isValidCpf(owner.documentNumber)) {
      return yield* new InvalidDocument({ message: `owner[${i}].documentNumber não é um CPF válido`, details: { field: `owner[${i}].documentNumber` } })
    }
  }
  if (request.owner !== undefined) form.owner = owners
  const births = [["birthDate", request.birthDate] as const, ...owners.map((owner, i) => [`owner[${i}].birthDate`, owner.birthDate] as const)]
  for (const [field, birthDate] of births) {
    if (birthDate === undefined) continue
    if (!isPlausibleBirth(birthDate, nowMillis)) return yield* invalidData(field, `${field} must be a past date after 1900`)
    if (!isAdult(birthDate, nowMillis)) return yield* invalidData(field, `${field}: the holder must be 18 or older`)
  }
  return form as ProposalForm
})

/** The registration that will sign `account_approved` for `url`: the master's own at that URL, else one made for it (its secret answered once). */
const registrationFor = Effect.fnUntraced(function*(masterId: AccountId, sandbox: boolean, url: string, at: Date) {
  const webhooks = yield* Webhooks
  const existing = yield* webhooks.findActiveAt(masterId, url)
  if (Option.isSome(existing)) return { webhookId: existing.value.id, webhookSecret: null }
  const registration = yield* newRegistration({ accountId: masterId, sandbox, url, events: ["account_approved"], at })
  yield* webhooks.insert(registration)
  return { webhookId: registration.id, webhookSecret: registration.secret }
})

/** The master's form this request completes (by `formId`, or its unfinished form of the same document), locked; none for a new one. */
const formToComplete = Effect.fnUntraced(function*(masterId: AccountId, document: string, formId: string | undefined) {
  const proposals = yield* Proposals
  const found = formId === undefined ? yield* proposals.lockLiveOf(masterId, document) : yield* proposals.lock(masterId, formId)
  if (formId !== undefined && Option.isNone(found)) return yield* new FormNotFound({ message: `Formulário ${formId} não encontrado` })
  if (Option.isNone(found)) return undefined
  if (found.value.documentNumber !== document) {
    return yield* new FormDocumentMismatch({ message: `O formulário ${formId} é de outro documento` })
  }
  if (found.value.formStatus === "FINISHED") {
    return yield* new FormAlreadyFinished({ message: `O formulário ${found.value.id} já foi concluído e está em análise` })
  }
  return found.value
})

export const submitProposal = Effect.fn("Proposals.submit")(function*(request: ProposalRequest) {
  const { master } = yield* Caller
  // Credentials of a sub-account (the operator may issue them) open no sub-accounts of their own.
  if (master.parentId !== null) return yield* new Forbidden({ message: "Só uma conta master abre subcontas", details: null })
  const { document, type } = yield* documentOf(request)
  const nowMillis = yield* Clock.currentTimeMillis
  const sent = yield* formOf(type, request, nowMillis)
  const email = sent.email ?? sent.businessEmail
  if (master.email !== null && email !== undefined && email.toLowerCase() === master.email.toLowerCase()) {
    return yield* new SameContactAsMaster({ message: "A subconta não pode usar o mesmo e-mail da conta master" })
  }
  const at = new Date(nowMillis)
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const accounts = yield* Accounts
    if (Option.isSome(yield* accounts.findSubAccountByDocument(master.id, document))) {
      return yield* new SubAccountExists({ message: `Já existe uma subconta com o documento ${document}` })
    }
    const known = yield* formToComplete(master.id, document, request.formId)
    const form: ProposalForm = { ...known?.form, ...sent }
    const pending = pendingFields(type, form)
    const finished = pending.length === 0
    const registration = finished && form.webhookUrl !== undefined ? yield* registrationFor(master.id, master.sandbox, form.webhookUrl, at) : null
    const proposal: Proposal = {
      id: known?.id ?? (yield* randomUuid),
      accountId: master.id,
      type,
      documentNumber: document,
      form,
      formStatus: finished ? "FINISHED" : "UNFINISHED",
      pendingFields: pending,
      backgroundCheck: "PENDING",
      documentsCopy: "PENDING",
      proposal: "PENDING",
      account: "PENDING",
      reason: null,
      onboardingId: finished ? yield* randomUuid : null,
      documentsToken: known?.documentsToken ?? (yield* (yield* Ids).randomHex(16)),
      documentsSentAt: known?.documentsSentAt ?? null,
      subAccountId: null,
      webhookId: registration?.webhookId ?? null,
      createdAt: known?.createdAt ?? at,
      updatedAt: at
    }
    const proposals = yield* Proposals
    if (known !== undefined) yield* proposals.update(proposal)
    else if (!(yield* proposals.insert(proposal))) {
      return yield* new FormInProgress({ message: `Outro formulário do documento ${document} acaba de ser criado: envie-o de novo para completá-lo` })
    }
    const answer: ProposalAnswer = {
      status: proposal.formStatus,
      message: known === undefined ? "Formulário criado com sucesso" : "Formulário atualizado com sucesso",
      formId: proposal.id,
      pendingFields: pending,
      ...(registration?.webhookSecret ? { webhookId: registration.webhookId, webhookSecret: registration.webhookSecret } : {})
    }
    return answer
  }))
})

/** The master's proposal `formId`; 404 `FORM_NOT_FOUND` otherwise. */
export const ownProposal = Effect.fnUntraced(function*(masterId: AccountId, formId: string) {
  const found = yield* (yield* Proposals).find(masterId, formId)
  if (Option.isNone(found)) return yield* new FormNotFound({ message: `Formulário ${formId} não encontrado` })
  return found.value
})

/** The proposal as the API shows it, with the number of the sub-account it opened. */
export const proposalView = Effect.fnUntraced(function*(proposal: Proposal) {
  const subAccount = proposal.subAccountId === null ? Option.none() : yield* (yield* Accounts).findById(proposal.subAccountId)
  return toProposalView(proposal, Option.getOrNull(Option.map(subAccount, (a) => a.number)))
})

export const getProposal = Effect.fn("Proposals.get")(function*(formId: string) {
  const { master } = yield* Caller
  return yield* proposalView(yield* ownProposal(master.id, formId))
})

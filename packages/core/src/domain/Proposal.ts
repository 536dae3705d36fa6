/**
 * Sub-account proposals (spec: Sub-account proposal, Proposal and
 * onboarding). A master sends the form of a natural person (PF, a CPF) or
 * of a legal entity (PJ, a CNPJ); a complete form (`FINISHED`) goes through
 * onboarding: background check, documents copy, proposal analysis, account
 * creation, each stage decided by the KYC provider. An incomplete one
 * (`UNFINISHED`) waits for its missing fields.
 */
import { Effect, Schema, SchemaGetter, SchemaIssue } from "effect"
import { toDayNumber } from "../brazil/CalendarDate.ts"
import { ErrorFields } from "./Errors.ts"
import { Cep, Email, Identifier, Name, optional, optionalOrBlank, PhoneE164, Text, Uf } from "./Values.ts"
import { AccountId, WebhookId } from "./Ids.ts"

/** A birth date as the provider writes it, day-month-year with dashes (`31-12-2000`), a real date. */
export const BirthDate = Text.pipe(
  Schema.decodeTo(Schema.String.pipe(Schema.brand("BirthDate")), {
    decode: SchemaGetter.transformEffect((input: string) => {
      const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(input)
      return match !== null && toDayNumber(`${match[3]}-${match[2]}-${match[1]}`) !== undefined
        ? Effect.succeed(input)
        : Effect.fail(new SchemaIssue.InvalidValue({ message: "must be a date DD-MM-YYYY" }, input))
    }),
    encode: SchemaGetter.passthrough()
  })
).annotate({ description: "A date DD-MM-YYYY" })
export type BirthDate = typeof BirthDate.Type

/** The ISO date (`YYYY-MM-DD`) of a `BirthDate`. */
export const isoBirthDate = (date: BirthDate): string => `${date.slice(6)}-${date.slice(3, 5)}-${date.slice(0, 2)}`

/** An address of a proposal; the owner's complement comes as `complement` in the provider's answers, so both are read. */
export const ProposalAddress = Schema.Struct({
  postalCode: optionalOrBlank(Cep),
  street: optional(Name),
  number: optional(Identifier),
  addressComplement: optional(Name),
  complement: optional(Name),
  neighborhood: optional(Name),
  city: optional(Name),
  state: optionalOrBlank(Uf)
})
export type ProposalAddress = typeof ProposalAddress.Type

/** The financial profile codes (from the provider's appendix, which is outside the material: any short code is kept). */
const FinancialCode = optional(Identifier)

/** A partner of a PJ: a person with their own CPF, contacts, address and profile. */
export const ProposalOwner = Schema.Struct({
  ownerType: optional(Identifier),
  documentNumber: optional(Identifier),
  fullName: optional(Name),
  phoneNumber: optionalOrBlank(PhoneE164),
  email: optionalOrBlank(Email),
  motherName: optional(Name),
  socialName: optional(Name),
  birthDate: optionalOrBlank(BirthDate),
  address: optional(ProposalAddress),
  isPoliticallyExposedPerson: optional(Schema.Boolean),
  financialOwnerDetails: optional(Schema.Struct({ ownerDeclaredIncome: FinancialCode, ownerDeclaredRevenue: FinancialCode }))
})
export type ProposalOwner = typeof ProposalOwner.Type

/** Partners of one company: bounded, as every list of a request. */
export const MAX_OWNERS = 10

/**
 * The form's fields, PF and PJ together: which apply follows from the
 * document (11 digits PF, 14 PJ). Every field is optional here: what a
 * complete form needs is `rules/ProposalFields.ts`.
 */
export const ProposalForm = Schema.Struct({
  // PF
  fullName: optional(Name),
  motherName: optional(Name),
  socialName: optional(Name),
  birthDate: optionalOrBlank(BirthDate),
  phoneNumber: optionalOrBlank(PhoneE164),
  email: optionalOrBlank(Email),
  isPoliticallyExposedPerson: optional(Schema.Boolean),
  address: optional(ProposalAddress),
  financialDetails: optional(Schema.Struct({ declaredIncome: FinancialCode, occupation: FinancialCode, netWorth: FinancialCode })),
  // PJ
  businessName: optional(Name),
  tradingName: optional(Name),
  businessEmail: optionalOrBlank(Email),
  contactNumber: optionalOrBlank(PhoneE164),
  companyType: optional(Schema.Literals(["PJ", "MEI", "ME"])),
  owner: optional(Schema.Array(ProposalOwner).pipe(Schema.check(Schema.isMaxLength(MAX_OWNERS)))),
  businessAddress: optional(ProposalAddress),
  financialCompanyDetails: optional(Schema.Struct({ declaredCompanyRevenue: FinancialCode })),
  // Both
  webhookUrl: optional(Text)
})
export type ProposalForm = typeof ProposalForm.Type

/** `POST /v1/proposals`: the form, its document, and the `formId` of an unfinished form it completes. */
export const ProposalRequest = Schema.Struct({
  ...ProposalForm.fields,
  documentNumber: optional(Identifier),
  formId: optional(Identifier)
}).annotate({ identifier: "ProposalRequest" })
export type ProposalRequest = typeof ProposalRequest.Type

export const FormStatus = Schema.Literals(["UNFINISHED", "FINISHED"])
export type FormStatus = typeof FormStatus.Type

/** A stage of the analysis: waiting, or decided. */
export const StageStatus = Schema.Literals(["PENDING", "APPROVED", "REPROVED"])
export type StageStatus = typeof StageStatus.Type

/** The analysis stages, in order; each has its `onboarding.*` event. */
export const OnboardingStages = ["backgroundCheck", "documentsCopy", "proposal"] as const
export type OnboardingStage = typeof OnboardingStages[number]

/** A proposal: the one definition its row, view and event bodies derive from. */
export const Proposal = Schema.Struct({
  /** The `formId` (a UUID). */
  id: Schema.String,
  /** The master that sent it. */
  accountId: AccountId,
  type: Schema.Literals(["PF", "PJ"]),
  documentNumber: Schema.String,
  form: ProposalForm,
  formStatus: FormStatus,
  pendingFields: Schema.Array(Schema.String),
  backgroundCheck: StageStatus,
  documentsCopy: StageStatus,
  proposal: StageStatus,
  /** `CONFIRMED` once the sub-account exists. */
  account: Schema.Literals(["PENDING", "CONFIRMED"]),
  /** Why a stage reproved it. */
  reason: Schema.NullOr(Schema.String),
  /** The onboarding's id (a UUID), given when the form is complete. */
  onboardingId: Schema.NullOr(Schema.String),
  /** The key of the documents-copy page where the owner sends identity documents. */
  documentsToken: Schema.String,
  documentsSentAt: Schema.NullOr(Schema.Date),
  /** The sub-account opened, once confirmed. */
  subAccountId: Schema.NullOr(AccountId),
  /** The registration of the master that receives `account_approved` at the form's `webhookUrl`. */
  webhookId: Schema.NullOr(WebhookId),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "Proposal" })
export type Proposal = typeof Proposal.Type

/** 400 (envelope): the proposal has no `documentNumber`. */
export class DocumentNumberRequired extends Schema.TaggedError<DocumentNumberRequired>()("DOCUMENT_NUMBER_REQUIRED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400 (envelope): the document is not a valid CPF or CNPJ (or an owner's not a valid CPF). */
export class InvalidDocument extends Schema.TaggedError<InvalidDocument>()("INVALID_DOCUMENT", ErrorFields, {
  httpApiStatus: 400
}) {}

/** The fields of a refusal of the proposal route: `{ message, code }`, no envelope (spec: Errors). */
const RefusalFields = { message: Schema.String }

/** 404 (bare): no form with this `formId` for the caller. */
export class FormNotFound extends Schema.TaggedError<FormNotFound>()("FORM_NOT_FOUND", RefusalFields, { httpApiStatus: 404 }) {}

/** 400 (bare): the sub-account would use the master's own e-mail (spec: Sub-account proposal rules). */
export class SameContactAsMaster extends Schema.TaggedError<SameContactAsMaster>()("SAME_CONTACT_AS_MASTER", RefusalFields, {
  httpApiStatus: 400
}) {}

/** 400 (bare): the form is complete already (in analysis or approved): nothing to complete. */
export class FormAlreadyFinished extends Schema.TaggedError<FormAlreadyFinished>()("FORM_ALREADY_FINISHED", RefusalFields, {
  httpApiStatus: 400
}) {}

/** 400 (bare): the `formId` sent belongs to another document. */
export class FormDocumentMismatch extends Schema.TaggedError<FormDocumentMismatch>()("FORM_DOCUMENT_MISMATCH", RefusalFields, {
  httpApiStatus: 400
}) {}

/** 400 (bare): the form still lacks fields; it cannot be analysed. */
export class FormUnfinished extends Schema.TaggedError<FormUnfinished>()("FORM_UNFINISHED", RefusalFields, { httpApiStatus: 400 }) {}

/** 400 (bare): a request racing this one created the form of the same document first. */
export class FormInProgress extends Schema.TaggedError<FormInProgress>()("FORM_IN_PROGRESS", RefusalFields, { httpApiStatus: 400 }) {}

/** 400 (bare): the master has a sub-account with this document already. */
export class SubAccountExists extends Schema.TaggedError<SubAccountExists>()("SUBACCOUNT_ALREADY_EXISTS", RefusalFields, {
  httpApiStatus: 400
}) {}

/**
 * The fiscal service invoice (nota, NFS-e) as the engine keeps it (spec:
 * Resources, Fiscal invoice; States, Fiscal invoice status; Endpoints,
 * Fiscal invoices).
 *
 * Identities: `id` is the engine's own (`inv_`, the response's `ref`, for
 * support); `invoiceId` is the one every nota route takes: the charge's id
 * for a charge's note, the `ref` sent at standalone emission (else the
 * note's own id).
 */
import { Schema } from "effect"
import { Cents } from "../money/Money.ts"
import { ErrorFields } from "./Errors.ts"
import { NfseStandard } from "./NfseConfig.ts"
import { AccountId, ChargeId, NfseConfigId, NotaId, SubscriptionId } from "./Ids.ts"

/**
 * The spec's statuses. `ISSUED` comes from a synchronous emission,
 * `AUTHORIZED` from the city's later confirmation; `FAILED` is a refusal
 * the city gave, `ERROR` one the engine met before the city decided.
 */
export const NotaStatus = Schema.Literals(["PROCESSING", "ISSUED", "AUTHORIZED", "FAILED", "ERROR", "CANCELED", "REPLACED"])
export type NotaStatus = typeof NotaStatus.Type

/** A message of the city (or of the engine's own checks) on a refused note: `nf.errors`. */
export const NotaError = Schema.Struct({ code: Schema.String, message: Schema.String })
export type NotaError = typeof NotaError.Type

/** The taker's address, as the charge's buyer address. */
export const TomadorAddress = Schema.Struct({
  street: Schema.String,
  number: Schema.String,
  complement: Schema.NullOr(Schema.String),
  neighborhood: Schema.String,
  city: Schema.String,
  state: Schema.String,
  zipCode: Schema.String,
  /** IBGE code of the taker's city (7 digits), when known. */
  cityCode: Schema.NullOr(Schema.String)
})
export type TomadorAddress = typeof TomadorAddress.Type

/** The service taker (`tomador`): the charge's customer, or the standalone body's. */
export const Tomador = Schema.Struct({
  document: Schema.String,
  name: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  address: Schema.NullOr(TomadorAddress)
})
export type Tomador = typeof Tomador.Type

/**
 * What a city is asked to issue: the note's data, the issuer's settings and
 * the DPS (or RPS) number the engine allocated to this attempt. The number
 * is never reused: an attempt whose outcome is unknown keeps it until the
 * city says what became of it.
 */
export interface NotaToIssue {
  /** The note's own id (`inv_`). */
  readonly notaId: string
  readonly accountId: AccountId
  readonly sandbox: boolean
  readonly standard: NfseStandard
  readonly serie: string
  readonly dpsNumber: number
  /** When the DPS is issued (`dhEmi`). */
  readonly issuedAt: Date
  /** The competence date (`dCompet`, `YYYY-MM-DD`, São Paulo time). */
  readonly competencia: string
  readonly amount: Cents
  readonly descricao: string
  readonly tomador: Tomador
}

/** A note as stored. */
export const Nota = Schema.Struct({
  id: NotaId,
  accountId: AccountId,
  invoiceId: Schema.String,
  chargeId: Schema.NullOr(ChargeId),
  subscriptionId: Schema.NullOr(SubscriptionId),
  cycleNumber: Schema.NullOr(Schema.Int),
  configId: NfseConfigId,
  standard: NfseStandard,
  status: NotaStatus,
  serie: Schema.String,
  /** The DPS/RPS number of the latest attempt. */
  dpsNumber: Schema.Int,
  /** The city's number for the issued note. */
  numero: Schema.NullOr(Schema.String),
  /** The national system's access key (`chaveAcesso`), 50 digits. */
  chaveAcesso: Schema.NullOr(Schema.String),
  amount: Cents,
  descricao: Schema.String,
  tomador: Tomador,
  errors: Schema.Array(NotaError),
  /** The issued NFS-e's XML, else the DPS the engine sent. */
  xml: Schema.NullOr(Schema.String),
  cancelReason: Schema.NullOr(Schema.String),
  /** The note that replaced this one (status `REPLACED`). */
  replacedBy: Schema.NullOr(Schema.String),
  issuedAt: Schema.Date,
  authorizedAt: Schema.NullOr(Schema.Date),
  canceledAt: Schema.NullOr(Schema.Date),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
export type Nota = typeof Nota.Type

/** 404: no note by that id on the caller's account. */
export class NotaNotFound extends Schema.TaggedError<NotaNotFound>()("NOTA_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 404: the charge or subscription invoice named does not exist on the caller's account. */
export class InvoiceNotFound extends Schema.TaggedError<InvoiceNotFound>()("INVOICE_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: only pending, awaiting-payment or paid charges get a note. */
export class InvoiceStatusNotEmittable extends Schema.TaggedError<InvoiceStatusNotEmittable>()("INVOICE_STATUS_NOT_EMITTABLE", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 409: the charge already has an authorized, linked or scheduled note. */
export class NotaAlreadyIssued extends Schema.TaggedError<NotaAlreadyIssued>()("NOTA_ALREADY_ISSUED", ErrorFields, {
  httpApiStatus: 409
}) {}

/** 409: the city has not answered the last attempt yet. */
export class NotaProcessing extends Schema.TaggedError<NotaProcessing>()("NOTA_PROCESSING", ErrorFields, {
  httpApiStatus: 409
}) {}

/** 400: data the note needs is missing; `details` is the array of what is missing. */
export class NfIncompleteData extends Schema.TaggedError<NfIncompleteData>()("NF_INCOMPLETE_DATA", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 404: the configuration named for the note does not exist. */
export class NfConfigNotFound extends Schema.TaggedError<NfConfigNotFound>()("NF_CONFIG_NOT_FOUND", ErrorFields, {
  httpApiStatus: 404
}) {}

/** 400: no configuration was named and none can be inferred. */
export class NfConfigRequired extends Schema.TaggedError<NfConfigRequired>()("NF_CONFIG_REQUIRED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 400: more than ten recipients. */
export class TooManyEmails extends Schema.TaggedError<TooManyEmails>()("TOO_MANY_EMAILS", ErrorFields, {
  httpApiStatus: 400
}) {}

/** 409: the note is not issued or authorized: there is nothing to resend or print. */
export class NfNotAuthorized extends Schema.TaggedError<NfNotAuthorized>()("NF_NOT_AUTHORIZED", ErrorFields, {
  httpApiStatus: 409
}) {}

/** 409: the note is not issued or authorized: there is nothing to cancel or replace. */
export class NotaNotIssued extends Schema.TaggedError<NotaNotIssued>()("NOTA_NOT_ISSUED", ErrorFields, {
  httpApiStatus: 409
}) {}

/** 422: the city refused the cancellation; `details.errors` holds its messages. */
export class NfCancelFailed extends Schema.TaggedError<NfCancelFailed>()("NF_CANCEL_FAILED", ErrorFields, {
  httpApiStatus: 422
}) {}

/** 400: the note's model or standard is one this engine cannot issue (only `NFSE`; municipal standards are later). */
export class NotaTypeNotSupported extends Schema.TaggedError<NotaTypeNotSupported>()("NOTA_TYPE_NOT_SUPPORTED", ErrorFields, {
  httpApiStatus: 400
}) {}

/** `/v1/invoices/notas`: fiscal service invoices (NFS-e): emission, checks, reissue, resend, cancel, list, summary, detail, documents. */
import {
  EmitNotaRequest,
  InvalidData,
  InvoiceNotFound,
  InvoiceStatusNotEmittable,
  NfCancelFailed,
  NfConfigNotFound,
  NfConfigRequired,
  NfIncompleteData,
  NfNotAuthorized,
  NotaAlreadyIssued,
  NotaCheck,
  NotaEmission,
  NotaList,
  NotaListQuery,
  NotaNotFound,
  NotaNotIssued,
  NotaProcessing,
  NotaResent,
  NotaSummary,
  NotaTypeNotSupported,
  NotaView,
  ProviderNotConfigured,
  ProviderUnavailable,
  ReissueNotaRequest,
  ResendNotaRequest,
  StandaloneNotaRequest,
  TooManyEmails
} from "@billing/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { enveloped } from "../ErrorEnvelope.ts"
import { authenticated, Id, requires } from "./Common.ts"

const NotaIdParam = { notaId: Id }

/** What emitting a charge's note can refuse (spec: Endpoints, emit a charge's note). */
const emissionErrors = [
  enveloped(InvalidData),
  enveloped(InvoiceNotFound),
  enveloped(InvoiceStatusNotEmittable),
  enveloped(NotaAlreadyIssued),
  enveloped(NotaProcessing),
  enveloped(NfIncompleteData),
  enveloped(NfConfigNotFound),
  enveloped(NfConfigRequired),
  enveloped(NotaTypeNotSupported),
  enveloped(ProviderNotConfigured)
] as const

const write = requires("nota.fiscal/write")
const read = requires("nota.fiscal/read")

export class NotasGroup extends HttpApiGroup.make("notas")
  .add(
    HttpApiEndpoint.get("list", "/", { query: NotaListQuery, success: NotaList, error: enveloped(InvalidData) })
      .annotateMerge(read)
      .annotate(OpenApi.Summary, "List notes (`status` AUTHORIZED also finds ISSUED, ERROR also FAILED)"),
    HttpApiEndpoint.get("summary", "/summary", { success: NotaSummary })
      .annotateMerge(read)
      .annotate(OpenApi.Summary, "Count and amount of the notes by status"),
    HttpApiEndpoint.get("get", "/:notaId", { params: NotaIdParam, success: NotaView, error: enveloped(NotaNotFound) })
      .annotateMerge(read)
      .annotate(OpenApi.Summary, "A note: status, the city's errors, links to its PDF and XML"),
    HttpApiEndpoint.get("pdf", "/:notaId/pdf", {
      params: NotaIdParam,
      success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/pdf" })),
      error: [enveloped(NotaNotFound), enveloped(NfNotAuthorized), enveloped(NfConfigNotFound), enveloped(ProviderUnavailable)]
    })
      .annotateMerge(read)
      .annotate(OpenApi.Summary, "The note's DANFSe (PDF)"),
    HttpApiEndpoint.get("xml", "/:notaId/xml", {
      params: NotaIdParam,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "application/xml" })),
      error: [enveloped(NotaNotFound), enveloped(NfNotAuthorized)]
    })
      .annotateMerge(read)
      .annotate(OpenApi.Summary, "The note's XML: the issued NFS-e, or the DPS sent"),
    HttpApiEndpoint.post("emitStandalone", "/", {
      payload: StandaloneNotaRequest,
      success: NotaEmission.pipe(HttpApiSchema.status(201)),
      error: [
        enveloped(InvalidData),
        enveloped(NfConfigNotFound),
        enveloped(NfIncompleteData),
        enveloped(NotaAlreadyIssued),
        enveloped(NotaTypeNotSupported),
        enveloped(ProviderNotConfigured)
      ]
    })
      .annotateMerge(write)
      .annotate(OpenApi.Summary, "Emit a note of no charge, issued at once"),
    HttpApiEndpoint.post("emit", "/:notaId/emitir", { params: NotaIdParam, payload: EmitNotaRequest, success: NotaEmission, error: emissionErrors })
      .annotateMerge(write)
      .annotate(OpenApi.Summary, "Emit the note of a charge or subscription invoice"),
    HttpApiEndpoint.post("check", "/:notaId/verificar-emissao", { params: NotaIdParam, payload: EmitNotaRequest, success: NotaCheck, error: emissionErrors })
      .annotateMerge(write)
      .annotate(OpenApi.Summary, "Check a charge's note without emitting it (`pendencias`)"),
    HttpApiEndpoint.post("reissue", "/:notaId/reemitir", {
      params: NotaIdParam,
      payload: ReissueNotaRequest,
      success: NotaEmission,
      error: [
        enveloped(NfIncompleteData),
        enveloped(NotaNotFound),
        enveloped(NotaProcessing),
        enveloped(NotaNotIssued),
        enveloped(NfConfigNotFound),
        enveloped(NotaTypeNotSupported),
        enveloped(ProviderNotConfigured)
      ]
    })
      .annotateMerge(write)
      .annotate(OpenApi.Summary, "A new attempt of a refused note, or a note replacing an issued one"),
    HttpApiEndpoint.post("resend", "/:notaId/reenviar", {
      params: NotaIdParam,
      payload: ResendNotaRequest,
      success: NotaResent,
      error: [
        enveloped(InvalidData),
        enveloped(TooManyEmails),
        enveloped(NotaNotFound),
        enveloped(NfNotAuthorized),
        enveloped(NfConfigNotFound),
        enveloped(ProviderNotConfigured),
        enveloped(ProviderUnavailable)
      ]
    })
      .annotateMerge(write)
      .annotate(OpenApi.Summary, "Send the note's PDF and XML by e-mail (up to 10 recipients)"),
    HttpApiEndpoint.delete("cancel", "/:notaId", {
      params: NotaIdParam,
      query: { motivo: Schema.optionalKey(Schema.String) },
      success: NotaView,
      error: [
        enveloped(InvalidData),
        enveloped(NotaNotFound),
        enveloped(NotaNotIssued),
        enveloped(NfCancelFailed),
        enveloped(NfConfigNotFound),
        enveloped(NotaTypeNotSupported),
        enveloped(ProviderNotConfigured)
      ]
    })
      .annotateMerge(write)
      .annotate(OpenApi.Summary, "Cancel the note at the city (`motivo`, 15 to 255 characters)")
  )
  .pipe(authenticated({
    prefix: "/v1/invoices/notas",
    title: "Fiscal invoices",
    description: "Fiscal service invoices (NFS-e): the sandbox city for sandbox accounts, the national system for production ones"
  }))
{}

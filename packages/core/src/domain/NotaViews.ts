/**
 * The nota routes' bodies and answers (spec: Endpoints, Fiscal invoices).
 * The spec names the emission answer's fields and, of the detail, only
 * `invoiceId`, `ref`, `status`, `nf.errors` and the PDF and XML links; the
 * rest is recorded in docs/decisions.md ("Notas").
 */
import { Schema } from "effect"
import { Reais } from "../money/Money.ts"
import { AddressInput } from "./Customer.ts"
import { NfseStandard } from "./NfseConfig.ts"
import { type Nota, NotaError, NotaStatus } from "./Nota.ts"
import { DocumentNumber, Email, Identifier, Name, optional, QueryInt, Text } from "./Values.ts"
import { Instant, ReaisJson } from "./Wire.ts"

/** The only model the engine issues; `type` is accepted on the routes and must be it. */
export const NotaType = Schema.Literal("NFSE")

/** Body of `POST /v1/invoices/notas`: a standalone note, issued at once. */
export const StandaloneNotaRequest = Schema.Struct({
  customer: Schema.Struct({
    document: DocumentNumber,
    name: optional(Name),
    email: optional(Email),
    address: optional(AddressInput)
  }),
  amount: Reais,
  descricao: Text,
  configId: Identifier,
  /** The note's `invoiceId` in every later route; generated when absent. */
  ref: optional(Identifier),
  type: optional(NotaType)
}).annotate({ identifier: "StandaloneNotaRequest" })
export type StandaloneNotaRequest = typeof StandaloneNotaRequest.Type

/** Body of `POST .../{notaId}/emitir` and `verificar-emissao` (optional). */
export const EmitNotaRequest = Schema.Struct({
  configId: optional(Identifier),
  type: optional(NotaType)
}).annotate({ identifier: "EmitNotaRequest" })
export type EmitNotaRequest = typeof EmitNotaRequest.Type

/** Body of `POST .../{notaId}/reemitir`: a new description may mend what the city refused. */
export const ReissueNotaRequest = Schema.Struct({
  descricao: optional(Text),
  configId: optional(Identifier),
  type: optional(NotaType)
}).annotate({ identifier: "ReissueNotaRequest" })
export type ReissueNotaRequest = typeof ReissueNotaRequest.Type

/** Body of `POST .../{notaId}/reenviar`: 1 to 10 recipients (more is `TOO_MANY_EMAILS`). */
export const ResendNotaRequest = Schema.Struct({
  emails: Schema.Array(Email).pipe(Schema.check(Schema.isMinLength(1)))
}).annotate({ identifier: "ResendNotaRequest" })
export type ResendNotaRequest = typeof ResendNotaRequest.Type

/** Query of `GET /v1/invoices/notas`. */
export const NotaListQuery = Schema.Struct({
  limit: optional(QueryInt),
  lastKey: optional(Identifier),
  search: optional(Text),
  taxId: optional(Text),
  customerName: optional(Text),
  status: optional(NotaStatus),
  startDate: optional(Text),
  endDate: optional(Text),
  type: optional(NotaType)
}).annotate({ identifier: "NotaListQuery" })
export type NotaListQuery = typeof NotaListQuery.Type

/** The answer of an emission (standalone, `emitir`, `reemitir`). */
export const NotaEmission = Schema.Struct({
  success: Schema.Boolean,
  invoiceId: Schema.String,
  ref: Schema.String,
  subscriptionId: Schema.NullOr(Schema.String),
  cycleNumber: Schema.NullOr(Schema.Int),
  type: NotaType,
  status: NotaStatus,
  numero: Schema.NullOr(Schema.String),
  tipo: NfseStandard,
  nf: Schema.Struct({ errors: Schema.Array(NotaError) })
}).annotate({ identifier: "NotaEmission" })

/** A note as the list and the detail answer it. */
export const NotaView = Schema.Struct({
  invoiceId: Schema.String,
  ref: Schema.String,
  type: NotaType,
  tipo: NfseStandard,
  status: NotaStatus,
  chargeId: Schema.NullOr(Schema.String),
  subscriptionId: Schema.NullOr(Schema.String),
  cycleNumber: Schema.NullOr(Schema.Int),
  configId: Schema.String,
  amount: ReaisJson,
  descricao: Schema.String,
  customer: Schema.Struct({ document: Schema.String, name: Schema.NullOr(Schema.String), email: Schema.NullOr(Schema.String) }),
  nf: Schema.Struct({
    numero: Schema.NullOr(Schema.String),
    serie: Schema.String,
    numeroDps: Schema.Int,
    chaveAcesso: Schema.NullOr(Schema.String),
    errors: Schema.Array(NotaError)
  }),
  /** The DANFSe; answers 409 `NF_NOT_AUTHORIZED` until the note is issued. */
  pdfUrl: Schema.String,
  /** The issued NFS-e's XML, or the DPS sent while there is none. */
  xmlUrl: Schema.String,
  cancelReason: Schema.NullOr(Schema.String),
  replacedBy: Schema.NullOr(Schema.String),
  issuedAt: Instant,
  authorizedAt: Schema.NullOr(Instant),
  canceledAt: Schema.NullOr(Instant),
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "Nota" })
export type NotaView = typeof NotaView.Type

export const NotaList = Schema.Struct({
  items: Schema.Array(NotaView),
  pagination: Schema.Struct({ total: Schema.Int, limit: Schema.Int, hasMore: Schema.Boolean, lastKey: Schema.NullOr(Schema.String) })
}).annotate({ identifier: "NotaList" })

export const NotaSummary = Schema.Struct({
  total: Schema.Struct({ count: Schema.Int, amount: ReaisJson }),
  byStatus: Schema.Array(Schema.Struct({ status: NotaStatus, count: Schema.Int, amount: ReaisJson }))
}).annotate({ identifier: "NotaSummary" })

/** `verificar-emissao`: whether the note could be emitted now, and what is missing. */
export const NotaCheck = Schema.Struct({
  success: Schema.Boolean,
  invoiceId: Schema.String,
  emitivel: Schema.Boolean,
  configId: Schema.NullOr(Schema.String),
  pendencias: Schema.Array(Schema.String)
}).annotate({ identifier: "NotaCheck" })

export const NotaResent = Schema.Struct({ success: Schema.Boolean, invoiceId: Schema.String, emails: Schema.Array(Schema.String) })
  .annotate({ identifier: "NotaResent" })

/** Links to the note's documents, under the API's own routes. */
export const notaLinks = (nota: Pick<Nota, "invoiceId">) => ({
  pdfUrl: `/v1/invoices/notas/${encodeURIComponent(nota.invoiceId)}/pdf`,
  xmlUrl: `/v1/invoices/notas/${encodeURIComponent(nota.invoiceId)}/xml`
})

export const toNotaView = (n: Nota): NotaView => ({
  invoiceId: n.invoiceId,
  ref: n.id,
  type: "NFSE",
  tipo: n.standard,
  status: n.status,
  chargeId: n.chargeId,
  subscriptionId: n.subscriptionId,
  cycleNumber: n.cycleNumber,
  configId: n.configId,
  amount: n.amount,
  descricao: n.descricao,
  customer: { document: n.tomador.document, name: n.tomador.name, email: n.tomador.email },
  nf: { numero: n.numero, serie: n.serie, numeroDps: n.dpsNumber, chaveAcesso: n.chaveAcesso, errors: n.errors },
  ...notaLinks(n),
  cancelReason: n.cancelReason,
  replacedBy: n.replacedBy,
  issuedAt: n.issuedAt,
  authorizedAt: n.authorizedAt,
  canceledAt: n.canceledAt,
  createdAt: n.createdAt,
  updatedAt: n.updatedAt
})

export const toNotaEmission = (n: Nota) => ({
  success: n.status !== "FAILED" && n.status !== "ERROR",
  invoiceId: n.invoiceId,
  ref: n.id,
  subscriptionId: n.subscriptionId,
  cycleNumber: n.cycleNumber,
  type: "NFSE" as const,
  status: n.status,
  numero: n.numero,
  tipo: n.standard,
  nf: { errors: n.errors }
})

/**
 * The charge as the HTTP API shows it. Field names are the spec's, quirks
 * included (`masterAccointId` in the status view, `masterAccountId` and
 * `subAccountId` in the list). Amounts are `ReaisJson` (printed `10.00`).
 */
import { Schema } from "effect"
import { percentFromHundredths } from "../money/Rounding.ts"
import { Charge, type Charge as ChargeType, ChargeCard, ChargeStatus, PaymentMethodInput, PaymentType, PixPayer } from "./Charge.ts"
import { AddressView } from "./Customer.ts"
import { AccountId } from "./Ids.ts"
import { DocumentNumber, optional, QueryInt, Text } from "./Values.ts"
import { Instant, ReaisJson } from "./Wire.ts"

const f = Charge.fields
const NullableInstant = Schema.NullOr(Instant)

/** `GET /v1/charges/{chargeId}`: the status view of the spec. */
export const ChargeStatusView = Schema.Struct({
  chargeId: f.id,
  status: f.status,
  amount: ReaisJson,
  paymentType: f.paymentType,
  masterAccointId: f.masterAccountId,
  subaccountId: Schema.NullOr(f.accountId),
  emv: f.emv,
  paidAt: NullableInstant,
  createdAt: Instant
}).annotate({ identifier: "ChargeStatusView" })

/** `GET /v1/charges/{chargeId}?view=detail`: the whole charge. */
export const ChargeDetailView = Schema.Struct({
  chargeId: f.id,
  status: f.status,
  paymentType: f.paymentType,
  amount: ReaisJson,
  grossAmount: ReaisJson,
  netAmount: ReaisJson,
  fees: Schema.Struct({ total: ReaisJson, fixed: ReaisJson, percentageRate: Schema.Number }),
  masterAccountId: f.masterAccountId,
  subAccountId: Schema.NullOr(f.accountId),
  description: f.description,
  externalTxid: f.externalTxid,
  metadata: f.metadata,
  customer: Schema.NullOr(Schema.Struct({
    name: Schema.NullOr(Schema.String),
    documentNumber: Schema.NullOr(Schema.String),
    email: Schema.NullOr(Schema.String),
    phone: Schema.NullOr(Schema.String)
  })),
  address: Schema.NullOr(AddressView),
  pix: Schema.NullOr(Schema.Struct({
    txid: f.txid,
    emv: f.emv,
    dueDate: f.dueDate,
    expiresAt: Instant,
    endToEndId: f.endToEndId,
    payer: Schema.NullOr(PixPayer),
    /** The PSP that holds the charge (the engine's name for it); null in the sandbox. */
    psp: f.psp
  })),
  boleto: Schema.NullOr(Schema.Struct({
    bankCode: Schema.String,
    ourNumber: Schema.String,
    barCode: Schema.String,
    digitableLine: Schema.String,
    dueDate: Schema.String
  })),
  card: Schema.NullOr(ChargeCard),
  split: Schema.Array(Schema.Struct({
    accountNumber: Schema.String,
    type: Schema.Literals(["fixed", "percentage"]),
    /** The requested percentage (12.5 for 12.5%) of a percentage part; null for a fixed one. */
    percentage: Schema.NullOr(Schema.Number),
    amount: ReaisJson
  })),
  expiresAt: Instant,
  paidAt: NullableInstant,
  canceledAt: NullableInstant,
  archivedAt: NullableInstant,
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "ChargeDetailView" })

/** `GET /v1/charges/{chargeId}/status`: lean, for polling. */
export const ChargeLeanStatus = Schema.Struct({
  chargeId: f.id,
  status: f.status,
  amount: ReaisJson,
  paidAt: NullableInstant,
  expiresAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "ChargeLeanStatus" })

/** One item of `GET /v1/charges`. */
export const ChargeListItem = Schema.Struct({
  status: f.status,
  createdAt: Instant,
  chargeId: f.id,
  updatedAt: Instant,
  masterAccountId: f.masterAccountId,
  amount: ReaisJson,
  attempts: f.attempts,
  emvQrCode: f.emv,
  paymentType: f.paymentType,
  subAccountId: Schema.NullOr(f.accountId)
}).annotate({ identifier: "ChargeListItem" })

/**
 * The query of `GET /v1/charges`: page (`page`, `perPage` or its alias
 * `limit`), creation window (`dateFrom`/`dateTo` or the aliases
 * `startDate`/`endDate`), `status`, payment method (`paymentMethod` in
 * either form, or `paymentType`), the buyer's `document`, a free `search`
 * and one `subaccountId`. An unknown value of an enumerated filter is
 * refused, never ignored.
 */
export const ChargeListQuery = Schema.Struct({
  page: optional(QueryInt),
  perPage: optional(QueryInt),
  limit: optional(QueryInt),
  dateFrom: optional(Text),
  dateTo: optional(Text),
  startDate: optional(Text),
  endDate: optional(Text),
  status: optional(ChargeStatus),
  paymentMethod: optional(Schema.Union([PaymentMethodInput, PaymentType])),
  paymentType: optional(PaymentType),
  document: optional(DocumentNumber),
  search: optional(Text),
  subaccountId: optional(Text.pipe(Schema.decodeTo(AccountId)))
}).annotate({ identifier: "ChargeListQuery" })
export type ChargeListQuery = typeof ChargeListQuery.Type

export const ChargeList = Schema.Struct({
  data: Schema.Array(ChargeListItem),
  totalItems: Schema.Number,
  totalPages: Schema.Number,
  page: Schema.Number,
  limit: Schema.Number,
  dateFrom: NullableInstant,
  dateTo: NullableInstant
}).annotate({ identifier: "ChargeList" })

const subAccountOf = (c: ChargeType) => (c.accountId === c.masterAccountId ? null : c.accountId)

// A charge that can no longer be paid does not hand out its code.
const UNPAYABLE: ReadonlyArray<typeof ChargeStatus.Type> = ["CANCELED", "ARCHIVED", "EXPIRED"]

export const toStatusView = (c: ChargeType): typeof ChargeStatusView.Type => ({
  chargeId: c.id,
  status: c.status,
  amount: c.amount,
  paymentType: c.paymentType,
  masterAccointId: c.masterAccountId,
  subaccountId: subAccountOf(c),
  emv: UNPAYABLE.includes(c.status) ? null : c.emv,
  paidAt: c.paidAt,
  createdAt: c.createdAt
})

export const toDetailView = (c: ChargeType): typeof ChargeDetailView.Type => ({
  chargeId: c.id,
  status: c.status,
  paymentType: c.paymentType,
  amount: c.amount,
  grossAmount: c.amount,
  netAmount: c.net,
  fees: { total: c.fee, fixed: c.feeFixed, percentageRate: percentFromHundredths(c.feePercentHundredths) },
  masterAccountId: c.masterAccountId,
  subAccountId: subAccountOf(c),
  description: c.description,
  externalTxid: c.externalTxid,
  metadata: c.metadata,
  customer: c.customer === null
    ? null
    : { name: c.customer.name, documentNumber: c.customer.documentNumber, email: c.customer.email, phone: c.customer.phone },
  address: c.address !== null
    ? c.address
    : c.customer?.cep
    ? { street: null, number: null, complement: null, neighborhood: null, city: null, state: null, zipCode: c.customer.cep, cityCode: null }
    : null,
  pix: c.paymentType === "PIX"
    ? { txid: c.txid, emv: c.emv, dueDate: c.dueDate, expiresAt: c.expiresAt, endToEndId: c.endToEndId, payer: c.payer, psp: c.psp }
    : null,
  boleto: c.boleto === null
    ? null
    : { bankCode: c.boleto.bankCode, ourNumber: c.boleto.ourNumber, barCode: c.boleto.barcode, digitableLine: c.boleto.digitableLine, dueDate: c.boleto.dueDate },
  card: c.card,
  split: (c.split ?? []).map((p) => ({
    accountNumber: p.accountNumber,
    type: p.type,
    percentage: p.type === "percentage" ? percentFromHundredths(p.value) : null,
    amount: p.amount
  })),
  expiresAt: c.expiresAt,
  paidAt: c.paidAt,
  canceledAt: c.canceledAt,
  archivedAt: c.archivedAt,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt
})

export const toLeanStatus = (c: ChargeType): typeof ChargeLeanStatus.Type => ({
  chargeId: c.id,
  status: c.status,
  amount: c.amount,
  paidAt: c.paidAt,
  expiresAt: c.expiresAt,
  updatedAt: c.updatedAt
})

export const toListItem = (c: ChargeType): typeof ChargeListItem.Type => ({
  status: c.status,
  createdAt: c.createdAt,
  chargeId: c.id,
  updatedAt: c.updatedAt,
  masterAccountId: c.masterAccountId,
  amount: c.amount,
  attempts: c.attempts,
  emvQrCode: c.emv,
  paymentType: c.paymentType,
  subAccountId: subAccountOf(c)
})

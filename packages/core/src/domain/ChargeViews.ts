/**
 * The charge as the HTTP API shows it. Field names are the spec's, quirks
 * included (`masterAccointId` in the status view, `masterAccountId` and
 * `subAccountId` in the list). Amounts are `ReaisJson` (printed `10.00`).
 */
import { Schema } from "effect"
import { ReaisJson } from "../money/Money.ts"
import { percentFromHundredths } from "../money/Rounding.ts"
import type { Charge } from "./Charge.ts"
import { AddressView } from "./Customer.ts"

const Timestamp = Schema.NullOr(Schema.String)

/** `GET /v1/charges/{chargeId}`: the status view of the spec. */
export const ChargeStatusView = Schema.Struct({
  chargeId: Schema.String,
  status: Schema.String,
  amount: ReaisJson,
  paymentType: Schema.String,
  masterAccointId: Schema.String,
  subaccountId: Schema.NullOr(Schema.String),
  emv: Schema.NullOr(Schema.String),
  paidAt: Timestamp,
  createdAt: Schema.String
}).annotate({ identifier: "ChargeStatusView" })

const Customer = Schema.Struct({
  name: Schema.NullOr(Schema.String),
  documentNumber: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  phone: Schema.NullOr(Schema.String)
})

const Payer = Schema.Struct({
  name: Schema.String,
  taxId: Schema.String,
  bank: Schema.String,
  account: Schema.String,
  branch: Schema.String,
  accountType: Schema.String
})

/** `GET /v1/charges/{chargeId}?view=detail`: the whole charge. */
export const ChargeDetailView = Schema.Struct({
  chargeId: Schema.String,
  status: Schema.String,
  paymentType: Schema.String,
  amount: ReaisJson,
  grossAmount: ReaisJson,
  netAmount: ReaisJson,
  fees: Schema.Struct({ total: ReaisJson, fixed: ReaisJson, percentageRate: Schema.Number }),
  masterAccountId: Schema.String,
  subAccountId: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  externalTxid: Schema.NullOr(Schema.String),
  metadata: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
  customer: Schema.NullOr(Customer),
  address: Schema.NullOr(AddressView),
  pix: Schema.NullOr(Schema.Struct({
    txid: Schema.String,
    emv: Schema.NullOr(Schema.String),
    dueDate: Schema.NullOr(Schema.String),
    expiresAt: Schema.String,
    endToEndId: Schema.NullOr(Schema.String),
    payer: Schema.NullOr(Payer)
  })),
  boleto: Schema.NullOr(Schema.Struct({
    bankCode: Schema.String,
    ourNumber: Schema.String,
    barCode: Schema.String,
    digitableLine: Schema.String,
    dueDate: Schema.String
  })),
  card: Schema.NullOr(Schema.Struct({
    brand: Schema.String,
    firstSix: Schema.String,
    lastFour: Schema.String,
    installments: Schema.Number
  })),
  split: Schema.Array(Schema.Struct({
    accountNumber: Schema.String,
    type: Schema.String,
    /** The requested percentage (12.5 for 12.5%) of a percentage part; null for a fixed one. */
    percentage: Schema.NullOr(Schema.Number),
    amount: ReaisJson
  })),
  expiresAt: Schema.String,
  paidAt: Timestamp,
  canceledAt: Timestamp,
  archivedAt: Timestamp,
  createdAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "ChargeDetailView" })

/** `GET /v1/charges/{chargeId}/status`: lean, for polling. */
export const ChargeLeanStatus = Schema.Struct({
  chargeId: Schema.String,
  status: Schema.String,
  amount: ReaisJson,
  paidAt: Timestamp,
  expiresAt: Schema.String,
  updatedAt: Schema.String
}).annotate({ identifier: "ChargeLeanStatus" })

/** One item of `GET /v1/charges`. */
export const ChargeListItem = Schema.Struct({
  status: Schema.String,
  createdAt: Schema.String,
  chargeId: Schema.String,
  updatedAt: Schema.String,
  masterAccountId: Schema.String,
  amount: ReaisJson,
  attempts: Schema.Number,
  emvQrCode: Schema.NullOr(Schema.String),
  paymentType: Schema.String,
  subAccountId: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ChargeListItem" })

export const ChargeList = Schema.Struct({
  data: Schema.Array(ChargeListItem),
  totalItems: Schema.Number,
  totalPages: Schema.Number,
  page: Schema.Number,
  limit: Schema.Number,
  dateFrom: Timestamp,
  dateTo: Timestamp
}).annotate({ identifier: "ChargeList" })

const iso = (d: Date | null) => (d === null ? null : d.toISOString())
const subAccountOf = (c: Charge) => (c.accountId === c.masterAccountId ? null : c.accountId)

export const toStatusView = (c: Charge): typeof ChargeStatusView.Type => ({
  chargeId: c.id,
  status: c.status,
  amount: c.amount,
  paymentType: c.paymentType,
  masterAccointId: c.masterAccountId,
  subaccountId: subAccountOf(c),
  // A charge that can no longer be paid does not hand out its code.
  emv: c.status === "CANCELED" || c.status === "ARCHIVED" || c.status === "EXPIRED" ? null : c.emv,
  paidAt: iso(c.paidAt),
  createdAt: c.createdAt.toISOString()
})

export const toDetailView = (c: Charge): typeof ChargeDetailView.Type => ({
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
    ? { txid: c.txid, emv: c.emv, dueDate: c.dueDate, expiresAt: c.expiresAt.toISOString(), endToEndId: c.endToEndId, payer: c.payer }
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
  expiresAt: c.expiresAt.toISOString(),
  paidAt: iso(c.paidAt),
  canceledAt: iso(c.canceledAt),
  archivedAt: iso(c.archivedAt),
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString()
})

export const toLeanStatus = (c: Charge): typeof ChargeLeanStatus.Type => ({
  chargeId: c.id,
  status: c.status,
  amount: c.amount,
  paidAt: iso(c.paidAt),
  expiresAt: c.expiresAt.toISOString(),
  updatedAt: c.updatedAt.toISOString()
})

export const toListItem = (c: Charge): typeof ChargeListItem.Type => ({
  status: c.status,
  createdAt: c.createdAt.toISOString(),
  chargeId: c.id,
  updatedAt: c.updatedAt.toISOString(),
  masterAccountId: c.masterAccountId,
  amount: c.amount,
  attempts: c.attempts,
  emvQrCode: c.emv,
  paymentType: c.paymentType,
  subAccountId: subAccountOf(c)
})

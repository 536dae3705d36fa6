/**
 * The parts of Mercado Pago's answers the adapter reads, as published in the
 * API reference (https://www.mercadopago.com.br/developers/en/reference,
 * "Payments", "Refunds", "Card token", "Customers", "Cards"); anything else
 * in them is ignored.
 */
import { Schema } from "effect"

/** `POST /v1/card_tokens`: the card's single-use token. */
export const CardToken = Schema.Struct({ id: Schema.String })

/**
 * A payment (`POST /v1/payments`, `GET /v1/payments/{id}`, the search's
 * `results`). `status`: approved, rejected, pending, in_process,
 * authorized, cancelled, refunded, charged_back; `status_detail` says why.
 */
export const Payment = Schema.Struct({
  id: Schema.Number,
  status: Schema.String,
  status_detail: Schema.NullishOr(Schema.String),
  transaction_amount: Schema.Number,
  external_reference: Schema.NullishOr(Schema.String),
  /** With `status_detail` `pending_challenge`: where the buyer passes the 3-D Secure challenge. */
  three_ds_info: Schema.optional(Schema.NullishOr(Schema.Struct({ external_resource_url: Schema.NullishOr(Schema.String) })))
})
export type Payment = typeof Payment.Type

/** `GET /v1/payments/search`. */
export const PaymentSearch = Schema.Struct({ results: Schema.Array(Payment) })

/** `POST /v1/payments/{id}/refunds`. */
export const Refund = Schema.Struct({ id: Schema.Number, payment_id: Schema.Number, amount: Schema.Number })

/** A customer (`POST /v1/customers`, and each of the search's `results`): `id` as `448870796-7ZjwhKGxILixxN`. */
export const Customer = Schema.Struct({ id: Schema.String })

/** `GET /v1/customers/search?email=…`: an empty `results` when there is none. */
export const CustomerSearch = Schema.Struct({ results: Schema.Array(Customer) })

/**
 * `POST /v1/customers/{id}/cards`: the card kept. Its `id` is a string in
 * the SDK's types and a number in the reference's example: either is read.
 */
export const CustomerCard = Schema.Struct({
  id: Schema.Union([Schema.String, Schema.Number]),
  payment_method: Schema.optional(Schema.NullishOr(Schema.Struct({ id: Schema.String })))
})

/** An error answer: `{ message, error, status, cause: [{ code, description }] }`. */
export const ErrorBody = Schema.Struct({
  message: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String),
  cause: Schema.optional(Schema.Array(Schema.Struct({ code: Schema.optional(Schema.Union([Schema.String, Schema.Number])) })))
})

import { Schema } from "effect"
import { Reais } from "../money/Money.ts"

const OptionalString = Schema.optionalKey(Schema.String)

/**
 * Body of `POST /v1/charges/pix`. Types are checked here; the rules that
 * depend on each other (customer fields only with `expiration`, split
 * receivers, dates) are checked by `createPixCharge`. Unknown fields (such as
 * the `title` real clients send) are ignored.
 */
export const PixChargeRequest = Schema.Struct({
  amount: Reais,
  paymentMethod: OptionalString,
  expiration: OptionalString,
  externalTxid: OptionalString,
  /** Accepted and discarded on this route (spec: General rule 9). */
  externalId: Schema.optionalKey(Schema.Unknown),
  metadata: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  customer: Schema.optionalKey(Schema.Struct({
    documentNumber: OptionalString,
    name: OptionalString,
    cep: OptionalString,
    phone: OptionalString,
    email: OptionalString
  })),
  split: Schema.optionalKey(Schema.Array(Schema.Struct({
    type: Schema.String,
    amount: Schema.Union([Schema.Number, Schema.String]),
    accountNumber: OptionalString
  })))
}).annotate({ identifier: "PixChargeRequest" })
export type PixChargeRequest = typeof PixChargeRequest.Type

export const PixChargeResponse = Schema.Struct({
  chargeId: Schema.String,
  emv: Schema.String,
  qrCode: Schema.String,
  metadata: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}).annotate({ identifier: "PixChargeResponse" })

import { Schema } from "effect"
import { CalendarDate, Cep, DocumentNumber, Email, Name, optional, Percent, PhoneE164, Text } from "../domain/Values.ts"
import { Reais } from "../money/Money.ts"

const OptionalString = optional(Text)

/**
 * One receiver of a split, by `type`: a fixed amount of reais (at least
 * 0.01) or a percentage of the net (above 0, at most 100). Without
 * `accountNumber` the receiver is the master (a seller's charge).
 */
const FixedSplit = Schema.Struct({ type: Schema.Literal("fixed"), amount: Reais, accountNumber: OptionalString })
const PercentageSplit = Schema.Struct({ type: Schema.Literal("percentage"), amount: Percent, accountNumber: OptionalString })

// The kind is checked first, so a wrong `type` is reported at `type`, and then
// the union decodes the amount the kind calls for.
const SplitKind = Schema.Struct({
  type: Schema.Literals(["fixed", "percentage"]),
  amount: Schema.Union([Schema.Number, Schema.String]),
  accountNumber: OptionalString
})

export const SplitItemInput = SplitKind.pipe(Schema.decodeTo(Schema.Union([FixedSplit, PercentageSplit]))).annotate({ identifier: "SplitItem" })
export type SplitItemInput = typeof SplitItemInput.Type

/** A split receiver of the transparent checkout, which may also be named by its `publicId`. */
export const CheckoutSplitItemInput = Schema.Struct({ ...SplitKind.fields, publicId: OptionalString }).pipe(
  Schema.decodeTo(Schema.Union([
    Schema.Struct({ ...FixedSplit.fields, publicId: OptionalString }),
    Schema.Struct({ ...PercentageSplit.fields, publicId: OptionalString })
  ]))
).annotate({ identifier: "CheckoutSplitItem" })

/**
 * Body of `POST /v1/charges/pix`. Types are checked here; the rules that
 * depend on each other (customer fields only with `expiration`, split
 * receivers, dates) are checked by `createPixCharge`. Unknown fields (such as
 * the `title` real clients send) are ignored.
 */
export const PixChargeRequest = Schema.Struct({
  amount: Reais,
  paymentMethod: OptionalString,
  expiration: optional(CalendarDate),
  externalTxid: optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(100)))),
  /** Accepted and discarded on this route (spec: General rule 9). */
  externalId: Schema.optionalKey(Schema.Unknown),
  metadata: optional(Schema.Record(Schema.String, Schema.Unknown)),
  customer: optional(Schema.Struct({
    documentNumber: optional(DocumentNumber),
    name: optional(Name),
    cep: optional(Cep),
    phone: optional(PhoneE164),
    email: optional(Email)
  })),
  split: optional(Schema.Array(SplitItemInput).pipe(Schema.check(Schema.isMaxLength(20))))
}).annotate({ identifier: "PixChargeRequest" })
export type PixChargeRequest = typeof PixChargeRequest.Type

export const PixChargeResponse = Schema.Struct({
  chargeId: Schema.String,
  emv: Schema.String,
  qrCode: Schema.String,
  metadata: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}).annotate({ identifier: "PixChargeResponse" })

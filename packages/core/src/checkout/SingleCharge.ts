/**
 * `POST /v1/charges/single`: the real provider's one-off charge, by `amount`
 * and `title`, kept so that its existing clients work unchanged. It is the
 * transparent checkout with an `amount` (the spec's way), translated: the
 * title is the description when none is sent, a Pix `expiration` counts
 * seconds (a date on `POST /v1/charges`), a national phone gets its `+55`,
 * and each method answers in the provider's shape.
 */
import { Effect, Option, Schema, SchemaGetter } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { Charges } from "../ports/Charges.ts"
import { CalendarDate, Description, Identifier, Name, optional, PhoneE164 } from "../domain/Values.ts"
import { Reais, ReaisJson } from "../money/Money.ts"
import { BoletoInstructions } from "../domain/Charge.ts"
import { CardInput, CheckoutRequest, CheckoutResponse } from "./CheckoutRequest.ts"
import { createAmountCharge } from "./CreateCheckoutCharge.ts"

/** A phone as the provider's clients send it: E.164, or national (area code and number), which gets `+55`. */
const LenientPhone = Schema.String.pipe(
  Schema.decodeTo(PhoneE164, {
    decode: SchemaGetter.transform((phone: string) => {
      const digits = phone.replace(/[\s().-]/g, "")
      return /^\d{10,11}$/.test(digits) ? `+55${digits}` : phone
    }),
    encode: SchemaGetter.transform((phone: string) => phone)
  })
)

/** Body of `POST /v1/charges/single`. */
export const SingleChargeRequest = Schema.Struct({
  paymentMethod: Schema.Literals(["pix", "boleto", "creditcard"]),
  amount: Reais,
  title: Name,
  description: optional(Description),
  customer: Schema.Struct({ ...CheckoutRequest.fields.customer.fields, phone: optional(LenientPhone) }),
  /** Pix: seconds the code stays payable (60 s to 1 year; 24 hours when absent). */
  expiration: optional(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 60, maximum: 31_536_000 })))),
  dueDate: optional(CalendarDate),
  boletoInstructions: optional(BoletoInstructions),
  card: optional(CardInput),
  paymentMethodId: optional(Identifier),
  tokenId: optional(Identifier),
  installments: CheckoutRequest.fields.installments,
  externalId: CheckoutRequest.fields.externalId,
  /** Accepted, not stored (as on `POST /v1/charges`). */
  metadata: Schema.optionalKey(Schema.Unknown)
}).annotate({ identifier: "SingleChargeRequest" })
export type SingleChargeRequest = typeof SingleChargeRequest.Type

/** The answer of `POST /v1/charges/single`, by method. */
export const SingleChargeResponse = Schema.Union([
  Schema.Struct({ chargeId: Schema.String, emv: Schema.String, qrCode: Schema.String }),
  CheckoutResponse,
  Schema.Struct({
    chargeId: Schema.String,
    status: Schema.Literal("PAID"),
    amount: ReaisJson,
    paymentType: Schema.Literal("CREDIT_CARD"),
    installments: Schema.Int
  })
]).annotate({ identifier: "SingleChargeResponse" })

/** The answer: Pix `{ chargeId, emv, qrCode }`, boleto as the checkout's, card `{ chargeId, status: "PAID", amount, paymentType, installments }`. */
export const createSingleCharge = Effect.fn("Checkout.single")(function*(request: SingleChargeRequest) {
  const { title, expiration, ...rest } = request
  const result = yield* createAmountCharge(
    { ...rest, description: request.description ?? title },
    { pixLifetimeSeconds: expiration }
  )
  if (result.pix !== undefined) return { chargeId: result.chargeId, emv: result.pix.emv, qrCode: result.pix.qrCode }
  if (result.boleto !== undefined) return result
  const caller = yield* Caller
  const charge = yield* (yield* Charges).find({ _tag: "Account", accountId: caller.account.id }, result.chargeId)
  return {
    chargeId: result.chargeId,
    status: "PAID" as const,
    amount: Option.match(charge, { onNone: () => request.amount, onSome: (c) => c.amount }),
    paymentType: "CREDIT_CARD" as const,
    installments: Option.match(charge, { onNone: () => 1, onSome: (c) => c.card?.installments ?? 1 })
  }
})

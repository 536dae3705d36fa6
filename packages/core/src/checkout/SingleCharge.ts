/**
 * `POST /v1/charges/single`: the real provider's one-off charge, by `amount`
 * and `title`, kept so that its existing clients work unchanged. It is the
 * transparent checkout with an `amount` (the spec's way), translated: the
 * title is the description when none is sent, a Pix `expiration` counts
 * seconds (a date on `POST /v1/charges`), a national phone gets its `+55`,
 * and each method answers in the provider's shape. A Pix may name no buyer
 * (the provider requires only `paymentMethod`, `amount` and `title`): it is
 * then a charge without a customer, as `POST /v1/charges/pix` makes one.
 */
import { Clock, Effect, Option, Schema, SchemaGetter } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import { qrPngDataUrl } from "../brazil/QrPng.ts"
import { DEFAULT_PIX_LIFETIME_MILLIS, newTxid, ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { Charges } from "../ports/Charges.ts"
import { Ids } from "../ports/Ids.ts"
import { PixProvider } from "../ports/PixProvider.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { CalendarDate, Description, Identifier, idInput, Name, optional, PhoneE164 } from "../domain/Values.ts"
import { Reais, ReaisJson } from "../money/Money.ts"
import { BoletoInstructions, type Charge, DuplicateCharge, paymentTypeOf, unsettledCharge } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import { CardInput, CheckoutRequest, CheckoutResponse } from "./CheckoutRequest.ts"
import { createAmountCharge } from "./CreateCheckoutCharge.ts"
import { feesAndSplit } from "./PriceCheckout.ts"
import { ChargeIds, PaymentMethodId } from "../domain/Ids.ts"

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
  /** Required for boleto and creditcard; a Pix without it records no customer. */
  customer: optional(Schema.Struct({ ...CheckoutRequest.fields.customer.fields, phone: optional(LenientPhone) })),
  /** Pix: seconds the code stays payable (60 s to 1 year; 24 hours when absent). */
  expiration: optional(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 60, maximum: 31_536_000 })))),
  dueDate: optional(CalendarDate),
  boletoInstructions: optional(BoletoInstructions),
  card: optional(CardInput),
  paymentMethodId: optional(idInput(PaymentMethodId)),
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

/**
 * A Pix that names no buyer: nothing to create or match, so none of the
 * checkout's customer stages; the rest is its Pix (fees, the provider's
 * registration, the lifetime in seconds, `externalId` idempotency with 409
 * `DUPLICATE_CHARGE`). The charge records no customer, as on `POST /v1/charges/pix`.
 */
const pixWithoutCustomer = Effect.fnUntraced(function*(
  request: Omit<SingleChargeRequest, "title" | "expiration" | "customer">,
  lifetimeSeconds: number | undefined
) {
  // The checkout's rule: `installments: 1` is what a Pix is anyway; card fields are for creditcard.
  const installments = request.installments === 1 ? undefined : request.installments
  if (installments !== undefined || request.card !== undefined) {
    return yield* invalid(installments !== undefined ? "installments" : "card", "installments and card are for creditcard only")
  }
  const caller = yield* Caller
  const owner = caller.account
  yield* requireProvider(owner, "pix")
  const now = yield* Clock.currentTimeMillis
  const money = yield* feesAndSplit("pix", request.amount, undefined, { owner, master: caller.master })
  const id = yield* (yield* Ids).make(ChargeIds, { sandbox: owner.sandbox })
  const txid = yield* newTxid
  const expiresAt = new Date(now + (lifetimeSeconds === undefined ? DEFAULT_PIX_LIFETIME_MILLIS : lifetimeSeconds * 1000))
  const description = request.description ?? null
  const { emv, psp } = yield* (yield* PixProvider).createCharge({ receiver: owner, txid, amount: money.amount, expiresAt, dueDate: null, description, payer: null }).pipe(
    Effect.mapError((e) => new ProviderUnavailable({ message: "Provedor Pix indisponível", details: { reason: e.message } }))
  )
  const at = new Date(now)
  const charge: Charge = {
    ...money,
    ...unsettledCharge,
    id,
    accountId: owner.id,
    masterAccountId: caller.master.id,
    paymentType: paymentTypeOf.pix,
    status: "PENDING",
    txid,
    emv,
    psp,
    externalTxid: null,
    description,
    // `metadata` is accepted and not stored, as on every checkout route.
    metadata: null,
    customer: null,
    customerId: null,
    dueDate: null,
    expiresAt,
    externalId: request.externalId ?? null,
    card: null,
    boleto: null,
    address: null,
    notifications: null,
    subscriptionId: null,
    cycleNumber: null,
    createdAt: at,
    updatedAt: at
  }
  const result = yield* (yield* Charges).insertUnlessDuplicate(charge)
  if (!result.inserted) {
    return yield* new DuplicateCharge({ message: `Já existe uma cobrança com externalId ${charge.externalId}`, details: { chargeId: result.existingId } })
  }
  return { chargeId: id, emv, qrCode: qrPngDataUrl(emv) }
})

/** The answer: Pix `{ chargeId, emv, qrCode }`, boleto as the checkout's, card `{ chargeId, status: "PAID", amount, paymentType, installments }`. */
export const createSingleCharge = Effect.fn("Checkout.single")(function*(request: SingleChargeRequest) {
  const { title, expiration, customer, ...rest } = request
  const description = request.description ?? title
  if (customer === undefined) {
    // A boleto is printed for a named payer at an address; a card charge records whose card it was.
    if (request.paymentMethod !== "pix") return yield* invalid("customer", "customer is required for boleto and creditcard")
    return yield* pixWithoutCustomer({ ...rest, description }, expiration)
  }
  const result = yield* createAmountCharge({ ...rest, customer, description }, { pixLifetimeSeconds: expiration })
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

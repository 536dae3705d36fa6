import { Schema } from "effect"
import { PaymentMethodInput } from "./Charge.ts"
import { ErrorFields } from "./Errors.ts"
import { Instant } from "./Wire.ts"
import { Identifier, optional } from "./Values.ts"


const JsonObject = Schema.Record(Schema.String, Schema.Unknown)

/** The buyer a session is pre-filled with, kept as given. */
export const CheckoutCustomer = JsonObject

/** The items a checkout sells. */
export const CheckoutItems = Schema.Array(Schema.Struct({ priceId: Schema.String, quantity: Schema.Int }))

/** A hosted checkout: a reusable link (`pl_`) or a single-use session (`cs_`). */
export const CheckoutLink = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  kind: Schema.Literals(["link", "session"]),
  priceId: Schema.NullOr(Schema.String),
  productId: Schema.NullOr(Schema.String),
  items: Schema.NullOr(CheckoutItems),
  allowedPaymentMethods: Schema.Array(PaymentMethodInput),
  customer: Schema.NullOr(CheckoutCustomer),
  /** What the hosted page will use, kept as given (colors, redirect URLs, order bumps, installments…). */
  settings: JsonObject,
  /** Links: `ACTIVE` or `INACTIVE`; sessions: `PENDING`, then `completed` once paid. */
  status: Schema.Literals(["ACTIVE", "INACTIVE", "PENDING", "completed"]),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
}).annotate({ identifier: "CheckoutLinkRecord" })
export type CheckoutLink = typeof CheckoutLink.Type

export class CheckoutNotFound extends Schema.TaggedError<CheckoutNotFound>()("CHECKOUT_NOT_FOUND", ErrorFields, { httpApiStatus: 404 }) {}
export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()("SESSION_NOT_FOUND", ErrorFields, { httpApiStatus: 404 }) {}

const Items = Schema.Array(Schema.Struct({ priceId: Identifier, quantity: optional(Schema.Int) })).pipe(Schema.check(Schema.isMaxLength(100)))

/** Body of `POST/PUT /v1/checkouts` (link). Unlisted settings are kept for the hosted page. */
export const CheckoutLinkInput = Schema.StructWithRest(
  Schema.Struct({
    priceId: optional(Identifier),
    product: optional(Identifier),
    allowedPaymentMethods: optional(Schema.Array(PaymentMethodInput)),
    status: optional(Schema.Literals(["ACTIVE", "INACTIVE"]))
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
).annotate({ identifier: "CheckoutLinkInput" })
export type CheckoutLinkInput = typeof CheckoutLinkInput.Type

/** Body of `POST /v1/checkout-sessions`. */
export const CheckoutSessionInput = Schema.StructWithRest(
  Schema.Struct({
    priceId: optional(Identifier),
    items: optional(Items),
    allowedPaymentMethods: optional(Schema.Array(PaymentMethodInput)),
    customer: optional(Schema.Record(Schema.String, Schema.Unknown))
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
).annotate({ identifier: "CheckoutSessionInput" })
export type CheckoutSessionInput = typeof CheckoutSessionInput.Type

const link = CheckoutLink.fields

export const CheckoutLinkView = Schema.Struct({
  id: link.id,
  url: Schema.String,
  status: link.status,
  priceId: link.priceId,
  productId: link.productId,
  items: link.items,
  allowedPaymentMethods: link.allowedPaymentMethods,
  customer: link.customer,
  settings: link.settings,
  createdAt: Instant,
  updatedAt: Instant
}).annotate({ identifier: "CheckoutLink" })

/** The record as clients see it; `url` is the hosted page on `origin`. */
export const toCheckoutLinkView = (l: CheckoutLink, origin: string): typeof CheckoutLinkView.Type => ({
  id: l.id,
  url: `${origin}/pay/${l.id}`,
  status: l.status,
  priceId: l.priceId,
  productId: l.productId,
  items: l.items,
  allowedPaymentMethods: l.allowedPaymentMethods,
  customer: l.customer,
  settings: l.settings,
  createdAt: l.createdAt,
  updatedAt: l.updatedAt
})

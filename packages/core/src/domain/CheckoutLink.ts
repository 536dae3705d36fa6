import { Option, Schema } from "effect"
import { PaymentMethodInput } from "./Charge.ts"
import { ErrorFields } from "./Errors.ts"
import { Instant } from "./Wire.ts"
import { idInput, Name, optional, Text } from "./Values.ts"
import { AccountId, CheckoutLinkId, CheckoutSessionId, PriceId, ProductId } from "./Ids.ts"

const JsonObject = Schema.Record(Schema.String, Schema.Unknown)

/** The buyer a session is pre-filled with, kept as given. */
export const CheckoutCustomer = JsonObject

/** The items a checkout sells. */
export const CheckoutItems = Schema.Array(Schema.Struct({ priceId: PriceId, quantity: Schema.Int }))

/** A hosted checkout's id: a reusable link's (`pl_`) or a single-use session's (`cs_`). */
export const HostedCheckoutId = Schema.Union([CheckoutLinkId, CheckoutSessionId])
export type HostedCheckoutId = typeof HostedCheckoutId.Type

/** A hosted checkout: a reusable link (`pl_`) or a single-use session (`cs_`). */
export const CheckoutLink = Schema.Struct({
  id: HostedCheckoutId,
  accountId: AccountId,
  kind: Schema.Literals(["link", "session"]),
  priceId: Schema.NullOr(PriceId),
  productId: Schema.NullOr(ProductId),
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

const Items = Schema.Array(Schema.Struct({ priceId: idInput(PriceId), quantity: optional(Schema.Int) })).pipe(Schema.check(Schema.isMaxLength(100)))

/** A color of the hosted page, `#RRGGBB`. */
export const HexColor = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^#[0-9A-Fa-f]{6}$/, { message: "must be a color #RRGGBB" }))
).annotate({ identifier: "HexColor", description: "A color `#RRGGBB`; the page keeps it at contrast AA, adjusting one that is not", examples: ["#0b5cad"] })

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

/** Whether `text` is where a buyer may be sent: an absolute `https` URL, or `http` on this machine (a merchant's local test). */
const isPageUrl = (text: string) => {
  if (!URL.canParse(text)) return false
  const url = new URL(text)
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname))
}

/** A URL the page sends the buyer to: absolute `https`, or loopback `http`; at most 2,048 characters. */
export const PageUrl = Schema.String.pipe(
  Schema.check(Schema.makeFilter(isPageUrl, { message: "must be an absolute https URL (http only on localhost)" })),
  Schema.check(Schema.isMaxLength(2_048))
).annotate({ identifier: "PageUrl", description: "An absolute https URL (http only on localhost, 127.0.0.1 or [::1])", examples: ["https://loja.example.com/obrigado"] })

const InstallmentCount = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 12 })))

/** An extra offered next to the link's price, ticked by the buyer; its price is added to the purchase. */
export const OrderBump = Schema.Struct({
  priceId: idInput(PriceId),
  /** The checkbox's text; the product's name when absent. */
  label: optional(Name.pipe(Schema.check(Schema.isMinLength(1)))),
  /** The only way the page offers a bump today. */
  displayMode: optional(Schema.Literal("checkbox"))
}).annotate({ identifier: "OrderBump" })
export type OrderBump = typeof OrderBump.Type

/**
 * What the provider's clients set on a link for its hosted page (the
 * Postman collection's fields). `freeInstallments` and
 * `passFeesToCustomer` are also terms of the link's card payments.
 */
export const checkoutLinkSettingsFields = {
  checkoutName: optional(Name),
  primaryColor: optional(HexColor),
  secondaryColor: optional(HexColor),
  fontColor: optional(HexColor),
  showProductImage: optional(Schema.Boolean),
  successMessage: optional(Text),
  successUrl: optional(PageUrl),
  cancelUrl: optional(PageUrl),
  redirectAfterPaymentUrl: optional(PageUrl),
  maxInstallments: optional(InstallmentCount),
  freeInstallments: optional(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 12 })))),
  passFeesToCustomer: optional(Schema.Boolean),
  orderBumps: optional(Schema.Array(OrderBump).pipe(Schema.check(Schema.isMaxLength(5))))
}

/** The link's page settings, read from what is stored. */
export const CheckoutLinkSettings = Schema.Struct(checkoutLinkSettingsFields).annotate({ identifier: "CheckoutLinkSettings" })
export type CheckoutLinkSettings = typeof CheckoutLinkSettings.Type

const settingDecoders = Object.entries(checkoutLinkSettingsFields).map(([key, schema]) =>
  [key, Schema.decodeUnknownOption(Schema.Struct({ [key]: schema }))] as const
)

/**
 * The page settings of a stored link. Each is taken when valid and left out
 * otherwise: links made before the settings had a schema kept anything.
 */
export const linkSettingsOf = (settings: CheckoutLink["settings"]): CheckoutLinkSettings =>
  Object.fromEntries(settingDecoders.flatMap(([key, decode]) => {
    const decoded = Option.getOrUndefined(decode({ [key]: settings[key] }))
    return decoded === undefined || !(key in decoded) ? [] : [[key, (decoded as Record<string, unknown>)[key]]]
  }))

/** The most installments a link's card payment takes (the spec's 12 when the link says nothing). */
export const maxInstallmentsOf = (settings: CheckoutLinkSettings) => settings.maxInstallments ?? 12

/**
 * Body of `POST/PUT /v1/checkouts` (link): what it sells, how it is paid,
 * its page settings (checked), and other settings of the provider's
 * clients (`metadata`, `discounts`, payment terms), kept for its payments.
 */
export const CheckoutLinkInput = Schema.StructWithRest(
  Schema.Struct({
    priceId: optional(idInput(PriceId)),
    product: optional(idInput(ProductId)),
    allowedPaymentMethods: optional(Schema.Array(PaymentMethodInput)),
    status: optional(Schema.Literals(["ACTIVE", "INACTIVE"])),
    ...checkoutLinkSettingsFields
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
).annotate({ identifier: "CheckoutLinkInput" })
export type CheckoutLinkInput = typeof CheckoutLinkInput.Type

/** Body of `POST /v1/checkout-sessions`. */
export const CheckoutSessionInput = Schema.StructWithRest(
  Schema.Struct({
    priceId: optional(idInput(PriceId)),
    items: optional(Items),
    allowedPaymentMethods: optional(Schema.Array(PaymentMethodInput)),
    customer: optional(Schema.Record(Schema.String, Schema.Unknown))
  }),
  [Schema.Record(Schema.String, Schema.Unknown)]
).annotate({ identifier: "CheckoutSessionInput" })
export type CheckoutSessionInput = typeof CheckoutSessionInput.Type

const link = CheckoutLink.fields

export const CheckoutLinkView = Schema.Struct({
  id: Schema.String,
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

/**
 * The posted form, read into what the buyer chose (`HostedPaymentChoices`),
 * checked by the schemas of `POST /v1/checkouts/pay` itself: a document,
 * an e-mail or a CEP the API would refuse is refused here with the same
 * message, under its field. Empty fields are absent, as `null` is for the
 * API. A session's buyer is the session's: only an address is taken from
 * the form, for a boleto. Order bumps are the boxes ticked among those the
 * link offers.
 */
import { type HostedCheckout, type HostedPaymentChoices, InvalidData, PayCheckoutRequest } from "@billing/core"
import { Result, Schema } from "effect"
import { issueFields } from "../Middleware.ts"
import { tickedBumps } from "./CheckoutView.ts"

const p = PayCheckoutRequest.fields

const PageChoices = Schema.Struct({
  paymentMethod: p.paymentMethod,
  customer: p.customer,
  installments: p.installments,
  couponCode: p.couponCode,
  cardToken: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMaxLength(300))))
})

const ADDRESS = ["zipCode", "street", "number", "complement", "neighborhood", "city", "state"] as const

/** The form's fields, keyed by their names, blank ones left out. */
export const formValues = (entries: Iterable<readonly [string, string]>): Record<string, string> => {
  const values: Record<string, string> = {}
  for (const [key, value] of entries) if (value.trim() !== "" && !(key in values)) values[key] = value.trim()
  return values
}

// The API's optional fields take a missing key or `null`, not `undefined`: blank fields are left out.
const defined = <A extends Record<string, unknown>>(record: A): Partial<A> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<A>

const addressOf = (values: Readonly<Record<string, string>>) => {
  const parts = Object.fromEntries(ADDRESS.flatMap((key) => (values[`customer.address.${key}`] === undefined ? [] : [[key, values[`customer.address.${key}`]]])))
  return Object.keys(parts).length === 0 ? undefined : parts
}

const customerOf = (values: Readonly<Record<string, string>>, checkout: HostedCheckout) => {
  const address = addressOf(values)
  if (checkout.buyer !== null) return address === undefined ? undefined : { ...checkout.buyer, address }
  return defined({
    name: values["customer.name"],
    email: values["customer.email"],
    documentNumber: values["customer.documentNumber"],
    phone: values["customer.phone"],
    address
  })
}

/** The choices of the form, or `INVALID_DATA` with each field's problem, as the API would answer. */
export const readForm = (
  values: Readonly<Record<string, string>>,
  checkout: HostedCheckout
): Result.Result<HostedPaymentChoices, InvalidData> => {
  const installments = values.installments
  const decoded = Schema.decodeUnknownResult(PageChoices)(defined({
    paymentMethod: values.paymentMethod,
    customer: customerOf(values, checkout),
    // Installments are the card's: a Pix or boleto form still posts the select's value.
    installments: values.paymentMethod === "creditcard" && installments !== undefined && /^\d{1,2}$/.test(installments) ? Number(installments) : undefined,
    couponCode: values.couponCode,
    cardToken: values.paymentMethod === "creditcard" ? values.cardToken : undefined
  }))
  if (Result.isSuccess(decoded)) return Result.succeed({ ...decoded.success, orderBumps: tickedBumps(checkout, values).map((bump) => bump.priceId) })
  return Result.fail(new InvalidData({ message: "Dados inválidos", details: issueFields(decoded.failure.issue) }))
}

/**
 * Stage 1 of `POST /v1/charges`: the rules of the request that hold whatever
 * the price and the payment method's own fields (spec: Transparent checkout).
 * The method's own fields (card, boleto address and due date, Pix
 * expiration) are checked by its strategy, after the price, so that a
 * refused price or coupon is reported before them, as it always was.
 */
import { Effect, type Option } from "effect"
import { type Account, mayUsePixAutomatico } from "../domain/Account.ts"
import type { PaymentMethod } from "../domain/PaymentMethod.ts"
import { type PaymentMethodInput, PixAutomaticoPjOnly } from "../domain/Charge.ts"
import { invalidData as invalid } from "../domain/Errors.ts"
import type { SplitMode } from "../rules/Split.ts"
import { type NotificationKind, NotificationKinds } from "../domain/Notification.ts"
import { chargeAddressOf } from "./BuyerAddress.ts"
import type { CheckoutRequest } from "./CheckoutRequest.ts"

const KNOWN_NOTIFICATIONS: ReadonlySet<string> = new Set(NotificationKinds)


/** The payment methods a charge is made by: a Pix Automático enrollment's charge is a Pix. */
export type CheckoutMethod = Exclude<PaymentMethodInput, "pix_automatico">

/** How a charge of `method` is made. */
export const chargeMethodOf = (method: PaymentMethodInput): CheckoutMethod => (method === "pix_automatico" ? "pix" : method)

/** The buyer as the charge records it and the customer is matched: by document. */
export interface CheckoutBuyer {
  readonly name: string
  /** CPF or CNPJ, digits only. */
  readonly document: string
  readonly email: string
  /** E.164, or null when not sent. */
  readonly phone: string | null
}

/** A checkout request whose method-independent rules hold, normalized. */
export interface CheckoutOrder {
  readonly request: CheckoutRequest
  /** How the charge is made; a Pix Automático enrollment's first charge is a Pix. */
  readonly paymentMethod: CheckoutMethod
  /** `pix_automatico`: a subscription whose later cycles the payer's bank pays by itself once it authorizes the recurrence. */
  readonly pixAutomatico: boolean
  /** E-mails the charge asked for; null sends none. */
  readonly notifications: ReadonlyArray<NotificationKind> | null
  readonly buyer: CheckoutBuyer
  /** The card `paymentMethodId` names, when the caller read it already (a billing run reads its batch's at once). */
  readonly savedCard?: Option.Option<PaymentMethod>
  /** What the split does with a net it does not fit: a client's request is refused (the default), a subscription's own charge is fitted. */
  readonly splitMode?: SplitMode
}

/**
 * Checks the request for `owner`, reporting the first failing field in this
 * order: method (Pix Automático on PF or with an `amount`, split on card, card fields on another
 * method), `externalId` and `externalTxid` lengths, `notifications`, then the
 * buyer (document, name, e-mail, phone, address with `nfConfigId`).
 */
export const parseCheckout = Effect.fn("Checkout.parse")(function*(request: CheckoutRequest, owner: Account) {
  const pixAutomatico = request.paymentMethod === "pix_automatico"
  if (pixAutomatico) {
    if (!mayUsePixAutomatico(owner)) return yield* new PixAutomaticoPjOnly({ message: "Pix Automático é exclusivo para contas PJ", details: null })
    if (request.amount !== undefined) return yield* invalid("amount", "pix_automatico takes recurring items, not an amount")
  }
  const isCard = request.paymentMethod === "creditcard"
  if (isCard && request.split !== undefined && request.split.length > 0) return yield* invalid("split", "split is supported only for pix and boleto")
  // `installments: 1` is what a Pix or boleto is anyway: the provider's clients send it, and it is ignored.
  const installments = request.installments === 1 ? undefined : request.installments
  if (!isCard && (installments !== undefined || request.card !== undefined)) {
    return yield* invalid(installments !== undefined ? "installments" : "card", "installments and card are for creditcard only")
  }
  const unknown = (request.notifications ?? []).filter((n) => !KNOWN_NOTIFICATIONS.has(n))
  if (unknown.length > 0) return yield* invalid("notifications", `unknown notifications: ${unknown.join(", ")}`)
  // Lengths, the document, e-mail and phone were checked by decoding.
  if (request.customer.name.trim().length === 0) return yield* invalid("customer.name", "customer.name is required")
  if (request.nfConfigId !== undefined) {
    // The fiscal note prints the taker's address: it must be complete (spec: `nfConfigId` requires `customer.address`).
    if (request.customer.address === undefined) return yield* invalid("customer.address", "customer.address is required with nfConfigId")
    const recorded = chargeAddressOf(request.customer.address)
    if ("missing" in recorded) {
      return yield* invalid(`customer.address.${recorded.missing}`, `customer.address.${recorded.missing} is required with nfConfigId`)
    }
  }
  const order: CheckoutOrder = {
    request,
    paymentMethod: chargeMethodOf(request.paymentMethod),
    pixAutomatico,
    // Without the field no e-mail is sent (an avulsa charge's default; products carry no notification setting yet).
    notifications: request.notifications === undefined ? null : (request.notifications as ReadonlyArray<NotificationKind>),
    buyer: {
      name: request.customer.name.trim(),
      document: request.customer.documentNumber,
      email: request.customer.email,
      phone: request.customer.phone ?? null
    }
  }
  return order
})

/**
 * `POST /v1/checkouts/pay` (the provider's route; public, as the hosted page
 * that calls it is): pays a checkout link (`checkoutId`, reusable) or a
 * checkout session (`sessionId`, single-use, with its pre-filled buyer) by
 * the transparent checkout, as the link's account. What the link sells
 * decides what is bought; a recurring price starts a subscription whose
 * `checkoutId` is the link or session. The link or session id is the
 * credential: it is unguessable and names its merchant.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { asAccount } from "../auth/AsAccount.ts"
import { ChargeNotPayable } from "../domain/Charge.ts"
import { type CheckoutLink, CheckoutNotFound, linkSettingsOf, maxInstallmentsOf, SessionNotFound } from "../domain/CheckoutLink.ts"
import { InvalidData, invalidData as invalid } from "../domain/Errors.ts"
import { idInput, optional } from "../domain/Values.ts"
import { CheckoutLinks } from "../ports/CheckoutLinks.ts"
import { Transactor } from "../ports/Transactor.ts"
import { CheckoutRequest } from "./CheckoutRequest.ts"
import { createCheckoutCharge } from "./CreateCheckoutCharge.ts"
import { CheckoutLinkId, CheckoutSessionId } from "../domain/Ids.ts"

const f = CheckoutRequest.fields

/**
 * Body of `POST /v1/checkouts/pay`: the link or session, and what the buyer
 * decides on the hosted page (who pays, how, a coupon). Nothing that prices
 * the purchase or routes its money: a public route must not let a buyer
 * send discounts, split or a card on file of the merchant.
 */
export const PayCheckoutRequest = Schema.Struct({
  sessionId: optional(idInput(CheckoutSessionId)),
  checkoutId: optional(idInput(CheckoutLinkId)),
  paymentMethod: f.paymentMethod,
  customer: optional(f.customer),
  card: f.card,
  tokenId: f.tokenId,
  installments: f.installments,
  couponCode: f.couponCode
}).annotate({ identifier: "PayCheckoutRequest" })

/**
 * What the merchant set on the link or session that the checkout takes:
 * its terms, kept under `settings` when the link was created.
 */
export const MERCHANT_TERMS = [
  "discounts", "billingDay", "recurrencyStartDate", "prorataStartDate", "prorataDueDate", "mergeWithNextCycle", "issueDaysBeforeDue",
  "dueDate", "boletoDueDays", "expirationAfterDueDate", "boletoInstructions", "pixInstructions", "expiration", "freeInstallments",
  "passFeesToCustomer", "split", "nfConfigId", "notifications", "description", "additionalEmails"
] as const
export type PayCheckoutRequest = typeof PayCheckoutRequest.Type

const decodeRequest = Schema.decodeUnknownEffect(CheckoutRequest)

/** The link or session the body names, payable. */
export const payableCheckout = Effect.fnUntraced(function*(body: Pick<PayCheckoutRequest, "sessionId" | "checkoutId">) {
  const links = yield* CheckoutLinks
  if (body.sessionId !== undefined) {
    const session = yield* links.findForPayment("session", body.sessionId)
    if (Option.isNone(session)) return yield* new SessionNotFound({ message: `Sessão ${body.sessionId} não encontrada`, details: null })
    if (session.value.status !== "PENDING") return yield* new ChargeNotPayable({ message: "Esta sessão de checkout já foi paga", details: { status: session.value.status } })
    return session.value
  }
  if (body.checkoutId === undefined) return yield* invalid("checkoutId", "send checkoutId or sessionId")
  const link = yield* links.findForPayment("link", body.checkoutId)
  if (Option.isNone(link)) return yield* new CheckoutNotFound({ message: `Checkout ${body.checkoutId} não encontrado`, details: null })
  if (link.value.status !== "ACTIVE") return yield* new ChargeNotPayable({ message: "Este link de pagamento está inativo", details: { status: link.value.status } })
  return link.value
})

/**
 * The transparent checkout request the payment makes: what the link sells
 * on the merchant's terms, bought by the body's buyer (a session's
 * pre-filled one underneath) the way the body chose.
 */
const checkoutRequestOf = (link: CheckoutLink, body: PayCheckoutRequest & HostedCard, orderBumps: ReadonlyArray<string>) => {
  const { sessionId: _, checkoutId: __, customer, ...choices } = body
  const terms = Object.fromEntries(MERCHANT_TERMS.filter((key) => key in link.settings).map((key) => [key, link.settings[key]]))
  const bumps = orderBumps.map((priceId) => ({ priceId, quantity: 1, isOrderBump: true }))
  const sells = link.items !== null
    ? { items: [...link.items, ...bumps] }
    : link.priceId !== null
    ? { items: [{ priceId: link.priceId, quantity: 1 }, ...bumps] }
    : { productId: link.productId }
  return decodeRequest({ ...terms, ...choices, ...sells, customer: { ...link.customer, ...customer } }).pipe(
    Effect.mapError((e) => new InvalidData({ message: `Dados inválidos: ${e.message}`, details: null }))
  )
}

/** The order bumps the buyer ticked, each one the link offers; and installments within the link's maximum. */
const checkLinkChoices = (link: CheckoutLink, body: PayCheckoutRequest, orderBumps: ReadonlyArray<string>) => {
  const settings = linkSettingsOf(link.settings)
  const offered: ReadonlyArray<string> = (settings.orderBumps ?? []).map((bump) => bump.priceId)
  const unknown = orderBumps.findIndex((priceId, i) => !offered.includes(priceId) || orderBumps.indexOf(priceId) !== i)
  if (unknown >= 0) return Effect.fail(invalid(`orderBumps[${unknown}]`, "this checkout does not offer this order bump"))
  const max = maxInstallmentsOf(settings)
  if ((body.installments ?? 1) > max) return Effect.fail(invalid("installments", `this checkout takes at most ${max} installments`))
  return Effect.void
}

/**
 * A session is single-use: it is claimed (`completed`) before its purchase,
 * so two payments at once cannot both go through, and given back when the
 * purchase fails (a refused card), so the buyer can try again.
 */
const claimSession = Effect.fnUntraced(function*(link: CheckoutLink) {
  if (link.kind !== "session") return
  const at = new Date(yield* Clock.currentTimeMillis)
  const claimed = yield* (yield* Transactor).withTransaction(Effect.flatMap(CheckoutLinks, (links) => links.setSessionStatus(link.id, "PENDING", "completed", at)))
  if (!claimed) return yield* new ChargeNotPayable({ message: "Esta sessão de checkout já foi paga", details: { status: "completed" } })
})

const releaseSession = (link: CheckoutLink) =>
  link.kind !== "session" ? Effect.void : Effect.gen(function*() {
    const at = new Date(yield* Clock.currentTimeMillis)
    yield* (yield* Transactor).withTransaction(Effect.flatMap(CheckoutLinks, (links) => links.setSessionStatus(link.id, "completed", "PENDING", at)))
  })

/**
 * A card the hosted page tokenized for this very link or session
 * (`HostedPayment.ts` checks that binding); never taken from a request body,
 * since a buyer must not charge a card on file of the merchant.
 */
interface HostedCard {
  readonly paymentMethodId?: string | undefined
}

/** What the hosted page adds to a payment: its card, and the order bumps the buyer ticked (price ids the link offers). */
export interface HostedExtras extends HostedCard {
  readonly orderBumps?: ReadonlyArray<string> | undefined
}

export const payCheckout = Effect.fn("Checkout.pay")(function*(body: PayCheckoutRequest, extras: HostedExtras = {}) {
  const link = yield* payableCheckout(body)
  if (!link.allowedPaymentMethods.includes(body.paymentMethod)) {
    return yield* invalid("paymentMethod", `this checkout accepts ${link.allowedPaymentMethods.join(", ")}`)
  }
  const { orderBumps = [], ...card } = extras
  yield* checkLinkChoices(link, body, orderBumps)
  const request = yield* checkoutRequestOf(link, { ...body, ...card }, orderBumps)
  yield* claimSession(link)
  return yield* createCheckoutCharge(request, { checkoutId: link.id }).pipe(
    asAccount(link.accountId),
    Effect.onError(() => releaseSession(link))
  )
})

/**
 * What the hosted checkout page shows at `/pay/{id}`, read without a token:
 * a link (`pl_`) or session (`cs_`) with what it sells, or a charge (`cha_`,
 * a subscription's `checkoutUrl`) with how to pay it. The id is the
 * credential, as for `POST /v1/checkouts/pay`; so the view carries only what
 * the buyer holding it needs (the merchant's name, the lines, the total, the
 * means of payment) and nothing of any other buyer: not a link's past
 * payments, not a charge's payer. A link's page settings (its name, colors,
 * order bumps, installments, messages and URLs) come along as they were
 * checked when the link was saved.
 */
import { Effect, Option, Result } from "effect"
import { parseBrCode } from "../brazil/PixBrCode.ts"
import { qrPngDataUrl } from "../brazil/QrPng.ts"
import { type Charge, ChargeNotFound, OPEN_STATUSES, type PaymentMethodInput, type PaymentType } from "../domain/Charge.ts"
import {
  type CheckoutLink,
  type CheckoutLinkSettings,
  CheckoutNotFound,
  type HostedCheckoutId,
  linkSettingsOf,
  maxInstallmentsOf,
  SessionNotFound
} from "../domain/CheckoutLink.ts"
import type { PriceRecurrence } from "../domain/Product.ts"
import type { Subscription, SubscriptionAggregate, SubscriptionItem } from "../domain/Subscription.ts"
import type { Cents } from "../money/Money.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Charges } from "../ports/Charges.ts"
import { CheckoutLinks } from "../ports/CheckoutLinks.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { planInstallments } from "../rules/Installments.ts"
import { lineTotal } from "../rules/Items.ts"
import { linesTotal, type PurchaseLine, resolvePurchase } from "./PriceCheckout.ts"
import { type AccountId, ChargeId, CheckoutLinkId, CheckoutSessionId } from "../domain/Ids.ts"

/** How often a recurring line bills, and its free days before the first charge. */
export interface HostedRecurrence {
  readonly type: Exclude<typeof PriceRecurrence.Type, "ONE_TIME">
  readonly interval: number
  readonly trialDays: number
}

/** One line of what is bought. */
export interface HostedLine {
  /** `null` for a charge of its own (no subscription), when it has no description: the page names it. */
  readonly product: string | null
  /** The price's title, when it says more than the product's name. */
  readonly price: string | null
  readonly quantity: number
  readonly amount: Cents
  readonly recurrence: HostedRecurrence | null
}

/** The buyer a session is pre-filled with, as far as it says. */
export interface PrefilledBuyer {
  readonly name?: string
  readonly email?: string
  readonly documentNumber?: string
  readonly phone?: string
}

/** The merchant's colors for the page, as set on the link (`#RRGGBB`); the page keeps them readable. */
export interface HostedColors {
  readonly primary: string | null
  readonly secondary: string | null
  readonly font: string | null
}

/** An order bump offered on the page: a box that adds `amount` to the purchase. */
export interface HostedOrderBump {
  readonly priceId: string
  readonly label: string
  readonly amount: Cents
}

/** How a card may be paid in installments on this link. */
export interface HostedInstallmentTerms {
  readonly max: number
  readonly free: number
  readonly passFeesToCustomer: boolean
}

/** A link or session that can be paid. */
export interface HostedCheckout {
  readonly _tag: "Checkout"
  readonly id: string
  readonly kind: CheckoutLink["kind"]
  readonly merchantName: string
  /** The link's `checkoutName`. */
  readonly title: string | null
  readonly lines: ReadonlyArray<HostedLine>
  /** The price ids bought (without bumps), for the coupon's validation. */
  readonly priceIds: ReadonlyArray<string>
  readonly total: Cents
  readonly methods: ReadonlyArray<PaymentMethodInput>
  readonly buyer: PrefilledBuyer | null
  readonly installments: HostedInstallmentTerms
  readonly orderBumps: ReadonlyArray<HostedOrderBump>
  readonly colors: HostedColors
  readonly cancelUrl: string | null
}

/** What the link says to a buyer who has paid, shown on the charge's page. */
export interface HostedConfirmation {
  readonly title: string | null
  readonly colors: HostedColors
  readonly successMessage: string | null
  /** Where the page sends the buyer by itself after the payment. */
  readonly redirectUrl: string | null
  /** Where a "back to the shop" link goes. */
  readonly returnUrl: string | null
}

/**
 * Where the payer's bank stands on the Pix Automático recurrence a charge's
 * composite code asks for: `PENDING` until it answers.
 */
export type HostedRecurrenceAuthorization = NonNullable<Subscription["pixRecurrenceStatus"]>

/** A charge to pay, or paid: what the buyer needs to pay it where they are. */
export interface HostedCharge {
  readonly _tag: "Charge"
  readonly id: string
  readonly merchantName: string
  readonly lines: ReadonlyArray<HostedLine>
  readonly total: Cents
  readonly paymentType: PaymentType
  /** The card's installments. */
  readonly installments: number | null
  readonly paid: boolean
  readonly paidAt: Date | null
  /** The link the charge was paid through, when the page came from it. */
  readonly confirmation: HostedConfirmation | null
  readonly pix: { readonly emv: string; readonly qrCode: string; readonly expiresAt: Date } | null
  /** A Pix Automático enrollment: its code is composite (the charge and the recurrence), and the bank's answer is awaited or known. */
  readonly pixAutomatico: { readonly authorization: HostedRecurrenceAuthorization } | null
  readonly boleto: { readonly digitableLine: string; readonly dueDate: string } | null
}

/** Why a page can no longer be paid: a session or charge paid, a link turned off, a charge expired or canceled. */
export interface HostedGone {
  readonly _tag: "Gone"
  readonly reason: "paid" | "inactive" | "expired"
}

export type HostedPage = HostedCheckout | HostedCharge | HostedGone

/** What an id of the page names, by the prefix the engine gave it (`SANDBOX_` in front in sandbox). */
export const hostedKindOf = (id: string): "link" | "session" | "charge" | undefined => {
  const prefix = /^(?:SANDBOX_)?(pl|cs|cha)_/.exec(id)?.[1]
  return prefix === "pl" ? "link" : prefix === "cs" ? "session" : prefix === "cha" ? "charge" : undefined
}

const PAID_STATUSES: ReadonlyArray<Charge["status"]> = ["PAID", "REFUNDED", "PARTIALLY_REFUNDED", "DISPUTE", "CHARGED_BACK"]

const merchantName = (accountId: AccountId) =>
  Effect.map(Effect.flatMap(Accounts, (accounts) => accounts.findById(accountId)), Option.match({ onNone: () => "", onSome: (a) => a.name }))

const recurrenceOf = (r: { recurrenceType: typeof PriceRecurrence.Type; recurrenceInterval: number; trialDays: number }) =>
  r.recurrenceType === "ONE_TIME" ? null : { type: r.recurrenceType, interval: r.recurrenceInterval, trialDays: r.trialDays }

const purchaseLine = (line: PurchaseLine): HostedLine => ({
  product: line.product.name,
  price: line.price.title === "" || line.price.title === line.product.name ? null : line.price.title,
  quantity: line.quantity,
  amount: lineTotal({ unitAmount: line.price.amount, quantity: line.quantity }),
  recurrence: recurrenceOf(line.price)
})

const itemLine = (item: SubscriptionItem): HostedLine => ({
  product: item.productName,
  price: item.name === "" || item.name === item.productName ? null : item.name,
  quantity: item.quantity,
  amount: lineTotal(item),
  recurrence: recurrenceOf(item)
})

const colorsOf = (settings: CheckoutLinkSettings): HostedColors => ({
  primary: settings.primaryColor ?? null,
  secondary: settings.secondaryColor ?? null,
  font: settings.fontColor ?? null
})

const installmentTermsOf = (settings: CheckoutLinkSettings): HostedInstallmentTerms => ({
  max: maxInstallmentsOf(settings),
  free: settings.freeInstallments ?? 0,
  passFeesToCustomer: settings.passFeesToCustomer ?? false
})

/** The link's order bumps that can still be bought; one archived since is left out rather than failing the page. */
const orderBumpsOf = Effect.fnUntraced(function*(settings: CheckoutLinkSettings, accountId: AccountId) {
  const offered: Array<HostedOrderBump> = []
  for (const bump of settings.orderBumps ?? []) {
    const purchase = yield* resolvePurchase({ items: [{ priceId: bump.priceId }] }, accountId).pipe(Effect.option)
    if (Option.isNone(purchase) || purchase.value._tag !== "Lines") continue
    const [line] = purchase.value.lines
    offered.push({ priceId: bump.priceId, label: bump.label ?? line!.product.name, amount: line!.price.amount })
  }
  return offered
})

/**
 * Each way to pay `amount` by card on a link: 1 to its maximum installments,
 * with what the buyer pays in all under the engine's installment rules
 * (`planInstallments`, the same the card payment uses); a count the amount
 * cannot be split into (under R$ 0,01 each) is left out.
 */
export const hostedInstallments = (terms: HostedInstallmentTerms, amount: Cents) =>
  Array.from({ length: terms.max }, (_, i) =>
    planInstallments({ amount, installments: i + 1, freeInstallments: terms.free, passFeesToCustomer: terms.passFeesToCustomer })
  ).flatMap((plan) => (Result.isSuccess(plan) ? [plan.success] : []))

const buyerOf = (customer: CheckoutLink["customer"]): PrefilledBuyer | null => {
  if (customer === null) return null
  const text = (key: string) => (typeof customer[key] === "string" ? { [key]: customer[key] as string } : {})
  return { ...text("name"), ...text("email"), ...text("documentNumber"), ...text("phone") }
}

/** The id of a page whose prefix named a link or a session, decoded as that kind's. */
const hostedIdOf = (kind: CheckoutLink["kind"], id: string): HostedCheckoutId =>
  kind === "link" ? CheckoutLinkId.make(id) : CheckoutSessionId.make(id)

const checkoutPage = Effect.fnUntraced(function*(kind: CheckoutLink["kind"], id: string) {
  const found = yield* (yield* CheckoutLinks).findForPayment(kind, hostedIdOf(kind, id))
  if (Option.isNone(found)) {
    return yield* kind === "session"
      ? new SessionNotFound({ message: `Sessão ${id} não encontrada`, details: null })
      : new CheckoutNotFound({ message: `Checkout ${id} não encontrado`, details: null })
  }
  const link = found.value
  if (link.status === "completed") return { _tag: "Gone", reason: "paid" } satisfies HostedGone
  if (link.status === "INACTIVE") return { _tag: "Gone", reason: "inactive" } satisfies HostedGone
  const sells = link.items !== null ? { items: link.items } : link.priceId !== null ? { items: [{ priceId: link.priceId }] } : link.productId !== null ? { productId: link.productId } : undefined
  // A price or product archived since the link was made (or a link naming none): the link sells nothing any more.
  const purchase = sells === undefined ? Option.none() : yield* resolvePurchase(sells, link.accountId).pipe(Effect.option)
  if (Option.isNone(purchase) || purchase.value._tag !== "Lines") return { _tag: "Gone", reason: "inactive" } satisfies HostedGone
  const settings = linkSettingsOf(link.settings)
  return {
    _tag: "Checkout",
    id: link.id,
    kind: link.kind,
    merchantName: yield* merchantName(link.accountId),
    title: settings.checkoutName ?? null,
    lines: purchase.value.lines.map(purchaseLine),
    priceIds: purchase.value.lines.map((line) => line.price.id),
    total: yield* linesTotal(purchase.value.lines),
    methods: link.allowedPaymentMethods,
    buyer: link.kind === "session" ? buyerOf(link.customer) : null,
    installments: installmentTermsOf(settings),
    orderBumps: yield* orderBumpsOf(settings, link.accountId),
    colors: colorsOf(settings),
    cancelUrl: settings.cancelUrl ?? null
  } satisfies HostedCheckout
})

/** The subscription a charge bills, if any. */
const subscriptionOf = (charge: Charge) => {
  const { accountId, subscriptionId } = charge
  return subscriptionId === null
    ? Effect.succeed(Option.none<SubscriptionAggregate>())
    : Effect.flatMap(Subscriptions, (subscriptions) => subscriptions.find(accountId, subscriptionId))
}

/** The lines a charge pays: its subscription's items, or the charge itself. */
const chargeLines = (charge: Charge, subscription: Option.Option<SubscriptionAggregate>): ReadonlyArray<HostedLine> => {
  const items = Option.isSome(subscription) ? subscription.value.items.filter((i) => i.status !== "CANCELED") : []
  if (items.length > 0) return items.map(itemLine)
  return [{ product: charge.description, price: null, quantity: 1, amount: charge.amount, recurrence: null }]
}

/**
 * The bank's answer on the recurrence the charge's code asks for, when the
 * code is composite (it carries a recurrence's location) and the
 * subscription awaits or has that answer; `null` for any other charge,
 * such as a later cycle the bank pays by itself.
 */
const recurrenceAuthorizationOf = (charge: Charge, subscription: Option.Option<SubscriptionAggregate>): HostedRecurrenceAuthorization | null => {
  if (charge.emv === null || Option.isNone(subscription)) return null
  const status = subscription.value.subscription.pixRecurrenceStatus
  const code = parseBrCode(charge.emv)
  return status !== null && Result.isSuccess(code) && code.success.recurrenceLocation !== undefined ? status : null
}

/**
 * What the link or session `from` says after a payment, when it is the
 * charge's merchant's: the page of a charge names the link it was paid
 * through in its address, and no merchant's messages or redirect may be
 * shown on another's charge.
 */
const confirmationOf = Effect.fnUntraced(function*(charge: Charge, from: string | undefined) {
  const kind = from === undefined ? undefined : hostedKindOf(from)
  if (from === undefined || (kind !== "link" && kind !== "session")) return null
  const found = yield* (yield* CheckoutLinks).findForPayment(kind, hostedIdOf(kind, from))
  if (Option.isNone(found) || found.value.accountId !== charge.accountId) return null
  const settings = linkSettingsOf(found.value.settings)
  return {
    title: settings.checkoutName ?? null,
    colors: colorsOf(settings),
    successMessage: settings.successMessage ?? null,
    redirectUrl: settings.redirectAfterPaymentUrl ?? null,
    returnUrl: settings.successUrl ?? null
  } satisfies HostedConfirmation
})

const chargePage = Effect.fnUntraced(function*(id: ChargeId, from: string | undefined) {
  const found = yield* (yield* Charges).findForDocument(id)
  if (Option.isNone(found)) return yield* new ChargeNotFound({ message: `Cobrança ${id} não encontrada`, details: null })
  const charge = found.value
  const paid = PAID_STATUSES.includes(charge.status)
  if (!paid && !OPEN_STATUSES.includes(charge.status)) return { _tag: "Gone", reason: "expired" } satisfies HostedGone
  const subscription = yield* subscriptionOf(charge)
  const authorization = recurrenceAuthorizationOf(charge, subscription)
  return {
    _tag: "Charge",
    id: charge.id,
    merchantName: yield* merchantName(charge.accountId),
    lines: chargeLines(charge, subscription),
    total: charge.amount,
    paymentType: charge.paymentType,
    installments: charge.card?.installments ?? null,
    paid,
    paidAt: charge.paidAt,
    confirmation: yield* confirmationOf(charge, from),
    pix: charge.paymentType === "PIX" && charge.emv !== null ? { emv: charge.emv, qrCode: qrPngDataUrl(charge.emv), expiresAt: charge.expiresAt } : null,
    pixAutomatico: authorization === null ? null : { authorization },
    boleto: charge.boleto === null ? null : { digitableLine: charge.boleto.digitableLine, dueDate: charge.boleto.dueDate }
  } satisfies HostedCharge
})

/**
 * The page of `id`; `CHECKOUT_NOT_FOUND`, `SESSION_NOT_FOUND` or
 * `CHARGE_NOT_FOUND` when there is none. A charge's page opened `from` the
 * link or session it was paid through carries that link's confirmation.
 */
export const hostedPage = Effect.fn("HostedCheckout.page")(function*(id: string, from?: string) {
  const kind = hostedKindOf(id)
  // The prefix named a charge: the id is decoded as one (an unknown one still answers CHARGE_NOT_FOUND).
  if (kind === "charge") return yield* chargePage(ChargeId.make(id), from)
  if (kind === undefined) return yield* new CheckoutNotFound({ message: `Checkout ${id} não encontrado`, details: null })
  return yield* checkoutPage(kind, id)
})

/**
 * `GET /pay/{chargeId}/status`: the status of one charge and nothing else,
 * which the page polls to turn to "paid" by itself; for a Pix Automático
 * enrollment, also the bank's answer on the recurrence that charge's code
 * asks for (`null` otherwise), which the page follows the same way.
 */
export const hostedChargeStatus = Effect.fn("HostedCheckout.status")(function*(chargeId: string) {
  if (hostedKindOf(chargeId) !== "charge") return yield* new ChargeNotFound({ message: `Cobrança ${chargeId} não encontrada`, details: null })
  const found = yield* (yield* Charges).findForDocument(ChargeId.make(chargeId))
  if (Option.isNone(found)) return yield* new ChargeNotFound({ message: `Cobrança ${chargeId} não encontrada`, details: null })
  const charge = found.value
  return { status: charge.status, paidAt: charge.paidAt, recurrenceAuthorization: recurrenceAuthorizationOf(charge, yield* subscriptionOf(charge)) }
})

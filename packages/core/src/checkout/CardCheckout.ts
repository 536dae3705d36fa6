/**
 * The card strategy of `POST /v1/charges`: typed card, `paymentMethodId`
 * (`pm_`) or acquirer `tokenId`, in 1 to 12 installments. Unlike Pix and
 * boleto, the provider is called after the reserve: the charge is recorded
 * `PROCESSING` first, so a repeated `externalId` never reaches the acquirer
 * twice, and then moved to `PAID` or `FAILED` by the acquirer's answer.
 */
import { Clock, Effect, Option, Result } from "effect"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import { cardBrand, parseCardExpiration } from "../brazil/Cards.ts"
import { ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { CardRefused, type Charge, type ChargeCard, MissingCardData, paymentTypeOf } from "../domain/Charge.ts"
import { invalidData as invalid, type InvalidData } from "../domain/Errors.ts"
import type { Account } from "../domain/Account.ts"
import type { PaymentMethod } from "../domain/PaymentMethod.ts"
import { Acquirer, type AcquirerUnavailable, type Authorization, type CardData, type Payer } from "../ports/Acquirer.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Charges } from "../ports/Charges.ts"
import { Coupons } from "../ports/Coupons.ts"
import { PaymentMethods } from "../ports/PaymentMethods.ts"
import { Subscriptions } from "../ports/Subscriptions.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ChargeTransitions } from "../rules/ChargeTransitions.ts"
import { type InstallmentPlan, planInstallments } from "../rules/Installments.ts"
import { recordChargePaid, recordChargeRefused } from "../subscriptions/SubscriptionPayments.ts"
import { enqueueChargeNotifications } from "./ChargeNotifications.ts"
import type { CheckoutOrder } from "./ParseCheckout.ts"
import { feesAndSplit } from "./PriceCheckout.ts"
import { notasOwedOnPayment } from "../nfse/NotaTiming.ts"
import type { CheckoutDraft, CheckoutResult, PendingCharge, PreparedCharge } from "./ReserveCheckout.ts"
import type { AccountId, ChargeId, CustomerId, PaymentMethodId } from "../domain/Ids.ts"

/**
 * A typed card checked field by field, the first failing one reported:
 * number (13 to 19 digits once spaces and dashes are removed), CVV, holder's
 * name, then expiration (`MM/YYYY`, not before the month of `today`). Gives
 * the card with its bare number, and the expiry. Used by the checkout and by
 * tokenization alike, so a card one accepts the other accepts.
 */
export const checkCard = (card: CardData, today: string): Result.Result<{
  readonly card: CardData
  readonly expiry: { readonly month: number; readonly year: number }
}, InvalidData> => {
  const number = card.number.replace(/[\s-]/g, "")
  if (!/^\d{13,19}$/.test(number)) return Result.fail(invalid("card.number", "card.number must have 13 to 19 digits"))
  if (!/^\d{3,4}$/.test(card.cvv)) return Result.fail(invalid("card.cvv", "card.cvv must have 3 or 4 digits"))
  if (card.name.trim().length === 0) return Result.fail(invalid("card.name", "card.name is required"))
  const expiry = parseCardExpiration(card.expiration, today)
  if (expiry === undefined) return Result.fail(invalid("card.expiration", "card.expiration must be MM/YYYY, not in the past"))
  return Result.succeed({ card: { ...card, number }, expiry })
}

/** The card to charge: typed, tokenized (`pm_`) or an acquirer token; `MISSING_CARD_DATA` when none. */
const cardSource = Effect.fnUntraced(function*(order: CheckoutOrder, accountId: AccountId, today: string) {
  const { request } = order
  if (request.card !== undefined) {
    const { card } = yield* Effect.fromResult(checkCard(request.card, today))
    return {
      payment: { _tag: "Card" as const, card },
      brand: cardBrand(card.number),
      firstSix: card.number.slice(0, 6),
      lastFour: card.number.slice(-4),
      saved: undefined
    }
  }
  if (request.paymentMethodId !== undefined) {
    const method = order.savedCard?.pipe(Option.filter((m) => m.id === request.paymentMethodId && m.accountId === accountId))
      ?? (yield* (yield* PaymentMethods).find(accountId, request.paymentMethodId))
    if (Option.isNone(method)) return yield* invalid("paymentMethodId", `paymentMethodId ${request.paymentMethodId} is not a card of this account`)
    const { acquirerToken, brand, firstSix, lastFour } = method.value
    return { payment: { _tag: "Token" as const, token: acquirerToken }, brand, firstSix, lastFour, saved: method.value }
  }
  if (request.tokenId !== undefined) {
    // A client's token is the acquirer's own (its JS SDK's); `mp:` names the engine's stored references (a card kept on
    // file among them), which only a `pm_` of the account may reach.
    if (request.tokenId.startsWith(STORED_REFERENCE_PREFIX)) return yield* invalid("tokenId", "tokenId is not a card token of the acquirer")
    return { payment: { _tag: "Token" as const, token: request.tokenId }, brand: "unknown", firstSix: "", lastFour: "", saved: undefined }
  }
  return yield* new MissingCardData({ message: "Envie card, tokenId ou paymentMethodId", details: null })
})

/** How the engine's stored card references begin (`mp:<method>:<token>`, `mp:cof:<customer>:<card>:<method>`). */
const STORED_REFERENCE_PREFIX = "mp:"

type CardPayment = Effect.Success<ReturnType<typeof cardSource>>["payment"]

/**
 * The payer an acquirer is told of. A production acquirer requires the
 * payer's e-mail (Mercado Pago's `payer.email`), so a production account's
 * card charge without one is refused before any card is sent; the sandbox
 * decides by the card alone.
 */
const payerOf = (owner: Account, customer: { readonly name: string; readonly email: string | null; readonly document: string }) =>
  !owner.sandbox && customer.email === null
    ? Effect.fail(invalid("customer.email", "customer.email is required to pay by card in production (the acquirer requires the payer's e-mail)"))
    : Effect.succeed<Payer>({ name: customer.name, email: customer.email, document: customer.document })

/**
 * How long a card charge waits `PROCESSING` for its recorded answer before
 * the expiry job gives up on it. Before, a card charge expired at its own
 * creation, so the expiry job could expire it between its record and its
 * answer: a charge captured by the acquirer ended `EXPIRED`.
 */
export const CARD_ANSWER_WINDOW_MILLIS = 15 * 60_000

/**
 * Checks the card, plans the installments (the buyer's surcharge beyond the
 * free ones, when passed on) and prices the total; the charge is recorded
 * `PROCESSING` and the acquirer called by `settle`.
 */
export const prepareCard = Effect.fn("Checkout.card")(function*(order: CheckoutOrder, draft: CheckoutDraft) {
  const { request } = order
  yield* requireProvider(draft.owner, "card")
  const source = yield* cardSource(order, draft.owner.id, saoPauloDate(draft.now))
  const payer = yield* payerOf(draft.owner, draft.customer)
  const plan = yield* Effect.fromResult(planInstallments({
    amount: draft.amount,
    installments: request.installments ?? 1,
    freeInstallments: request.freeInstallments,
    passFeesToCustomer: request.passFeesToCustomer
  }))
  // Split was refused for cards when the request was parsed.
  const money = yield* feesAndSplit("creditcard", plan.total, undefined, draft)
  const card: ChargeCard = { brand: source.brand, firstSix: source.firstSix, lastFour: source.lastFour, installments: plan.installments }
  const pending: PendingCharge = {
    ...draft.common,
    ...money,
    paymentType: paymentTypeOf.creditcard,
    status: "PROCESSING",
    txid: draft.common.id,
    emv: null,
    psp: null,
    dueDate: null,
    // Expired only if no answer was ever recorded: never while the acquirer is asked (once, or again after a stop).
    expiresAt: new Date(draft.now + CARD_ANSWER_WINDOW_MILLIS),
    card
  }
  const charged: CardAuthorization = { payment: source.payment, payer, saved: source.saved }
  // The billing run asks for many answers after its commit, with the acquirer alone at hand.
  const methods = yield* PaymentMethods
  return {
    pending,
    notify: [],
    settle: (customerId: CustomerId) => authorizeCard(draft, charged, plan, customerId),
    acquirerAnswer: askAcquirer(draft.owner, charged, plan, draft.common.id).pipe(Effect.provideService(PaymentMethods, methods))
  } satisfies PreparedCharge<Effect.Error<ReturnType<typeof authorizeCard>>, Effect.Services<ReturnType<typeof authorizeCard>>>
})

/**
 * The acquirer's answer to a recorded card charge: approved, declined (why),
 * unavailable (not reached: nothing was charged), or unknown (asked, no
 * outcome: the card may have been charged, so the charge stays `PROCESSING`
 * and is asked about again under the same reference).
 */
export type AcquirerAnswer =
  | { readonly _tag: "Approved" }
  | { readonly _tag: "Declined"; readonly code: string }
  | { readonly _tag: "Unavailable" }
  | { readonly _tag: "Unknown" }

/**
 * The refusal of a card whose issuer asked for 3-D Secure. The transparent
 * checkout answers `paid` or `failed` (spec) and has no buyer's browser to
 * show a challenge in, so the charge fails with this reason (402) and the
 * acquirer's payment, its challenge never passed, is never captured.
 */
export const AUTHENTICATION_REQUIRED = "authentication_required"

/** What the acquirer charges: the card (typed or tokenized), who pays, and the card on file (`pm_`) it came from, if any. */
interface CardAuthorization {
  readonly payment: CardPayment
  readonly payer: Payer
  readonly saved: PaymentMethod | undefined
}

/**
 * Keeps the card `method` on file at the acquirer once a payment by it was
 * approved (a subscription's first cycle, a `pm_`'s first charge), the
 * `pm_` then naming the kept card, which charges again without its CVV: an
 * acquirer's card tokens may be single-use (Mercado Pago's are), and a
 * renewal has no buyer to type the card again. A card on file already is
 * answered as it is, nothing written. A card not kept is logged and its
 * `pm_` left as it was: the payment stands either way.
 */
const keepCard = Effect.fnUntraced(function*(account: Account, method: PaymentMethod, payer: Payer) {
  const kept = yield* Effect.result((yield* Acquirer).saveCard({ account, token: method.acquirerToken, payer }))
  if (Result.isFailure(kept)) return yield* Effect.logWarning(`card ${method.id} not kept on file at the acquirer: ${kept.failure.message}`)
  if (kept.success.token !== method.acquirerToken) yield* (yield* PaymentMethods).updateToken(method.accountId, method.id, kept.success.token)
})

/** The port's answer (or its failure to answer) as the use cases act on it. */
export const answerOf = (result: Result.Result<Authorization, AcquirerUnavailable>): AcquirerAnswer => {
  if (Result.isFailure(result)) return { _tag: "Unavailable" }
  const answer = result.success
  switch (answer._tag) {
    case "Approved":
      return { _tag: "Approved" }
    case "Declined":
      return { _tag: "Declined", code: answer.code }
    case "ActionRequired":
      return { _tag: "Declined", code: AUTHENTICATION_REQUIRED }
    case "Unknown":
      return { _tag: "Unknown" }
  }
}

/**
 * Asks the acquirer to authorize and capture the charge `reference` for
 * `account`; never fails: no answer is an answer. The reference is the
 * acquirer's idempotency key (the port's contract), so asking again for one
 * charge never charges twice: it gets the first payment's outcome. An
 * approval by a card on file (`pm_`) keeps that card at the acquirer first
 * (`keepCard`), before the approval is recorded.
 */
const askAcquirer = (
  account: Account,
  card: CardAuthorization,
  plan: Pick<InstallmentPlan, "total" | "installments">,
  reference: string
): Effect.Effect<AcquirerAnswer, never, Acquirer | PaymentMethods> =>
  Effect.gen(function*() {
    const { payer, payment, saved } = card
    const result = yield* Effect.result((yield* Acquirer).authorize({ account, payment, payer, amount: plan.total, installments: plan.installments, reference }))
    const answer = answerOf(result)
    if (answer._tag === "Approved" && saved !== undefined) yield* keepCard(account, saved, payer)
    return answer
  })

/**
 * Asks the acquirer again for a card charge left `PROCESSING` (its worker
 * stopped between recording it and recording the answer), with the card on
 * file `paymentMethodId`; a card no longer on file is no answer.
 */
export const askAcquirerAgain = Effect.fn("Checkout.askAcquirerAgain")(function*(charge: Charge, paymentMethodId: PaymentMethodId | null) {
  const method = paymentMethodId === null ? Option.none() : yield* (yield* PaymentMethods).find(charge.accountId, paymentMethodId)
  const account = yield* (yield* Accounts).findById(charge.accountId)
  if (Option.isNone(method) || Option.isNone(account)) return { _tag: "Unavailable" } as AcquirerAnswer
  const plan = { total: charge.amount, installments: charge.card?.installments ?? 1 }
  const card = { payment: { _tag: "Token" as const, token: method.value.acquirerToken }, payer: payerOfCharge(charge), saved: method.value }
  return yield* askAcquirer(account.value, card, plan, charge.id)
})

/**
 * Keeps on file the card of the subscription `charge` bills, its approval
 * found by looking it up (`ResolveCardOutcomes`): the checkout that asked
 * never heard the answer, so never kept the card, and the renewals need it.
 * Nothing for a charge of no subscription, or one with no card on file.
 */
export const keepSubscriptionCard = Effect.fnUntraced(function*(account: Account, charge: Charge) {
  if (charge.subscriptionId === null) return
  const found = yield* (yield* Subscriptions).find(charge.accountId, charge.subscriptionId)
  const methodId = Option.isSome(found) ? found.value.subscription.paymentMethodId : null
  const method = methodId === null ? Option.none() : yield* (yield* PaymentMethods).find(charge.accountId, methodId)
  if (Option.isSome(method)) yield* keepCard(account, method.value, payerOfCharge(charge))
})

/** The charge's customer as it was charged the first time: an acquirer that answers by the reference ignores a change since. */
const payerOfCharge = (charge: Charge): Payer => {
  const customer = charge.customer
  return { name: customer?.name ?? "", email: customer?.email ?? null, document: customer?.documentNumber ?? "" }
}

/**
 * Records the acquirer's approval of the card charge `id` (call in a
 * transaction): `PAID` with its credit in the ledger, `payment.success`
 * (and, for a subscription's charge, what its payment means), the success
 * e-mails and the fiscal notes owed. Nothing when the charge is no longer
 * `PROCESSING` (answered meanwhile, or expired).
 */
export const recordCardApproval = Effect.fnUntraced(function*(id: ChargeId, at: Date) {
  const paid = yield* (yield* Charges).transition(id, ChargeTransitions.cardApproved, { paidAt: at }, at)
  if (Option.isNone(paid)) return paid
  yield* recordChargePaid(paid.value, at)
  yield* enqueueChargeNotifications(paid.value, ["oneoff.payment.success", "new.sale"])
  yield* notasOwedOnPayment([paid.value], at)
  return paid
})

/**
 * Records the acquirer's refusal of the card charge `id` (call in a
 * transaction): `FAILED` with `failureReason`, what the refusal means for a
 * subscription's charge, and the refusal e-mail. Nothing when the charge is
 * no longer `PROCESSING`.
 */
export const recordCardRefusal = Effect.fnUntraced(function*(id: ChargeId, failureReason: string, at: Date) {
  const failed = yield* (yield* Charges).transition(id, ChargeTransitions.cardFailed, { failureReason }, at)
  if (Option.isNone(failed)) return failed
  yield* recordChargeRefused(failed.value, at)
  yield* enqueueChargeNotifications(failed.value, ["oneoff.payment.failed"])
  return failed
})

/** Why a refused charge failed, as its `failureReason` and its 402 body say. */
export const failureReasonOf = (answer: Extract<AcquirerAnswer, { readonly _tag: "Declined" | "Unavailable" }>): string =>
  answer._tag === "Declined" ? answer.code : "acquirer_unavailable"

/**
 * Asks the acquirer for the recorded charge and records its answer in one
 * transaction: approved → `PAID`, `payment.success` (and, for a
 * subscription's cycle, what its payment means) and the success e-mails;
 * declined → `FAILED` with the reason, the refusal e-mail and the coupon use
 * released (402 body); not reached → `FAILED` (`acquirer_unavailable`) and
 * the coupon released, so the client may retry (502); an unknown outcome →
 * nothing recorded: the charge stays `PROCESSING` with its coupon use, since
 * the card may have been charged, and the 502 says so (`details.status`).
 */
const authorizeCard = Effect.fn("Checkout.authorizeCard")(function*(draft: CheckoutDraft, card: CardAuthorization, plan: InstallmentPlan, customerId: CustomerId) {
  const id = draft.common.id
  const answer = yield* askAcquirer(draft.owner, card, plan, id)
  if (answer._tag === "Unknown") {
    return yield* new ProviderUnavailable({
      message: "O adquirente não respondeu a tempo; a cobrança segue em processamento até a resposta dele",
      details: { chargeId: id, status: "PROCESSING" }
    })
  }
  const charges = yield* Charges
  const coupons = yield* Coupons
  const transactor = yield* Transactor
  const done = new Date(yield* Clock.currentTimeMillis)
  const couponId = draft.couponId
  if (answer._tag === "Unavailable") {
    // No answer from the acquirer: nothing was authorized; the attempt is kept as failed and the client may retry.
    yield* transactor.withTransaction(Effect.gen(function*() {
      const failed = yield* charges.transition(id, ChargeTransitions.cardFailed, { failureReason: failureReasonOf(answer) }, done)
      if (Option.isSome(failed)) yield* recordChargeRefused(failed.value, done)
      if (couponId !== undefined) yield* coupons.release(couponId, id)
    }))
    return yield* new ProviderUnavailable({ message: "Adquirente indisponível", details: { chargeId: id } })
  }
  if (answer._tag === "Approved") {
    yield* transactor.withTransaction(recordCardApproval(id, done))
    const paid: CheckoutResult = { success: true, customerId, chargeId: id, status: "paid" }
    return paid
  }
  yield* transactor.withTransaction(Effect.gen(function*() {
    yield* recordCardRefusal(id, failureReasonOf(answer), done)
    if (couponId !== undefined) yield* coupons.release(couponId, id)
  }))
  return yield* new CardRefused({ chargeId: id, error: answer.code })
})

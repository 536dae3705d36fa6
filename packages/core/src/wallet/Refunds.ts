/**
 * Refunds (spec: Wallet, Refund status, Refund payloads). A request, under
 * the charge's lock: what is left to refund is checked (the database checks
 * it too), each split receiver returns its part in proportion (a debt for
 * what its balance lacks), the owner pays the rest, and the money waits in
 * the house's payouts, `PROCESSING`, with `refund.requested`. Then the
 * provider answers: a card's acquirer at once, a Pix's bank through the
 * worker; `CONFIRMED` moves the charge to `PARTIALLY_REFUNDED` or
 * `REFUNDED` with `refund.confirmed`, `ERROR` gives every part back with
 * `refund.failed`.
 */
import { Clock, Effect, Option } from "effect"
import type { Account } from "../domain/Account.ts"
import { type Charge, ChargeNotFound, MissingChargeId } from "../domain/Charge.ts"
import { invalidData } from "../domain/Errors.ts"
import { ChargeNotRefundable, type ReceivableTaken, type Refund, RefundAmountExceeded, RefundNotFound, type SplitReversal } from "../domain/Refund.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { dateBound, keysetPagination, pageLimit } from "../domain/Pagination.ts"
import { type RefundQuery, type RefundRequest, toRefundView } from "../domain/WalletViews.ts"
import { InsufficientBalance } from "../domain/Withdrawal.ts"
import { refundConfirmedBody, refundFailedBody, refundRequestedBody } from "../events/RefundEvents.ts"
import { postEntries } from "../ledger/PostEntries.ts"
import { type Cents, cents, toDecimalString } from "../money/Money.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Acquirer } from "../ports/Acquirer.ts"
import { Charges } from "../ports/Charges.ts"
import { Ids } from "../ports/Ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { MedInfractions } from "../ports/MedInfractions.ts"
import { Outbox } from "../ports/Outbox.ts"
import { PixProvider } from "../ports/PixProvider.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { Refunds } from "../ports/Refunds.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ChargeTransitions, nextChargeStatus } from "../rules/ChargeTransitions.ts"
import { isPixReturnable, pixReturnableUntil } from "../rules/PixReturnWindow.ts"
import { RefundTransitions } from "../rules/RefundTransitions.ts"
import { byHolder, leftToRefund, ownerRefundPart, paidAtOnce, refundMovement, refundPosting, refundReturnedPosting, refundSettledPosting, reversalParts } from "../rules/Postings.ts"
import { walletAccount } from "./WalletAccount.ts"
import { handingBackOnInterrupt } from "../jobs/HandBack.ts"
import { type AccountId, DebtIds, type RefundId, RefundIds } from "../domain/Ids.ts"

/** How long a worker holds the refunds it is asking the provider about before another may take them. */
const REFUND_LEASE_MILLIS = 60_000

/**
 * What is left to refund of `charge` (call under its lock): what it was
 * paid, less the refunds not refused, and less what an open MED infraction
 * blocks (`withBlocked`): that may still go back through the MED, and no
 * refund returns it meanwhile.
 */
export const refundableOf = Effect.fn("Wallet.refundableOf")(function*(charge: Charge, options: { readonly withBlocked: boolean }) {
  const refunded = yield* (yield* Refunds).refundedOf(charge.id)
  const blocked = options.withBlocked ? yield* (yield* MedInfractions).blockedOf(charge.id) : cents(0)
  return { left: leftToRefund(charge.amount, refunded, blocked), blocked }
})

/** The charge the request names, locked, checked refundable, and how much of it this refund takes. */
const chargeToRefund = Effect.fn("Wallet.chargeToRefund")(function*(accountId: AccountId, request: RefundRequest, at: Date) {
  const key = request.endToEndId !== undefined ? { endToEndId: request.endToEndId } : request.chargeId !== undefined ? { chargeId: request.chargeId } : null
  if (key === null) return yield* new MissingChargeId({ message: "Informe endToEndId (Pix) ou chargeId (cartão)", details: null })
  const found = yield* (yield* Charges).lockOwn(accountId, key)
  const charge = Option.getOrUndefined(found)
  if (charge === undefined || (request.chargeId !== undefined && request.chargeId !== charge.id)) {
    return yield* new ChargeNotFound({ message: `Cobrança ${request.chargeId ?? request.endToEndId} não encontrada`, details: null })
  }
  if (nextChargeStatus(charge.status, "refunded") === undefined || charge.paymentType === "BOLETO") {
    return yield* new ChargeNotRefundable({
      message: `Não é possível estornar uma cobrança ${charge.paymentType} com status ${charge.status}`,
      details: { status: charge.status, paymentType: charge.paymentType }
    })
  }
  if (charge.paymentType === "PIX" && request.reason === undefined) return yield* invalidData("reason", "reason is required for a Pix refund")
  if (charge.paymentType === "PIX" && charge.paidAt !== null && !isPixReturnable(charge.paidAt, at)) return yield* returnWindowClosed(charge, charge.paidAt)
  const { left: remaining, blocked } = yield* refundableOf(charge, { withBlocked: true })
  const amount = request.amount ?? remaining
  if (amount > remaining || remaining <= 0) {
    return yield* new RefundAmountExceeded({
      message: blocked > 0 ? "Valor do estorno excede o valor disponível: parte da cobrança está bloqueada por MED" : "Valor do estorno excede o valor disponível para devolução",
      details: { requested: toDecimalString(amount), available: toDecimalString(cents(Math.max(0, remaining))), blockedByMed: toDecimalString(blocked) }
    })
  }
  return { charge, amount }
})

/** 400: a Pix settled more than 90 days ago, which no PSP would return any more. */
const returnWindowClosed = (charge: Charge, paidAt: Date) =>
  new ChargeNotRefundable({
    message: "O prazo de devolução deste Pix terminou: 90 dias desde a liquidação",
    details: { status: charge.status, paymentType: charge.paymentType, paidAt: paidAt.toISOString(), returnableUntil: pixReturnableUntil(paidAt).toISOString() }
  })

/**
 * Each holder's part of refunding `amount` of `charge`: a card's own
 * receivable first (what has not settled yet), then the available balance;
 * a split receiver that lacks owes the rest. The books are locked in
 * account order, so concurrent refunds and withdrawals wait for each other.
 */
const partsOf = Effect.fn("Wallet.refundParts")(function*(charge: Charge, amount: Cents) {
  const ledger = yield* Ledger
  const receivers = reversalParts(charge, amount)
  const owner = { accountId: charge.accountId, accountNumber: "", amount: ownerRefundPart(amount, receivers) }
  const wanted = [owner, ...receivers].sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0))
  // Receivables before balances, as the receivables job takes them: the two never wait for each other in a circle.
  const taken: Array<ReceivableTaken> = []
  for (const part of wanted) {
    if (charge.paymentType === "CREDIT_CARD") taken.push(...yield* ledger.takeReceivables(part.accountId, charge.id, part.amount))
  }
  const fromReceivables = byHolder(taken)
  const paid = new Map<string, Cents>()
  let ownerAvailable = cents(0)
  for (const part of wanted) {
    const available = yield* ledger.lockBalance(part.accountId, "AVAILABLE")
    if (part === owner) ownerAvailable = available
    paid.set(part.accountId, paidAtOnce(part.amount, fromReceivables.get(part.accountId) ?? cents(0), available))
  }
  return { owner, receivers, taken, paid, ownerAvailable }
})

/**
 * What refunding `amount` of `charge` takes of each holder: the receivables,
 * each receiver's reversal (a debt for what it lacks), and what the owner
 * lacks (`ownerDebt`): a chargeback, which cannot be refused, leaves the
 * owner that debt; a merchant's own refund is refused instead.
 */
export const takeRefundParts = Effect.fn("Wallet.takeRefundParts")(function*(charge: Charge, amount: Cents, sandbox: boolean) {
  const { owner, receivers, taken, paid, ownerAvailable } = yield* partsOf(charge, amount)
  const ownerPaid = paid.get(owner.accountId)!
  const ids = yield* Ids
  const debtId = ids.make(DebtIds, { sandbox })
  const splitReversals: Array<SplitReversal> = []
  for (const part of receivers) {
    const reversed = paid.get(part.accountId)!
    const pending = reversed < part.amount
    splitReversals.push({ ...part, reversed, status: pending ? "PENDING" : "REVERSED", debtId: pending ? yield* debtId : null })
  }
  const ownerDebt = ownerPaid < owner.amount ? { debtId: yield* debtId, amount: cents(owner.amount - ownerPaid) } : null
  // What the owner had to pay from its balance (its part less its receivables), and what that balance held.
  const ownerNeeds = { needed: cents(owner.amount - (byHolder(taken).get(owner.accountId) ?? 0)), available: ownerAvailable }
  return { parts: { splitReversals, receivablesTaken: taken, ownerDebt }, ownerNeeds }
})

/** A new refund of `amount` of `charge` at `at`: the parts taken, its reason, and the provider's answer when it came at once. */
export const newRefund = (id: RefundId, charge: Charge, amount: Cents, at: Date, fields: Pick<
  Refund,
  "reason" | "status" | "returnIdentification" | "splitReversals" | "receivablesTaken" | "ownerDebt"
>): Refund => ({
  id,
  accountId: charge.accountId,
  chargeId: charge.id,
  paymentType: charge.paymentType === "PIX" ? "PIX" : "CREDIT_CARD",
  endToEndId: charge.endToEndId,
  amount,
  providerChargeId: null,
  error: null,
  ...fields,
  createdAt: at,
  updatedAt: at
})

/**
 * Records a refund whose parts were taken: its row, its debts and its ledger
 * entry; one confirmed already (a chargeback) leaves the house's payouts at once.
 */
export const insertRefund = Effect.fn("Wallet.insertRefund")(function*(refund: Refund, at: Date) {
  const refunds = yield* Refunds
  yield* refunds.insert(refund)
  yield* refunds.insertDebts([
    ...refund.splitReversals.flatMap((r) => r.debtId === null ? [] : [{ id: r.debtId, holder: r.accountId, amount: cents(r.amount - r.reversed) }]),
    ...(refund.ownerDebt === null ? [] : [{ id: refund.ownerDebt.debtId, holder: refund.accountId, amount: refund.ownerDebt.amount }])
  ].map((debt) => ({ ...debt, refundId: refund.id })), at)
  const movement = refundMovement(refund)
  yield* postEntries([refundPosting(movement), ...(refund.status === "CONFIRMED" ? [refundSettledPosting(movement, refund.returnIdentification)] : [])], at)
})

/** Reserves the refund: row, debts, ledger entry and `refund.requested`, in one transaction. */
const reserve = Effect.fn("Wallet.reserveRefund")(function*(account: Account, request: RefundRequest) {
  const { id: accountId, sandbox } = account
  const at = new Date(yield* Clock.currentTimeMillis)
  const { charge, amount } = yield* chargeToRefund(accountId, request, at)
  // A card's money goes back through its acquirer; any other through the Pix provider (a devolução).
  yield* requireProvider(account, charge.paymentType === "CREDIT_CARD" ? "card" : "pix")
  const { parts, ownerNeeds: { needed, available } } = yield* takeRefundParts(charge, amount, sandbox)
  if (parts.ownerDebt !== null) {
    return yield* new InsufficientBalance({
      message: `Saldo insuficiente para o estorno: disponível ${toDecimalString(available)}, necessário ${toDecimalString(needed)}`,
      details: { availableBalance: toDecimalString(available), amount: toDecimalString(needed) }
    })
  }
  const id = yield* (yield* Ids).make(RefundIds, { sandbox })
  const refund = newRefund(id, charge, amount, at, { reason: request.reason ?? null, status: "PROCESSING", returnIdentification: null, ...parts })
  yield* insertRefund(refund, at)
  // A card's `refund.requested` names the acquirer's id of the payment: it goes with the acquirer's answer.
  if (refund.paymentType === "PIX") yield* (yield* Outbox).append({ accountId, event: "refund.requested", body: refundRequestedBody(refund, charge, at) })
  return refund
})

/** The charge's status after a confirmed refund: `REFUNDED` once confirmed refunds reach what was paid, else `PARTIALLY_REFUNDED`. */
export const moveChargeByRefunds = Effect.fn("Wallet.moveChargeByRefunds")(function*(charge: Charge, at: Date) {
  const confirmed = yield* (yield* Refunds).refundedOf(charge.id, { confirmedOnly: true })
  yield* (yield* Charges).transition(charge.id, confirmed >= charge.amount ? ChargeTransitions.refunded : ChargeTransitions.partiallyRefunded, {}, at)
})

/**
 * The provider's answer to a refund: returned (with the return's id, or the
 * acquirer's id of the payment, and when the provider says, the instant the
 * money moved), or refused.
 */
type RefundOutcome =
  | {
    readonly transition: typeof RefundTransitions.confirmed
    readonly returnIdentification: string | null
    readonly providerChargeId: string | null
    readonly error: null
    readonly settledAt: Date | null
  }
  | { readonly transition: typeof RefundTransitions.refused; readonly returnIdentification: null; readonly providerChargeId: string | null; readonly error: string }

/**
 * When a confirmed refund's money left, for its ledger entry: the provider's
 * settlement (a devolução settled before midnight and answered after it
 * belongs to the day the provider's statement lists it on), never later
 * than its record.
 */
const postedAt = (outcome: RefundOutcome, recorded: Date) =>
  "settledAt" in outcome && outcome.settledAt !== null && outcome.settledAt < recorded ? outcome.settledAt : recorded

/**
 * Records the provider's answer in one transaction: the refund's status,
 * its ledger entry, the charge's status, and the events. A refund that had
 * moved already (another worker answered) is left as it is.
 */
const recordAnswer = Effect.fn("Wallet.recordRefundAnswer")(function*(refund: Refund, outcome: RefundOutcome) {
  const at = new Date(yield* Clock.currentTimeMillis)
  const refunds = yield* Refunds
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const settled = Option.getOrUndefined(yield* refunds.settle(refund.id, outcome.transition, outcome, at))
    if (settled === undefined) return Option.getOrElse(yield* refunds.find(refund.accountId, refund.id), () => refund)
    const charges = yield* Charges
    const found = yield* charges.lockOwn(settled.accountId, { chargeId: settled.chargeId })
    if (Option.isNone(found)) return yield* Effect.die(new Error(`refund ${settled.id} names charge ${settled.chargeId}, which is gone`))
    const charge = found.value
    const outbox = yield* Outbox
    const append = (event: "refund.requested" | "refund.confirmed" | "refund.failed", body: string) =>
      outbox.append({ accountId: settled.accountId, event, body })
    if (settled.paymentType === "CREDIT_CARD") yield* append("refund.requested", refundRequestedBody(settled, charge, at))
    if (settled.status === RefundTransitions.confirmed.to) {
      yield* postEntries([refundSettledPosting(refundMovement(settled), settled.returnIdentification)], postedAt(outcome, at))
      yield* moveChargeByRefunds(charge, at)
      yield* append("refund.confirmed", refundConfirmedBody(settled, charge, at))
    } else {
      // The parts' books before the debts, in the order postings take them, as a credit paying debts does.
      yield* (yield* Ledger).lockBooks([settled.accountId, ...settled.splitReversals.map((r) => r.accountId)])
      const canceled = yield* refunds.cancelDebts(settled.id, at)
      const kept = yield* (yield* Ledger).restoreReceivables(settled.receivablesTaken)
      const back = {
        debtPaid: byHolder(canceled.map((debt) => ({ holder: debt.holder, amount: cents(debt.amount - debt.remaining) }))),
        receivableKept: byHolder(kept)
      }
      yield* postEntries([refundReturnedPosting(refundMovement(settled), back)], at)
      yield* append("refund.failed", refundFailedBody(settled, charge, at))
    }
    return settled
  }))
})

/**
 * Asks the provider to return the refund's money, by the refund's id (asked
 * twice, it returns it once): a card's acquirer, or the Pix provider; none
 * when it could not be reached.
 */
const askProvider = Effect.fn("Wallet.askRefundProvider")(function*(refund: Refund) {
  const at = new Date(yield* Clock.currentTimeMillis)
  const account = yield* (yield* Accounts).findById(refund.accountId)
  if (Option.isNone(account)) return Option.none()
  if (refund.paymentType === "CREDIT_CARD") {
    const asked = { account: account.value, paymentReference: refund.chargeId, amount: refund.amount, reference: refund.id }
    const answer = yield* (yield* Acquirer).refund(asked).pipe(Effect.option)
    return Option.map(answer, (a): RefundOutcome =>
      a._tag === "Refunded"
        ? { transition: RefundTransitions.confirmed, returnIdentification: null, providerChargeId: a.providerChargeId, error: null, settledAt: null }
        : { transition: RefundTransitions.refused, returnIdentification: null, providerChargeId: null, error: a.reason })
  }
  if (refund.endToEndId === null) return Option.none()
  // The Pix goes back through the PSP that received it.
  const psp = Option.match(yield* (yield* Charges).findForDocument(refund.chargeId), { onNone: () => null, onSome: (charge) => charge.psp })
  const returned = { account: account.value, psp, endToEndId: refund.endToEndId, amount: refund.amount, reference: refund.id, at }
  const answer = yield* (yield* PixProvider).returnPix(returned).pipe(Effect.option)
  return Option.map(answer, (a): RefundOutcome =>
    a._tag === "Paid"
      ? { transition: RefundTransitions.confirmed, returnIdentification: a.endToEndId, providerChargeId: null, error: null, settledAt: a.settledAt ?? null }
      : { transition: RefundTransitions.refused, returnIdentification: null, providerChargeId: null, error: a.reason })
})

export const requestRefund = Effect.fn("Wallet.requestRefund")(function*(request: RefundRequest) {
  const account = yield* walletAccount(request.accountId)
  const refund = yield* (yield* Transactor).withTransaction(reserve(account, request))
  if (refund.paymentType === "PIX") return toRefundView(refund)
  // A card is answered at once; without an answer it stays PROCESSING and the worker asks again.
  const answer = yield* askProvider(refund)
  return toRefundView(Option.isNone(answer) ? refund : yield* recordAnswer(refund, answer.value))
})

export const getRefunds = Effect.fn("Wallet.getRefunds")(function*(query: RefundQuery) {
  const account = yield* walletAccount(query.accountId)
  const refunds = yield* Refunds
  if (query.refundId !== undefined) {
    const found = yield* refunds.find(account.id, query.refundId)
    if (Option.isNone(found)) return yield* new RefundNotFound({ message: `Estorno ${query.refundId} não encontrado`, details: null })
    return toRefundView(found.value)
  }
  const limit = yield* pageLimit(query.limit, 50, invalidData)
  const from = yield* dateBound(query.startDate, { field: "startDate", endOfDay: false, invalid: invalidData })
  const to = yield* dateBound(query.endDate, { field: "endDate", endOfDay: true, invalid: invalidData })
  const page = yield* refunds.list(account.id, { limit, lastKey: query.lastKey ?? null, from, to })
  return { items: page.items.map(toRefundView), pagination: keysetPagination(page, limit) }
})

/** Worker step: asks the provider about up to `limit` refunds in flight and records each answer. */
export const completeRefunds = Effect.fn("Wallet.completeRefunds")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const at = new Date(yield* Clock.currentTimeMillis)
  const refunds = yield* Refunds
  const claimed = yield* refunds.claimProcessing(limit, scope, at, REFUND_LEASE_MILLIS)
  yield* Effect.forEach(claimed, (refund) =>
    Effect.flatMap(askProvider(refund), Option.match({ onNone: () => Effect.void, onSome: (answer) => recordAnswer(refund, answer) })), {
    concurrency: 8,
    discard: true
  }).pipe(handingBackOnInterrupt(new Date(at.getTime() + REFUND_LEASE_MILLIS), (leaseUntil, now) => refunds.expireClaims(claimed.map((r) => r.id), leaseUntil, now)))
  return claimed.length
})

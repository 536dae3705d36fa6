/**
 * Card disputes of sandbox accounts (`/v1/sandbox/disputes`): what the
 * cardholder's bank and the acquirer do in production, driven by hand.
 * Opening one moves a paid card charge to `DISPUTE` (nothing moves in the
 * ledger: acquirers take the money when the dispute is lost); won, the
 * charge goes back to what it was; lost, it is `CHARGED_BACK` and the
 * amount leaves as a refund of reason `CHARGEBACK`, confirmed at once:
 * split receivers return their part in proportion, and what any holder's
 * receivables and balance lack, the owner included, becomes a debt paid
 * from its next credits. Each step writes its `charge.dispute.updated` in
 * the same transaction.
 */
import { Clock, Effect, Option } from "effect"
import { sandboxCaller } from "../auth/SandboxOnly.ts"
import { type Charge, ChargeNotFound } from "../domain/Charge.ts"
import { type Dispute, DisputeClosed, DisputeNotFound } from "../domain/Dispute.ts"
import { ChargeNotRefundable, RefundAmountExceeded } from "../domain/Refund.ts"
import { type DisputeRequest, toDisputeView } from "../domain/WalletViews.ts"
import { disputeUpdatedBody } from "../events/DisputeEvents.ts"
import { toDecimalString } from "../money/Money.ts"
import { Charges } from "../ports/Charges.ts"
import { Disputes } from "../ports/Disputes.ts"
import { Ids } from "../ports/Ids.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Refunds } from "../ports/Refunds.ts"
import { Transactor } from "../ports/Transactor.ts"
import { type ChargeTransition, ChargeTransitions, nextChargeStatus } from "../rules/ChargeTransitions.ts"
import { DisputeTransitions } from "../rules/DisputeTransitions.ts"
import { insertRefund, newRefund, refundableOf, takeRefundParts } from "../wallet/Refunds.ts"
import { type AccountId, type DisputeId, DisputeIds, RefundIds } from "../domain/Ids.ts"

const ONLY_SANDBOX = "Simulação de chargeback disponível apenas em contas sandbox"

/** Moves the charge and tells of the dispute. */
const record = Effect.fnUntraced(function*(dispute: Dispute, charge: Charge, transition: ChargeTransition, at: Date) {
  yield* (yield* Charges).transition(charge.id, transition, {}, at)
  yield* (yield* Outbox).append({ accountId: dispute.accountId, event: "charge.dispute.updated", body: disputeUpdatedBody(dispute, transition.to, at) })
  return toDisputeView(dispute)
})

export const openDispute = Effect.fn("Disputes.open")(function*(request: DisputeRequest) {
  const { account } = yield* sandboxCaller(ONLY_SANDBOX)
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const found = yield* (yield* Charges).lockOwn(account.id, { chargeId: request.chargeId })
    if (Option.isNone(found)) return yield* new ChargeNotFound({ message: `Cobrança ${request.chargeId} não encontrada`, details: null })
    const charge = found.value
    if (charge.paymentType !== "CREDIT_CARD" || nextChargeStatus(charge.status, "disputed") === undefined) {
      return yield* new ChargeNotRefundable({ message: "Só uma cobrança de cartão paga pode ser contestada", details: { status: charge.status } })
    }
    const { left: remaining } = yield* refundableOf(charge, { withBlocked: false })
    // A refund the acquirer has not answered yet would move the charge under the dispute.
    if (charge.amount - remaining !== (yield* (yield* Refunds).refundedOf(charge.id, { confirmedOnly: true }))) {
      return yield* new ChargeNotRefundable({ message: "Há um estorno em andamento nesta cobrança", details: { status: charge.status } })
    }
    const amount = request.amount ?? remaining
    if (amount > remaining) {
      return yield* new RefundAmountExceeded({ message: "Valor contestado excede o valor não estornado", details: { available: toDecimalString(remaining) } })
    }
    const at = new Date(yield* Clock.currentTimeMillis)
    const dispute: Dispute = {
      id: yield* (yield* Ids).make(DisputeIds, { sandbox: true }),
      accountId: account.id,
      chargeId: charge.id,
      amount,
      reason: request.reason ?? "FRAUD",
      status: "OPEN",
      refundId: null,
      createdAt: at,
      updatedAt: at
    }
    yield* (yield* Disputes).insert(dispute)
    return yield* record(dispute, charge, ChargeTransitions.disputed, at)
  }))
})

/** The account's open dispute and its charge, both locked; 404 when unknown, 400 when decided already. */
const openOne = Effect.fnUntraced(function*(accountId: AccountId, id: DisputeId) {
  const found = yield* (yield* Disputes).lock(accountId, id)
  if (Option.isNone(found)) return yield* new DisputeNotFound({ message: `Contestação ${id} não encontrada`, details: null })
  if (found.value.status !== "OPEN") {
    return yield* new DisputeClosed({ message: `A contestação ${id} já foi decidida: ${found.value.status}`, details: { status: found.value.status } })
  }
  const charge = yield* (yield* Charges).lockOwn(accountId, { chargeId: found.value.chargeId })
  if (Option.isNone(charge)) return yield* Effect.die(new Error(`dispute ${id} names charge ${found.value.chargeId}, which is gone`))
  return { dispute: found.value, charge: charge.value }
})

/** Decided for the merchant: the charge is what it was before (paid, or partially refunded). */
export const winDispute = Effect.fn("Disputes.win")(function*(id: DisputeId) {
  const { account } = yield* sandboxCaller(ONLY_SANDBOX)
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const { charge } = yield* openOne(account.id, id)
    const at = new Date(yield* Clock.currentTimeMillis)
    const won = Option.getOrUndefined(yield* (yield* Disputes).decide(id, DisputeTransitions.won, null, at))!
    const refunded = yield* (yield* Refunds).refundedOf(charge.id, { confirmedOnly: true })
    return yield* record(won, charge, refunded > 0 ? ChargeTransitions.disputeWonAfterRefund : ChargeTransitions.disputeWon, at)
  }))
})

/** Decided for the cardholder: the acquirer takes the disputed amount back (a `CHARGEBACK` refund, confirmed). */
export const loseDispute = Effect.fn("Disputes.lose")(function*(id: DisputeId) {
  const { account } = yield* sandboxCaller(ONLY_SANDBOX)
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const { charge, dispute } = yield* openOne(account.id, id)
    const at = new Date(yield* Clock.currentTimeMillis)
    const { parts } = yield* takeRefundParts(charge, dispute.amount, true)
    const refundId = yield* (yield* Ids).make(RefundIds, { sandbox: true })
    const chargeback = newRefund(refundId, charge, dispute.amount, at, { reason: "CHARGEBACK", status: "CONFIRMED", returnIdentification: null, ...parts })
    yield* insertRefund(chargeback, at)
    const lost = Option.getOrUndefined(yield* (yield* Disputes).decide(id, DisputeTransitions.lost, chargeback.id, at))!
    return yield* record(lost, charge, ChargeTransitions.chargedBack, at)
  }))
})

export const getDispute = Effect.fn("Disputes.get")(function*(id: DisputeId) {
  const { account } = yield* sandboxCaller(ONLY_SANDBOX)
  const found = yield* (yield* Disputes).find(account.id, id)
  if (Option.isNone(found)) return yield* new DisputeNotFound({ message: `Contestação ${id} não encontrada`, details: null })
  return toDisputeView(found.value)
})

/**
 * The MED simulation of sandbox accounts (`/v1/sandbox/med/infractions`):
 * what the payer's bank and the Central Bank do in production, driven by
 * hand. Opening an infraction on a paid Pix blocks the amount in question
 * (what the balance holds of it) in the account's retained balance; the
 * infraction is then released to the account, or returned to the payer as a
 * refund of the charge. Each step posts its ledger entry and its `med.*`
 * events in one transaction.
 */
import { Clock, Effect, Option } from "effect"
import { sandboxCaller } from "../auth/SandboxOnly.ts"
import { ChargeNotFound } from "../domain/Charge.ts"
import { type MedInfractionRequest, toMedInfractionView } from "../domain/WalletViews.ts"
import { InfractionClosed, InfractionNotFound, type MedInfraction } from "../domain/Med.ts"
import { ChargeNotRefundable, RefundAmountExceeded } from "../domain/Refund.ts"
import { medBalanceBody, medInfractionUpdatedBody, medRefundBody } from "../events/MedEvents.ts"
import { postEntries } from "../ledger/PostEntries.ts"
import { cents, toDecimalString } from "../money/Money.ts"
import { Charges } from "../ports/Charges.ts"
import { Ids } from "../ports/Ids.ts"
import { Ledger } from "../ports/Ledger.ts"
import { MedInfractions } from "../ports/MedInfractions.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Refunds } from "../ports/Refunds.ts"
import { SandboxPsp } from "../ports/SandboxPsp.ts"
import { Transactor } from "../ports/Transactor.ts"
import { moveChargeByRefunds, newRefund, refundableOf } from "../wallet/Refunds.ts"
import { nextChargeStatus } from "../rules/ChargeTransitions.ts"
import { MedTransitions } from "../rules/MedTransitions.ts"
import { medBlockPosting, type MedMovement, medReleasePosting, medReturnPosting } from "../rules/Postings.ts"
import { sandboxSpiId } from "./PixProviderSandbox.ts"
import { type AccountId, type MedInfractionId, MedInfractionIds, RefundIds } from "../domain/Ids.ts"

const ONLY_SANDBOX = "Simulação de MED disponível apenas em contas sandbox"

/** What the ledger moves for an infraction: what was blocked. */
const movementOf = (m: MedInfraction): MedMovement => ({
  id: m.id,
  accountId: m.accountId,
  chargeId: m.chargeId,
  endToEndId: m.endToEndId,
  amount: m.blocked
})

type MedEvent = "med.infraction.updated" | "med.balance.blocked" | "med.balance.unblocked" | "med.refund.opened" | "med.refund.closed"

const append = (m: MedInfraction, events: ReadonlyArray<readonly [MedEvent, string]>) =>
  Effect.flatMap(Outbox, (outbox) => outbox.appendMany(events.map(([event, body]) => ({ accountId: m.accountId, event, body }))))

export const openInfraction = Effect.fn("Med.open")(function*(request: MedInfractionRequest) {
  const { account } = yield* sandboxCaller(ONLY_SANDBOX)
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const found = yield* (yield* Charges).lockOwn(account.id, { chargeId: request.chargeId })
    if (Option.isNone(found)) return yield* new ChargeNotFound({ message: `Cobrança ${request.chargeId} não encontrada`, details: null })
    const charge = found.value
    if (charge.paymentType !== "PIX" || charge.endToEndId === null || nextChargeStatus(charge.status, "refunded") === undefined) {
      return yield* new ChargeNotRefundable({ message: "Só um PIX recebido pode ter infração MED", details: { status: charge.status } })
    }
    // What earlier open infractions block is contested already.
    const { left: remaining } = yield* refundableOf(charge, { withBlocked: true })
    const amount = request.amount ?? remaining
    if (amount > remaining || remaining <= 0) {
      return yield* new RefundAmountExceeded({ message: "Valor contestado excede o valor disponível para devolução", details: { available: toDecimalString(remaining) } })
    }
    const available = yield* (yield* Ledger).lockBalance(account.id, "AVAILABLE")
    const at = new Date(yield* Clock.currentTimeMillis)
    const infraction: MedInfraction = {
      id: yield* (yield* Ids).make(MedInfractionIds, { sandbox: true }),
      accountId: account.id,
      chargeId: charge.id,
      endToEndId: charge.endToEndId,
      amount,
      blocked: cents(Math.min(amount, available)),
      reason: request.reason ?? "FRAUD",
      status: "OPEN",
      refundId: null,
      createdAt: at,
      updatedAt: at
    }
    yield* (yield* MedInfractions).insert(infraction)
    if (infraction.blocked > 0) yield* postEntries([medBlockPosting(movementOf(infraction))], at)
    yield* append(infraction, [
      ["med.infraction.updated", medInfractionUpdatedBody(infraction, at)],
      ...(infraction.blocked > 0 ? [["med.balance.blocked", medBalanceBody("med.balance.blocked", infraction, at)] as const] : [])
    ])
    return toMedInfractionView(infraction)
  }))
})

/** The account's open infraction, locked; 404 when unknown, 400 when decided already. */
const openOne = Effect.fnUntraced(function*(accountId: AccountId, id: MedInfractionId) {
  const found = yield* (yield* MedInfractions).lock(accountId, id)
  if (Option.isNone(found)) return yield* new InfractionNotFound({ message: `Infração ${id} não encontrada`, details: null })
  if (found.value.status !== "OPEN") {
    return yield* new InfractionClosed({ message: `A infração ${id} já foi decidida: ${found.value.status}`, details: { status: found.value.status } })
  }
  return found.value
})

/** Decided for the account: the block goes back to its available balance. */
export const releaseInfraction = Effect.fn("Med.release")(function*(id: MedInfractionId) {
  const { account } = yield* sandboxCaller(ONLY_SANDBOX)
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    yield* openOne(account.id, id)
    const at = new Date(yield* Clock.currentTimeMillis)
    const released = Option.getOrUndefined(yield* (yield* MedInfractions).decide(id, MedTransitions.released, null, at))!
    if (released.blocked > 0) yield* postEntries([medReleasePosting(movementOf(released))], at)
    yield* append(released, [
      ...(released.blocked > 0 ? [["med.balance.unblocked", medBalanceBody("med.balance.unblocked", released, at)] as const] : []),
      ["med.infraction.updated", medInfractionUpdatedBody(released, at)]
    ])
    return toMedInfractionView(released)
  }))
})

/**
 * Decided for the payer: what was blocked is returned as a refund of the
 * charge (reason `FRAUD`, confirmed at once in the sandbox), which counts
 * against what is left to refund and moves the charge's status.
 */
export const returnInfraction = Effect.fn("Med.return")(function*(id: MedInfractionId) {
  const { account } = yield* sandboxCaller(ONLY_SANDBOX)
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const open = yield* openOne(account.id, id)
    const at = new Date(yield* Clock.currentTimeMillis)
    if (open.blocked === 0) {
      const returned = Option.getOrUndefined(yield* (yield* MedInfractions).decide(id, MedTransitions.returned, null, at))!
      yield* append(returned, [["med.infraction.updated", medInfractionUpdatedBody(returned, at)]])
      return toMedInfractionView(returned)
    }
    const charges = yield* Charges
    const charge = Option.getOrUndefined(yield* charges.lockOwn(account.id, { chargeId: open.chargeId }))!
    // This infraction's own block is what may go back: refunds only must leave room for it.
    const { left: remaining } = yield* refundableOf(charge, { withBlocked: false })
    if (open.blocked > remaining) {
      // Refunded meanwhile: what is blocked cannot all go back to the payer; the merchant releases it instead.
      return yield* new RefundAmountExceeded({
        message: "A cobrança foi estornada depois da abertura da infração: libere o bloqueio",
        details: { blocked: toDecimalString(open.blocked), available: toDecimalString(remaining) }
      })
    }
    const ids = yield* Ids
    const refundId = yield* ids.make(RefundIds, { sandbox: true })
    const refund = newRefund(refundId, charge, open.blocked, at, {
      reason: "FRAUD",
      status: "CONFIRMED",
      returnIdentification: sandboxSpiId("D", at, refundId),
      splitReversals: [],
      receivablesTaken: [],
      ownerDebt: null
    })
    yield* (yield* Refunds).insert(refund)
    const returned = Option.getOrUndefined(yield* (yield* MedInfractions).decide(id, MedTransitions.returned, refund.id, at))!
    yield* postEntries([medReturnPosting(movementOf(returned), refund.returnIdentification!)], at)
    yield* (yield* SandboxPsp).record(account.id, { endToEndId: refund.returnIdentification!, direction: "DEBIT", amount: refund.amount, at })
    yield* moveChargeByRefunds(charge, at)
    yield* append(returned, [
      ["med.refund.opened", medRefundBody("med.refund.opened", returned, refund, at)],
      ["med.refund.closed", medRefundBody("med.refund.closed", returned, refund, at)],
      ["med.infraction.updated", medInfractionUpdatedBody(returned, at)]
    ])
    return toMedInfractionView(returned)
  }))
})

export const getInfraction = Effect.fn("Med.get")(function*(id: MedInfractionId) {
  const { account } = yield* sandboxCaller(ONLY_SANDBOX)
  const found = yield* (yield* MedInfractions).find(account.id, id)
  if (Option.isNone(found)) return yield* new InfractionNotFound({ message: `Infração ${id} não encontrada`, details: null })
  return toMedInfractionView(found.value)
})

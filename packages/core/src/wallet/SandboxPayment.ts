/**
 * `POST /v1/wallet/pay/{chargeId}`: simulated payment of a sandbox charge.
 * The request answers `PROCESSING` at once; the worker then confirms it as
 * the bank would, asynchronously: `PAID`, an end-to-end id, a sandbox payer,
 * and `payment.success`.
 */
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { Clock, Effect, Option } from "effect"
import { sandboxCaller } from "../auth/SandboxOnly.ts"
import { makeEndToEndId } from "../brazil/EndToEndId.ts"
import { type Charge, ChargeNotPayable, type PixPayer } from "../domain/Charge.ts"
import { SANDBOX_ISPB } from "../sandbox/PixProviderSandbox.ts"
import { findCharge } from "../charges/ManageCharges.ts"
import { settlePaidCharges } from "../charges/SettlePayments.ts"
import { Charges } from "../ports/Charges.ts"
import { SandboxPayments } from "../ports/SandboxPayments.ts"
import { SandboxPsp } from "../ports/SandboxPsp.ts"
import { Ids } from "../ports/Ids.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ChargeTransitions, nextChargeStatus } from "../rules/ChargeTransitions.ts"
import type { ChargeId } from "../domain/Ids.ts"


/** The payer every sandbox payment comes from. */
export const SANDBOX_PAYER: PixPayer = {
  name: "Pagador Sandbox",
  taxId: "52998224725",
  bank: SANDBOX_ISPB,
  account: "123456",
  branch: "0001",
  accountType: "CACC"
}

export const requestSandboxPayment = Effect.fn("Wallet.sandboxPay")(function*(chargeId: ChargeId) {
  yield* sandboxCaller("Simulação de pagamento disponível apenas em contas sandbox")
  const charge = yield* findCharge(chargeId)
  if (nextChargeStatus(charge.status, "paymentRequested") === undefined) {
    return yield* new ChargeNotPayable({
      message: `Não é possível pagar uma cobrança com status ${charge.status}`,
      details: { status: charge.status }
    })
  }
  const at = new Date(yield* Clock.currentTimeMillis)
  const transactor = yield* Transactor
  const charges = yield* Charges
  const queue = yield* SandboxPayments
  const moved = yield* transactor.withTransaction(Effect.gen(function*() {
    const moved = yield* charges.transition(charge.id, ChargeTransitions.paymentRequested, {}, at)
    if (Option.isSome(moved)) yield* queue.enqueue(charge.id, charge.accountId, at)
    return moved
  }))
  if (Option.isNone(moved)) {
    // It stopped being open between the read and the update (paid, expired or canceled).
    return yield* new ChargeNotPayable({ message: "A cobrança não está mais aberta", details: null })
  }
  return { chargeId: charge.id, status: "PROCESSING" as const, message: "Pagamento em processamento" }
})

/**
 * Worker step: confirms up to `limit` requested sandbox payments. Each is a
 * conditional `PROCESSING → PAID` change with its `payment.success` in the
 * same transaction; a charge that expired or was canceled meanwhile is left
 * as it is and emits nothing.
 */
export const confirmSandboxPayments = Effect.fn("Wallet.confirmSandboxPayments")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const transactor = yield* Transactor
  const charges = yield* Charges
  const queue = yield* SandboxPayments
  const ids = yield* Ids
  const psp = yield* SandboxPsp
  return yield* transactor.withTransaction(Effect.gen(function*() {
    const pending = yield* queue.claimPending(limit, scope)
    const confirmed: Array<{ readonly charge: Charge; readonly at: Date; readonly endToEndId: string }> = []
    for (const job of pending) {
      const now = yield* Clock.currentTimeMillis
      const at = new Date(now)
      const random = (yield* ids.randomHex(6)).slice(0, 11)
      const endToEndId = makeEndToEndId(SANDBOX_ISPB, now, random)!
      const moved = yield* charges.transition(job.chargeId, ChargeTransitions.paymentConfirmed, { paidAt: at, endToEndId, payer: SANDBOX_PAYER }, at)
      if (Option.isSome(moved)) confirmed.push({ charge: moved.value, at, endToEndId })
      yield* queue.markProcessed(job.chargeId, at)
    }
    // The sandbox PSP's own statement shows the Pix in, as a PSP's would.
    for (const { charge, at, endToEndId } of confirmed) {
      if (charge.paymentType === "PIX") yield* psp.record(charge.accountId, { endToEndId, direction: "CREDIT", amount: charge.amount, at })
    }
    yield* settlePaidCharges(confirmed)
    return confirmed.length
  }))
})

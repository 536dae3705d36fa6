import { Clock, Effect, Option, Result } from "effect"
import { writeOffBoleto } from "../boleto/BankBoleto.ts"
import type { Charge } from "../domain/Charge.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { chargeExpiredBody } from "../events/ChargeEvents.ts"
import { Charges } from "../ports/Charges.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ChargeTransitions } from "../rules/ChargeTransitions.ts"
import { recordChargeExpired } from "../subscriptions/SubscriptionPayments.ts"
import { closePixAtPsp } from "./ProviderClosing.ts"

/** `charge.expired` and what the charge's subscription makes of it; inside the transaction that expired it. */
const recordExpired = Effect.fnUntraced(function*(charge: Charge, now: Date) {
  yield* (yield* Outbox).append({ accountId: charge.accountId, event: ChargeTransitions.expired.event, body: chargeExpiredBody(charge, now) })
  yield* recordChargeExpired(charge, now)
})

/**
 * Expires one charge found due outside the batch (a production boleto its
 * bank wrote off, a card charge its acquirer never took), in its own
 * transaction, with its event; whether it moved (a charge paid meanwhile
 * does not).
 */
export const expireCharge = Effect.fnUntraced(function*(charge: Charge, now: Date) {
  const charges = yield* Charges
  return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const moved = yield* charges.transition(charge.id, ChargeTransitions.expired, {}, now)
    if (Option.isSome(moved)) yield* recordExpired(moved.value, now)
    return Option.isSome(moved)
  }))
})

/**
 * How long a charge whose closing was asked of its provider (a boleto's
 * write-off, a Pix taken off sale) is left before it is asked again: the
 * provider shares its call budget (Inter: 120 a minute) with the checkout's
 * registrations, which must not wait behind a refused closing asked at
 * every tick of every worker.
 */
const CLOSING_LEASE_MILLIS = 60_000

/**
 * Boletos of production accounts past their deadline: each is written off
 * at its bank first, outside any transaction, then expired on its own
 * (conditionally, as any expiry). One the bank says was paid is confirmed
 * instead, unless the payment could not be taken (less than the amount):
 * the boleto is spent either way, so the charge expires. A bank that cannot
 * be asked leaves the rest for the next pass, and is not asked again in this
 * one; a refused write-off leaves that boleto for the next pass. Answers
 * how many charges it settled (expired or confirmed), which a drain counts.
 */
const expireBankBoletos = Effect.fnUntraced(function*(now: Date, limit: number, scope: RunScope) {
  const due = yield* (yield* Charges).dueAtProvider("BOLETO", now, new Date(now.getTime() - CLOSING_LEASE_MILLIS), limit, scope)
  let settled = 0
  for (const charge of due) {
    const answer = yield* Effect.result(writeOffBoleto(charge))
    if (Result.isFailure(answer)) {
      yield* Effect.logWarning(`charge ${charge.id}: its boleto was not written off (${answer.failure.message}); it expires once the bank writes it off`)
      if (answer.failure._tag === "BoletoIssuerError") break
      continue
    }
    if (answer.success._tag === "Paid" && (answer.success.outcome === "confirmed" || answer.success.outcome === "duplicate")) {
      settled++
      continue
    }
    if (yield* expireCharge(charge, now)) settled++
  }
  return settled
})

/**
 * Pix charges of production accounts past their deadline: each is taken off
 * sale at its PSP first, outside any transaction (`PixProvider.closeCharge`),
 * then expired on its own; one a Pix paid meanwhile, whose callback never
 * came, is confirmed instead. A PSP that cannot be asked leaves the charge
 * open for the next pass (its lease keeps it from being asked at every
 * tick): expiring it would strand a Pix it may have taken. Answers how many
 * charges it settled (expired or confirmed).
 */
const expirePspPix = Effect.fnUntraced(function*(now: Date, limit: number, scope: RunScope) {
  const due = yield* (yield* Charges).dueAtProvider("PIX", now, new Date(now.getTime() - CLOSING_LEASE_MILLIS), limit, scope)
  let settled = 0
  for (const charge of due) if (yield* closeAtPsp(charge, now)) settled++
  return settled
})

/** One production Pix past its deadline, closed at its PSP, then expired or confirmed; whether it settled. */
const closeAtPsp = Effect.fnUntraced(function*(charge: Charge, now: Date) {
  const closing = yield* Effect.result(closePixAtPsp(charge))
  if (Result.isFailure(closing)) {
    yield* Effect.logWarning(`charge ${charge.id}: its Pix was not taken off sale (${closing.failure.message}); it expires once its PSP answers`)
    return false
  }
  // Paid at the PSP but not taken: left open, expiring it would strand the Pix.
  return closing.success._tag === "Paid" ? closing.success.recorded : yield* expireCharge(charge, now)
})

/**
 * Worker step: expires open charges whose deadline passed and records
 * `charge.expired` for each, in one transaction. The status change is
 * conditional (only from `PENDING`, `PROCESSING`, `AWAITING_PAYMENT`), so a
 * charge paid at the same moment is either paid or expired, never both.
 * Boletos and Pix of production accounts go through their bank or PSP
 * first (`expireBankBoletos`, `expirePspPix`), after the rest, which needs
 * no call; card charges of production accounts are left to
 * `resolveCardOutcomes`, which asks the acquirer before one expires (it may
 * have charged the card).
 */
export const expireDueCharges = Effect.fn("Charges.expireDue")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const transactor = yield* Transactor
  const charges = yield* Charges
  const now = new Date(yield* Clock.currentTimeMillis)
  const expired = yield* transactor.withTransaction(Effect.gen(function*() {
    const expired = yield* charges.expireDue(now, limit, scope)
    for (const charge of expired) yield* recordExpired(charge, now)
    return expired.length
  }))
  return expired + (yield* expireBankBoletos(now, limit, scope)) + (yield* expirePspPix(now, limit, scope))
})

/**
 * Card charges left `PROCESSING` by an authorization whose outcome is
 * unknown (a checkout's, the first cycle of a subscription bought at one, a
 * plan change's prorata: a billing run's attempt is the stalled-card job's),
 * settled by asking the acquirer what it did under the charge's reference.
 * The card itself cannot be charged again: a typed card is never kept and a
 * charge does not keep its token, so the acquirer is asked to look the
 * payment up (`Acquirer.lookup`), which charges nothing. An approval is
 * recorded as the checkout records one (`PAID`, the ledger,
 * `payment.success`), a refusal too (`FAILED`, its coupon use released);
 * one still in review records nothing and is asked about again a lease
 * later, however long the acquirer takes; no payment at all expires the
 * charge once its answer window ended, releasing its coupon use (the expiry
 * job leaves production card charges to this one: it cannot know whether
 * the card was charged).
 */
import { Cause, Clock, Effect, Option, Result } from "effect"
import type { Charge } from "../domain/Charge.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { handingBackOnInterrupt } from "../jobs/HandBack.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Acquirer } from "../ports/Acquirer.ts"
import { Charges } from "../ports/Charges.ts"
import { Coupons } from "../ports/Coupons.ts"
import { ProviderGate } from "../ports/ProviderGate.ts"
import { Transactor } from "../ports/Transactor.ts"
import { expireCharge } from "../charges/Expiry.ts"
import { answerOf, failureReasonOf, keepSubscriptionCard, recordCardApproval, recordCardRefusal } from "./CardCheckout.ts"

/**
 * How long a claimed charge is its claimer's, and so how often one charge is
 * asked about; also how long a new charge is left to its own checkout,
 * whose call to the acquirer (8 s, once retried) ends well within it.
 */
export const CARD_OUTCOME_LEASE_MILLIS = 60_000

/** A refusal as the checkout records one when it hears it: the charge `FAILED`, and its coupon use released (call in a transaction). */
const refuse = Effect.fnUntraced(function*(charge: Charge, failureReason: string, at: Date) {
  const failed = yield* recordCardRefusal(charge.id, failureReason, at)
  if (Option.isSome(failed)) yield* (yield* Coupons).releaseFor(charge.id)
  return failed
})

/** A charge the acquirer never took, its window over: expired, and its coupon use released, as a checkout that reached no acquirer releases it. */
const expireUncharged = Effect.fnUntraced(function*(charge: Charge, at: Date) {
  const expired = yield* expireCharge(charge, at)
  if (expired) yield* (yield* Coupons).releaseFor(charge.id)
  return expired
})

/**
 * Asks the acquirer about one charge and records a decided outcome; answers
 * whether it did. A production account's charge is asked only while a card
 * acquirer is configured: the sandbox's books know nothing of it.
 */
const settleCharge = Effect.fnUntraced(function*(charge: Charge) {
  const account = yield* (yield* Accounts).findById(charge.accountId)
  if (Option.isNone(account)) return false
  if (!account.value.sandbox && (yield* ProviderGate).unservedMethods.includes("creditcard")) return false
  const found = yield* Effect.result((yield* Acquirer).lookup({ account: account.value, reference: charge.id }))
  // Not reached, no payment under the reference, or one still in review: asked again a lease later.
  if (Result.isFailure(found)) return false
  const looked = found.success
  const at = new Date(yield* Clock.currentTimeMillis)
  // The acquirer never took it and its answer window is over: it expires here, the expiry job leaving it to this one.
  if (looked._tag === "NotFound") return charge.expiresAt <= at ? yield* expireUncharged(charge, at) : false
  const answer = answerOf(Result.succeed(looked))
  if (answer._tag === "Unknown" || answer._tag === "Unavailable") return false
  if (answer._tag === "Approved") yield* keepSubscriptionCard(account.value, charge)
  const transactor = yield* Transactor
  const recorded = answer._tag === "Approved"
    ? yield* transactor.withTransaction(recordCardApproval(charge.id, at))
    : yield* transactor.withTransaction(refuse(charge, failureReasonOf(answer), at))
  if (Option.isSome(recorded)) yield* Effect.logInfo(`charge ${charge.id}: the acquirer's unanswered authorization was ${answer._tag === "Approved" ? "approved" : `refused (${answer.code})`}; recorded ${recorded.value.status}`)
  return Option.isSome(recorded)
})

/**
 * Worker step: claims up to `limit` unanswered card charges with a lease
 * (`Charges.claimUnansweredCards`, `SKIP LOCKED`) and settles each it can,
 * each in its own transaction, outside the claim: the acquirer's answer must
 * not hold locks. Answers how many it claimed. Interrupted (a stopping
 * worker), it hands its claims back.
 */
export const resolveCardOutcomes = Effect.fn("Checkout.resolveCardOutcomes")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const charges = yield* Charges
  const now = yield* Clock.currentTimeMillis
  const at = new Date(now)
  const claimed = yield* charges.claimUnansweredCards(at, new Date(now - CARD_OUTCOME_LEASE_MILLIS), limit, scope)
  yield* Effect.forEach(claimed, (charge) =>
    settleCharge(charge).pipe(
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logWarning(`charge ${charge.id}: its card outcome was not settled`, cause)
      )
    ), { discard: true }).pipe(
    handingBackOnInterrupt(new Date(now + CARD_OUTCOME_LEASE_MILLIS), () => charges.endCardClaims(claimed, at))
  )
  return claimed.length
})

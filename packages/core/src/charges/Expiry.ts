import { Clock, Effect } from "effect"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { chargeExpiredBody } from "../events/ChargeEvents.ts"
import { Charges } from "../ports/Charges.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Transactor } from "../ports/Transactor.ts"
import { ChargeTransitions } from "../rules/ChargeTransitions.ts"
import { recordChargeExpired } from "../subscriptions/SubscriptionPayments.ts"

/**
 * Worker step: expires open charges whose deadline passed and records
 * `charge.expired` for each, in one transaction. The status change is
 * conditional (only from `PENDING`, `PROCESSING`, `AWAITING_PAYMENT`), so a
 * charge paid at the same moment is either paid or expired, never both.
 */
export const expireDueCharges = Effect.fn("Charges.expireDue")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const transactor = yield* Transactor
  const charges = yield* Charges
  const outbox = yield* Outbox
  const now = new Date(yield* Clock.currentTimeMillis)
  return yield* transactor.withTransaction(Effect.gen(function*() {
    const expired = yield* charges.expireDue(now, limit, scope)
    for (const charge of expired) {
      yield* outbox.append({ accountId: charge.accountId, event: ChargeTransitions.expired.event, body: chargeExpiredBody(charge, now) })
      yield* recordChargeExpired(charge, now)
    }
    return expired.length
  }))
})

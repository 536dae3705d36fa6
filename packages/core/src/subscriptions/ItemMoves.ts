/**
 * Items taking over from the items they replace, composed of the storage's
 * moves. A replacement (an upgrade or add-on whose prorata was paid, a
 * downgrade whose cycle came) starts only after the item it replaces ended
 * (`ItemTransitions.replaced`), so a price is never live twice, and the
 * subscription's main plan follows it. A replacement that never starts (its
 * prorata refused, expired, or paid after the subscription ended) fails,
 * and the item it would have replaced keeps going, waiting for no change.
 */
import { Effect } from "effect"
import type { ChargeId } from "../domain/Ids.ts"
import type { SubscriptionItem } from "../domain/Subscription.ts"
import { type PrimaryReplacement, Subscriptions } from "../ports/Subscriptions.ts"
import { type ItemTransition, ItemTransitions } from "../rules/ItemTransitions.ts"

/** What each replacement among `items` replaces, as the main plan's move. */
const replacementsOf = (items: ReadonlyArray<SubscriptionItem>): ReadonlyArray<PrimaryReplacement> =>
  items.flatMap((item) => item.upgradedFromItemId === null ? [] : [{ subscriptionId: item.subscriptionId, from: item.upgradedFromItemId, to: item.id }])

/** `starting` start by `start` (those it still applies to), each after the item it replaces ended; answers the items started. */
export const takeOver = Effect.fn("Subscriptions.takeOver")(function*(starting: ReadonlyArray<SubscriptionItem>, start: ItemTransition, at: Date) {
  const subscriptions = yield* Subscriptions
  yield* subscriptions.moveItems({ itemIds: replacementsOf(starting).map((r) => r.from) }, ItemTransitions.replaced, at)
  const started = yield* subscriptions.moveItems({ itemIds: starting.map((item) => item.id) }, start, at)
  yield* subscriptions.replacePrimaries(replacementsOf(started), at)
  return started
})

/** The items the paid prorata charge `chargeId` waited for start; answers them. */
export const startPaidItems = Effect.fn("Subscriptions.startPaidItems")(function*(chargeId: ChargeId, at: Date) {
  const waiting = yield* (yield* Subscriptions).findItems({ chargeId }, ItemTransitions.upgradePaid)
  return yield* takeOver(waiting, ItemTransitions.upgradePaid, at)
})

/** The items waiting for the prorata charge `chargeId` fail; the items they would replace keep going. */
export const failItemsOfCharge = Effect.fn("Subscriptions.failItemsOfCharge")(function*(chargeId: ChargeId, at: Date) {
  const subscriptions = yield* Subscriptions
  const failing = yield* subscriptions.findItems({ chargeId }, ItemTransitions.upgradeFailed)
  yield* subscriptions.linkReplacements(replacementsOf(failing).map((r) => ({ itemId: r.from, replacementId: null })), at)
  yield* subscriptions.moveItems({ itemIds: failing.map((item) => item.id) }, ItemTransitions.upgradeFailed, at)
})

/**
 * The clock of one account: the ambient one, or a sandbox account's test
 * clock (an offset from it, see `TestClocks.ts`) once the account is known.
 */
import { Clock, Effect, Option } from "effect"
import { Accounts } from "../ports/Accounts.ts"
import type { AccountId } from "../domain/Ids.ts"

/** A clock `offsetMillis` ahead of `base`, running at its pace. */
export const shiftedClock = (base: Clock.Clock, offsetMillis: number): Clock.Clock => {
  const millis = () => base.currentTimeMillisUnsafe() + offsetMillis
  const nanos = () => base.currentTimeNanosUnsafe() + BigInt(offsetMillis) * 1_000_000n
  return {
    currentTimeMillisUnsafe: millis,
    currentTimeMillis: Effect.sync(millis),
    currentTimeNanosUnsafe: nanos,
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanosUnsafe: () => base.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: base.monotonicTimeNanos,
    sleep: (duration) => base.sleep(duration)
  }
}

/** Runs `effect` on the account's test clock when it has one (sandbox accounts only); on the ambient clock otherwise. */
export const withAccountClock = (account: { readonly id: AccountId; readonly sandbox: boolean }) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Accounts> =>
  account.sandbox
    ? Effect.gen(function*() {
      const offset = yield* (yield* Accounts).clockOffset(account.id)
      if (Option.isNone(offset)) return yield* effect
      const base = yield* Clock.clockWith(Effect.succeed)
      return yield* Effect.provideService(effect, Clock.Clock, shiftedClock(base, offset.value))
    })
    : effect


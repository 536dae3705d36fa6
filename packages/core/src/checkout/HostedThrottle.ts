/**
 * Throttle of the hosted checkout page's public routes, per client address,
 * on the same shared counters as the token route (`AttemptCounters`), so it
 * holds however many servers answer. Two budgets: reading (the page, the
 * status it polls) and acting (a payment, a card tokenized). Acting is what
 * a bot abuses, testing stolen cards through the tokenization or flooding a
 * merchant with charges; reading only needs a ceiling against scraping ids.
 */
import { Clock, Context, Effect, Schema } from "effect"
import { secondsLeft } from "../auth/Throttle.ts"
import { AttemptCounters } from "../ports/AttemptCounters.ts"

/**
 * Limits per address and window. Reading: a page polling its status every
 * two seconds makes 30 requests a minute, and a shop's NAT may hold a few
 * buyers at once, hence 300. Acting: a buyer who mistypes a card a few
 * times makes a handful of attempts; 30 per quarter hour leaves room for a
 * family behind one address and stops a card tester after 30 guesses.
 */
export const HostedThrottle = Context.Reference<{
  readonly read: { readonly limit: number; readonly windowSeconds: number }
  readonly act: { readonly limit: number; readonly windowSeconds: number }
}>("@billing/core/checkout/HostedThrottle", {
  defaultValue: () => ({ read: { limit: 300, windowSeconds: 60 }, act: { limit: 30, windowSeconds: 900 } })
})

/** 429: too many requests of the page from this address; `retryAfter` in seconds. */
export class HostedTooManyRequests extends Schema.TaggedError<HostedTooManyRequests>()("HostedTooManyRequests", {
  retryAfter: Schema.Number
}) {}

/**
 * Counts a request of `budget` from `address` and fails past its limit. A
 * request whose address is unknown (no TCP peer) shares one counter with
 * every other such request rather than escaping the throttle.
 */
export const admitHostedRequest = Effect.fn("HostedThrottle.admit")(function*(budget: "read" | "act", address: string | undefined) {
  const policy = (yield* HostedThrottle)[budget]
  const now = yield* Clock.currentTimeMillis
  const windowMillis = policy.windowSeconds * 1000
  const [window] = yield* (yield* AttemptCounters).hit([`hosted-${budget}:${address ?? ""}`], new Date(now), new Date(now - windowMillis))
  if (window !== undefined && window.attempts > policy.limit) return yield* new HostedTooManyRequests({ retryAfter: secondsLeft(window, windowMillis, now) })
})

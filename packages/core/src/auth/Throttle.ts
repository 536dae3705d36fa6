/**
 * Throttle of `POST /auth/token` against secret guessing. Every attempt is
 * counted before its secret is checked, per client id and per client
 * address, and a success takes its attempt back; so the count is of failed
 * (or still unproven) attempts, and a burst of parallel guesses cannot slip
 * past the limit while the first ones are still being hashed. Past the limit
 * the route answers 429 without checking the secret, until the window that
 * began with the first counted attempt is over.
 */
import { Clock, Context, Effect } from "effect"
import { AttemptCounters, type AttemptWindow } from "../ports/AttemptCounters.ts"
import { OAuthTooManyRequests } from "./AuthErrors.ts"

/**
 * Limits of the token route. A client id is a login: 10 wrong secrets in 15
 * minutes is far beyond any misconfigured client and far below what
 * guessing a 256-bit secret needs. An address may serve many clients (a NAT,
 * a shared host), hence the higher limit, which still stops one machine from
 * spraying guesses over many client ids.
 */
export const TokenThrottle = Context.Reference<{
  readonly windowSeconds: number
  readonly perClient: number
  readonly perAddress: number
}>("@billing/core/auth/TokenThrottle", { defaultValue: () => ({ windowSeconds: 900, perClient: 10, perAddress: 50 }) })

/** The counters an attempt was counted under, to forgive on success. */
export interface Admission {
  readonly clientKey: string
  readonly addressKey: string | undefined
}

/**
 * Counts an attempt of `clientId` from `address` (when known) and fails with
 * 429 when either is past its limit. Runs before the secret is checked.
 */
export const admitAttempt = Effect.fn("Throttle.admit")(function*(clientId: string, address: string | undefined) {
  const policy = yield* TokenThrottle
  const counters = yield* AttemptCounters
  const now = yield* Clock.currentTimeMillis
  const windowMillis = policy.windowSeconds * 1000
  const admission: Admission = { clientKey: `client:${clientId}`, addressKey: address === undefined ? undefined : `address:${address}` }
  const keys = admission.addressKey === undefined ? [admission.clientKey] : [admission.clientKey, admission.addressKey]
  const windows = yield* counters.hit(keys, new Date(now), new Date(now - windowMillis))
  const over = windows.filter((w) => w.attempts > (w.key === admission.clientKey ? policy.perClient : policy.perAddress))
  if (over.length > 0) {
    const retryAfter = Math.max(...over.map((w) => secondsLeft(w, windowMillis, now)))
    return yield* new OAuthTooManyRequests({
      error: "too_many_requests",
      error_description: `too many failed attempts; retry in ${retryAfter} s`,
      retryAfter
    })
  }
  return admission
})

/**
 * Takes back the attempt of a request whose secret was right: the client's
 * count starts over (its owner has proven the secret), the address only gets
 * this one attempt back (a valid credential must not wipe the failures of
 * other client ids tried from the same place).
 */
export const forgiveAttempt = Effect.fn("Throttle.forgive")(function*(admission: Admission) {
  const counters = yield* AttemptCounters
  yield* counters.forgive([admission.clientKey], admission.addressKey === undefined ? [] : [admission.addressKey])
})

// At least one second: `Retry-After: 0` would invite an immediate retry that is refused again.
const secondsLeft = (window: AttemptWindow, windowMillis: number, now: number) =>
  Math.max(1, Math.ceil((window.windowStart.getTime() + windowMillis - now) / 1000))

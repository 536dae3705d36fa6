/**
 * Throttle of `POST /auth/token` against secret guessing, built so that
 * knowing a client id is not enough to keep its owner from getting tokens.
 * Every attempt is counted before its secret is checked, per client id at one
 * address, per address, and per client id, and a success takes its attempt
 * back; so the counts are of failed (or still unproven) attempts, and a burst
 * of parallel guesses cannot slip past a limit while the first ones are still
 * being hashed. The limits of an address and of a client id at an address
 * answer 429 without checking the secret, until the window that began with
 * the first counted attempt is over. The per-client ceiling refuses only the
 * addresses that have themselves failed for that client: an address the
 * ceiling cannot tell from the owner's keeps having its secret checked.
 */
import { Clock, Context, Effect } from "effect"
import { AttemptCounters, type AttemptWindow } from "../ports/AttemptCounters.ts"
import { OAuthTooManyRequests } from "./AuthErrors.ts"

/**
 * Limits of the token route, per window. A client id at one address is a
 * login: 10 wrong secrets is far beyond a misconfigured client and locks
 * only that address. An address may serve many clients (a NAT, a shared
 * host), hence 50, which still stops one machine from spraying guesses over
 * many client ids. The ceiling of a client id is reached only by about 100
 * addresses failing for it within one window (each stops at 10), which no
 * merchant's own servers do; past it, each address that failed for the
 * client is refused, so a guess spread over many addresses gets one checked
 * guess per new address instead of ten.
 */
export const TokenThrottle = Context.Reference<{
  readonly windowSeconds: number
  readonly perClientAddress: number
  readonly perAddress: number
  readonly clientCeiling: number
}>("@billing/core/auth/TokenThrottle", {
  defaultValue: () => ({ windowSeconds: 900, perClientAddress: 10, perAddress: 50, clientCeiling: 1000 })
})

/** The counters of one attempt, to record its outcome under. */
export interface Admission {
  readonly clientKey: string
  readonly pairKey: string
  /** Checked failures only: unlike `pairKey`, never holds an attempt still being hashed. */
  readonly failedKey: string
  readonly addressKey: string | undefined
}

// The address is encoded so that no client id can end a pair key as another
// (address, client id) would; callers without an address share one pair per client.
const admissionOf = (clientId: string, address: string | undefined): Admission => {
  const pair = `${encodeURIComponent(address ?? "")}|${clientId}`
  return {
    clientKey: `client:${clientId}`,
    pairKey: `pair:${pair}`,
    failedKey: `failed:${pair}`,
    addressKey: address === undefined ? undefined : `address:${address}`
  }
}

/**
 * Counts an attempt of `clientId` from `address` (when known) and fails with
 * 429 when the attempt is past a limit that applies to it. Runs before the
 * secret is checked.
 */
export const admitAttempt = Effect.fn("Throttle.admit")(function*(clientId: string, address: string | undefined) {
  const policy = yield* TokenThrottle
  const counters = yield* AttemptCounters
  const now = yield* Clock.currentTimeMillis
  const windowMillis = policy.windowSeconds * 1000
  const restartBefore = new Date(now - windowMillis)
  const admission = admissionOf(clientId, address)
  const keys = [admission.clientKey, admission.pairKey, ...(admission.addressKey === undefined ? [] : [admission.addressKey])]
  const windows = yield* counters.hit(keys, new Date(now), restartBefore)
  const refusals: Array<number> = []
  for (const window of windows) {
    if (window.key === admission.pairKey && window.attempts > policy.perClientAddress) {
      refusals.push(secondsLeft(window, windowMillis, now))
    } else if (window.key === admission.addressKey && window.attempts > policy.perAddress) {
      refusals.push(secondsLeft(window, windowMillis, now))
    } else if (window.key === admission.clientKey && window.attempts > policy.clientCeiling) {
      // Checked failures, not the pair's count: parallel requests of the
      // owner's servers would otherwise count as this address failing.
      const failed = yield* counters.peek([admission.failedKey], restartBefore)
      // Refused until the ceiling's window ends or this address's failures age out, whichever comes first.
      if (failed.length > 0) {
        refusals.push(Math.min(secondsLeft(window, windowMillis, now), secondsLeft(failed[0]!, windowMillis, now)))
      }
    }
  }
  if (refusals.length > 0) {
    const retryAfter = Math.max(...refusals)
    return yield* new OAuthTooManyRequests({
      error: "too_many_requests",
      error_description: `too many failed attempts; retry in ${retryAfter} s`,
      retryAfter
    })
  }
  return admission
})

/** Records that the secret of an admitted attempt was wrong (or its client unknown). */
export const recordFailure = Effect.fn("Throttle.recordFailure")(function*(admission: Admission) {
  const policy = yield* TokenThrottle
  const counters = yield* AttemptCounters
  const now = yield* Clock.currentTimeMillis
  yield* counters.hit([admission.failedKey], new Date(now), new Date(now - policy.windowSeconds * 1000))
})

/**
 * Takes back the attempt of a request whose secret was right: the count of
 * the client at this address starts over (its owner has proven the secret
 * from there), while the address and the client only get this one attempt
 * back (a valid credential must not wipe the failures of other client ids
 * tried from the same place, nor those of other addresses guessing this one).
 */
export const forgiveAttempt = Effect.fn("Throttle.forgive")(function*(admission: Admission) {
  const counters = yield* AttemptCounters
  yield* counters.forgive(
    [admission.pairKey, admission.failedKey],
    admission.addressKey === undefined ? [admission.clientKey] : [admission.clientKey, admission.addressKey]
  )
})

// At least one second: `Retry-After: 0` would invite an immediate retry that is refused again.
/** Whole seconds (at least one) until `window`, `windowMillis` long, ends: a 429's `Retry-After`. */
export const secondsLeft = (window: AttemptWindow, windowMillis: number, now: number) =>
  Math.max(1, Math.ceil((window.windowStart.getTime() + windowMillis - now) / 1000))

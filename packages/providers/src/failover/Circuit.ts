/**
 * The circuit of one PSP, as a table of moves: a PSP that fails
 * `FAILURES_TO_OPEN` calls in a row (no answer, a 5xx, a failed handshake)
 * is skipped for `COOL_DOWN_MILLIS`; then one call is let through as a probe
 * (half-open): its success closes the circuit, its failure opens it again
 * for another cool-down. A 4xx is an answer about the request, not about the
 * PSP's health, and moves nothing.
 *
 * Five in a row: one or two failures are routine on the internet (a dropped
 * connection, a gateway's hiccup) and are retried within the call; five calls
 * each failing after their retries mean the PSP is down. Thirty seconds: long
 * enough not to pile more timeouts on a PSP in trouble (each costs the
 * merchant's request its timeout), short enough that a PSP back from a
 * blip takes new charges again within a minute. Recorded in docs/decisions.md.
 */

export const FAILURES_TO_OPEN = 5
export const COOL_DOWN_MILLIS = 30_000

export type CircuitState =
  /** Taking calls; `failures` in a row so far. */
  | { readonly _tag: "Closed"; readonly failures: number }
  /** Skipped until `until` (epoch milliseconds). */
  | { readonly _tag: "Open"; readonly until: number }
  /** One probe in flight; every other call skips the PSP until it answers. */
  | { readonly _tag: "Probing" }

export const CLOSED: CircuitState = { _tag: "Closed", failures: 0 }

/** What a call may do now: go (and the state to keep while it runs), or skip the PSP. */
export type Admission =
  | { readonly _tag: "Go"; readonly state: CircuitState }
  | { readonly _tag: "Skip" }

/** Whether a call may go to the PSP at `now`; the first call after the cool-down becomes the probe. */
export const admit = (state: CircuitState, now: number): Admission => {
  switch (state._tag) {
    case "Closed":
      return { _tag: "Go", state }
    case "Open":
      return now >= state.until ? { _tag: "Go", state: { _tag: "Probing" } } : { _tag: "Skip" }
    case "Probing":
      return { _tag: "Skip" }
  }
}

/** The state after a call that the PSP answered (any 2xx or 4xx). */
export const succeeded = (_state: CircuitState): CircuitState => CLOSED

/**
 * The state after a call that failed for the PSP's health (no answer, 5xx,
 * handshake). `coolDownMillis` is there for tests, which cannot wait the
 * recorded thirty seconds.
 */
export const failed = (state: CircuitState, now: number, coolDownMillis = COOL_DOWN_MILLIS): CircuitState => {
  if (state._tag === "Closed" && state.failures + 1 < FAILURES_TO_OPEN) return { _tag: "Closed", failures: state.failures + 1 }
  return { _tag: "Open", until: now + coolDownMillis }
}

/** What a metric or a log shows of it. */
export const circuitName = (state: CircuitState): "closed" | "open" | "half-open" =>
  state._tag === "Closed" ? "closed" : state._tag === "Open" ? "open" : "half-open"

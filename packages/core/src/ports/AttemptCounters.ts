import { Context, type Effect } from "effect"

/** The attempts counted under one key in its current window. */
export interface AttemptWindow {
  readonly key: string
  readonly attempts: number
  readonly windowStart: Date
}

/**
 * Counters of authentication attempts in fixed windows, shared by every
 * process of an installation (the throttle of `POST /auth/token` must hold
 * however many servers answer it). Each update is atomic.
 */
export class AttemptCounters extends Context.Service<AttemptCounters, {
  /**
   * Counts one attempt under each key. A window that started before
   * `restartBefore` is over: the key starts a new one at `at` with this
   * attempt. Returns each key's window after counting.
   */
  readonly hit: (keys: ReadonlyArray<string>, at: Date, restartBefore: Date) => Effect.Effect<ReadonlyArray<AttemptWindow>>
  /**
   * The live windows of `keys` without counting anything: a key whose window
   * started before `restartBefore`, or with no attempt left, is absent.
   */
  readonly peek: (keys: ReadonlyArray<string>, restartBefore: Date) => Effect.Effect<ReadonlyArray<AttemptWindow>>
  /** Takes back the attempt of a success: `reset` keys are forgotten, `release` keys count one attempt less. */
  readonly forgive: (reset: ReadonlyArray<string>, release: ReadonlyArray<string>) => Effect.Effect<void>
}>()("@billing/core/ports/AttemptCounters") {}

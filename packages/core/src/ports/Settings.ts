import { Context, type Effect } from "effect"

/** Installation-wide secrets (the sealed JWT signing key), created once and shared by every process. */
export class Settings extends Context.Service<Settings, {
  /** Returns the stored value, storing `candidate` first when there is none (first writer wins). */
  readonly getOrInsert: (key: string, candidate: string) => Effect.Effect<string>
  /**
   * Replaces the value of `key` only while it still is `expected` (compare
   * and set), so that processes starting together agree on one outcome.
   * True when this call replaced it.
   */
  readonly replace: (key: string, expected: string, next: string) => Effect.Effect<boolean>
}>()("@billing/core/ports/Settings") {}

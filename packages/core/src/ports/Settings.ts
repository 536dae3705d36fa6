import { Context, type Effect } from "effect"

/** Installation-wide secrets (the JWT signing key), created once and shared by every process. */
export class Settings extends Context.Service<Settings, {
  /** Returns the stored value, storing `candidate` first when there is none (first writer wins). */
  readonly getOrInsert: (key: string, candidate: string) => Effect.Effect<string>
}>()("@billing/core/ports/Settings") {}

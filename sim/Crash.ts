/**
 * Where the engine's process may die. Every call the engine makes out of
 * itself in a simulated world (an id drawn, a provider asked, a webhook
 * posted) passes a `point`; while a crash is armed for the engine call in
 * progress, the `nth` point reached is where the process dies: the crash is
 * signalled and that fiber, and every later point of the dead process,
 * waits for ever, so nothing more of it reaches a provider. The engine's
 * runner (`Engine.ts`) then interrupts the call (its open transaction rolls
 * back; what was committed stays) and starts a new process on the same
 * database.
 */
import { Context, Deferred, Effect, Layer } from "effect"

export interface Armed {
  /** Done, with the point's name, when the process died. */
  readonly signal: Deferred.Deferred<string>
}

export class Crash extends Context.Service<Crash, {
  /** A point the engine passes; where an armed crash strikes. */
  readonly point: (name: string) => Effect.Effect<void>
  /** Arms a crash at the `nth` point from now (none: no crash), for one engine call. */
  readonly arm: (nth: number | undefined) => Effect.Effect<Armed>
  /** The process is gone: a new one starts with no crash armed and every point open again. */
  readonly reset: Effect.Effect<void>
}>()("sim/Crash") {
  static readonly layer = Layer.sync(Crash, () => {
    let armed: { readonly nth: number; passed: number; readonly signal: Deferred.Deferred<string> } | undefined
    let dead = false
    return Crash.of({
      point: (name) =>
        Effect.suspend(() => {
          if (dead) return Effect.never
          if (armed === undefined || ++armed.passed < armed.nth) return Effect.void
          dead = true
          return Effect.andThen(Deferred.succeed(armed.signal, name), Effect.never)
        }),
      arm: (nth) =>
        Effect.map(Deferred.make<string>(), (signal) => {
          armed = nth === undefined ? undefined : { nth, passed: 0, signal }
          return { signal }
        }),
      reset: Effect.sync(() => {
        armed = undefined
        dead = false
      })
    })
  })
}

/**
 * The engine's process, as the simulation runs it: its layers (storage with
 * its caches, the providers with their circuits and watches) built over the
 * world (`World.ts`: the database, the ids, the simulated providers' books,
 * the receiver), and every use case or worker pass run in it through `run`.
 *
 * A crash (`Crash.ts`) armed for a call kills the process at a point inside
 * it: the call's fiber is interrupted (its open transaction rolls back, what
 * it committed stays), the process's layers are closed, and a new process
 * starts over the same database, as an operator's restart would. The
 * workload then goes on in the new one.
 */
import { StorageLive } from "@billing/adapters-postgres"
import { Billing } from "@billing/core"
import { receivedPixOf } from "@billing/providers"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Option, Scope } from "effect"
import { Crash } from "./Crash.ts"
import { Faults } from "./Faults.ts"
import { ProvidersSim } from "./Providers.ts"
import { pixJson, type SimPix } from "./Psp.ts"
import type { EarlyCallback } from "./PspClient.ts"
import * as Random from "./Random.ts"
import type { WorldServices } from "./World.ts"

const processLayer = (early: EarlyCallback) => ProvidersSim(early).pipe(Layer.provideMerge(StorageLive))

/** What a use case may need: the process's services and the world's. */
export type EngineServices = Layer.Success<ReturnType<typeof processLayer>> | WorldServices

/** How an engine call ended: done (its exit), or the process died inside it. */
export type Ran<A, E> =
  | { readonly _tag: "Done"; readonly exit: Exit.Exit<A, E> }
  | { readonly _tag: "Crashed"; readonly at: string }

/** The points a crash may strike at, counted from the call's start: most calls pass a handful. */
const CRASH_POINTS = 6

/** The PSP's callback of `pix`, as the callback route hands it to the engine; a failure is the PSP's to retry, never the caller's. */
export const callBack = (pix: SimPix) =>
  Billing.receivePix(Option.toArray(receivedPixOf(pixJson(pix), pix.psp))).pipe(
    Effect.catchCause((cause) => Effect.logWarning(`simulated callback of ${pix.endToEndId} failed`, cause)),
    Effect.asVoid
  )

interface Process {
  readonly scope: Scope.Closeable
  readonly context: Context.Context<EngineServices>
}

export class Engine extends Context.Service<Engine, {
  /** Runs `effect` in the engine's process; `crashable` (default true) lets the seed's crash strike inside it. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, EngineServices>, options?: { readonly crashable?: boolean }) => Effect.Effect<Ran<A, E>>
  /** How many times the process was started again after a crash. */
  readonly restarts: () => number
}>()("sim/Engine") {
  /** The engine over the world in context; its first process starts with the layer, the last one closes with it. */
  static readonly layer = Layer.effect(
    Engine,
    Effect.gen(function*() {
      const world = yield* Effect.context<WorldServices>()
      const [crash, faults] = [yield* Crash, yield* Faults]
      const start = Effect.gen(function*() {
        const scope = yield* Scope.make()
        // A PSP calling back before its answer left reaches the process as a request of its own: none of the caller's transaction.
        const cell: { context?: Context.Context<EngineServices> } = {}
        const early: EarlyCallback = (pix) => Effect.suspend(() => callBack(pix).pipe(Effect.updateContext(() => cell.context!)))
        const built = yield* Layer.buildWithScope(processLayer(early), scope).pipe(Effect.provideContext(world))
        cell.context = Context.merge(world, built)
        return { scope, context: cell.context } satisfies Process
      })
      let current = yield* start
      let restarts = 0
      yield* Effect.addFinalizer(() => Scope.close(current.scope, Exit.void))

      const restart = Effect.gen(function*() {
        yield* Scope.close(current.scope, Exit.void)
        yield* crash.reset
        current = yield* start
        restarts++
      })

      const run = <A, E>(effect: Effect.Effect<A, E, EngineServices>, options?: { readonly crashable?: boolean }) =>
        Effect.gen(function*() {
          const nth = options?.crashable !== false && (yield* faults.roll("crash")) ? Random.int(faults.random, 1, CRASH_POINTS) : undefined
          const armed = yield* crash.arm(nth)
          const fiber = yield* Effect.forkChild(Effect.provide(effect, current.context))
          const ended = yield* Effect.raceFirst(
            Effect.map(Fiber.await(fiber), (exit): Ran<A, E> => ({ _tag: "Done", exit })),
            Effect.map(Deferred.await(armed.signal), (at): Ran<A, E> => ({ _tag: "Crashed", at }))
          )
          yield* crash.arm(undefined)
          // A point reached by a fiber the call did not wait for (a background watch) killed the process all the same.
          const died = ended._tag === "Crashed" ? ended.at : (yield* Deferred.isDone(armed.signal)) ? yield* Deferred.await(armed.signal) : undefined
          if (died === undefined) return ended
          yield* Fiber.interrupt(fiber)
          yield* restart
          return { _tag: "Crashed", at: died } satisfies Ran<A, E>
        })

      return Engine.of({ run, restarts: () => restarts })
    })
  )
}

/**
 * The record of a run: one line per operation with its outcome, in the
 * order they ran. Two runs of one seed must write the same lines; a line
 * names only what the seed decides (ids from the simulated `Ids`, amounts,
 * error codes), never what the engine draws by itself.
 *
 * An operation that fails with one of its typed errors is part of the
 * workload (a refund above what is left, a late payment of an expired
 * charge); one that dies is a defect of the engine, kept apart; one the
 * engine's process died inside (`~crash`) is the seed's fault, and the
 * workload goes on in the restarted process.
 */
import { Cause, Effect, Exit, Option } from "effect"
import { Engine, type EngineServices } from "./Engine.ts"

export interface StepLog {
  readonly lines: Array<string>
  readonly defects: Array<string>
  /** Use cases called through `step`, whatever their outcome. */
  operations: number
  /** Calls the engine's process died inside. */
  crashes: number
}

export const makeLog = (): StepLog => ({ lines: [], defects: [], operations: 0, crashes: 0 })

const errorCode = (error: unknown) =>
  typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : "error"

/** The line's outcome of an exit, recording a defect when it died. */
const outcomeOf = <A, E>(log: StepLog, label: string, exit: Exit.Exit<A, E>, describe: (a: A) => string) => {
  if (Exit.isSuccess(exit)) return describe(exit.value)
  const error = Cause.findErrorOption(exit.cause)
  if (Option.isSome(error)) return `!${errorCode(error.value)}`
  log.defects.push(`${label}: ${Cause.pretty(exit.cause)}`)
  return "!!defect"
}

/**
 * Runs `effect` in the engine as the step `label`, recording its outcome
 * (`describe` of the value, `!CODE`, or `~crash at POINT`); answers the
 * value, or none when it failed or the process died inside it.
 * `crashable: false` keeps the seed's crashes out of it (a run's setup).
 */
export const step = <A, E>(
  log: StepLog,
  label: string,
  effect: Effect.Effect<A, E, EngineServices>,
  describe: (a: A) => string = () => "ok",
  options?: { readonly crashable?: boolean }
) =>
  Engine.use((engine) => engine.run(effect, options)).pipe(Effect.map((ran): Option.Option<A> => {
    log.operations++
    if (ran._tag === "Crashed") {
      log.crashes++
      log.lines.push(`${label} -> ~crash at ${ran.at}`)
      return Option.none()
    }
    log.lines.push(`${label} -> ${outcomeOf(log, label, ran.exit, describe)}`)
    return Exit.isSuccess(ran.exit) ? Option.some(ran.exit.value) : Option.none()
  }))

/**
 * A worker's pass as a step, run again after the process died inside it
 * (as a restarted worker polls again), at most twice more and the last time
 * with no crash: a day's passes always end having done their work.
 */
export const pass = <A, E>(log: StepLog, label: string, effect: Effect.Effect<A, E, EngineServices>, describe: (a: A) => string = () => "ok") =>
  Effect.gen(function*() {
    for (let attempt = 1;; attempt++) {
      const crashes = log.crashes
      const done = yield* step(log, label, effect, describe, { crashable: attempt < 3 })
      if (log.crashes === crashes) return done
    }
  })

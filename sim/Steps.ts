/**
 * The record of a run: one line per operation with its outcome, in the
 * order they ran. Two runs of one seed must write the same lines; a line
 * names only what the seed decides (ids from the simulated `Ids`, amounts,
 * error codes), never what the engine draws by itself.
 *
 * An operation that fails with one of its typed errors is part of the
 * workload (a refund above what is left, a late payment of an expired
 * charge); one that dies is a defect of the engine, kept apart.
 */
import { Cause, Effect, Exit, Option } from "effect"

export interface StepLog {
  readonly lines: Array<string>
  readonly defects: Array<string>
  /** Use cases called through `step`, whatever their outcome. */
  operations: number
}

export const makeLog = (): StepLog => ({ lines: [], defects: [], operations: 0 })

const errorCode = (error: unknown) =>
  typeof error === "object" && error !== null && "_tag" in error ? String(error._tag) : "error"

/**
 * Runs `effect` as the step `label`, recording its outcome (`describe` of
 * the value, or `!CODE`); answers the value, or none when it failed.
 */
export const step = <A, E, R>(log: StepLog, label: string, effect: Effect.Effect<A, E, R>, describe: (a: A) => string = () => "ok") =>
  Effect.map(Effect.exit(effect), (exit): Option.Option<A> => {
    log.operations++
    if (Exit.isSuccess(exit)) {
      log.lines.push(`${label} -> ${describe(exit.value)}`)
      return Option.some(exit.value)
    }
    const error = Cause.findErrorOption(exit.cause)
    if (Option.isSome(error)) {
      log.lines.push(`${label} -> !${errorCode(error.value)}`)
    } else {
      log.lines.push(`${label} -> !!defect`)
      log.defects.push(`${label}: ${Cause.pretty(exit.cause)}`)
    }
    return Option.none()
  })

/**
 * The engine's log lines of a run, kept instead of printed: a run prints
 * nothing unless a step fails, and then the lines around it tell why.
 */
import { Cause, Context, Effect, Layer, Logger } from "effect"

export interface LogLine {
  readonly level: string
  readonly message: string
}

const textOf = (message: unknown) => (Array.isArray(message) ? message.map(String).join(" ") : String(message))

export class EngineLog extends Context.Service<EngineLog, {
  /** The lines logged since the last call, oldest first; the store is emptied. */
  readonly take: () => ReadonlyArray<LogLine>
}>()("sim/EngineLog") {
  /** The store, and the logger that fills it in place of the console's. */
  static readonly layer = Layer.unwrap(Effect.sync(() => {
    let lines: Array<LogLine> = []
    const logger = Logger.make((options) => {
      const cause = options.cause.reasons.length === 0 ? "" : `\n${Cause.pretty(options.cause)}`
      lines.push({ level: options.logLevel, message: textOf(options.message) + cause })
    })
    const take = () => {
      const taken = lines
      lines = []
      return taken
    }
    return Layer.merge(Layer.succeed(EngineLog, EngineLog.of({ take })), Logger.layer([logger]))
  }))
}

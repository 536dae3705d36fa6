/**
 * A failure the CLI explains in one line on stderr, with the process exit
 * code it stands for: 2 for a command line that cannot work as written
 * (the Unix convention for usage errors), 1 for everything else.
 */
import { Runtime, Schema } from "effect"

export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String,
  code: Schema.Int
}) {
  override readonly [Runtime.errorExitCode] = this.code
}

/** A command line that cannot work as written. */
export const usageError = (message: string) => new CliFailure({ message, code: 2 })

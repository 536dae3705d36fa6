/**
 * `billing providers check`: loads the providers file, reads each PSP's
 * client certificate and obtains a token from each over mutual TLS, one
 * line per PSP. It does not register the PSPs' callback URLs: their secret
 * lives in the installation's database, which `check` does not open;
 * `billing serve` registers them at start, and the output says so.
 */
import { checkPsp, loadProvidersFile } from "@billing/providers"
import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { CliFailure, usageError } from "../CliFailure.ts"

const CALLBACKS = "webhook: not registered by check; billing serve registers each PSP's callback URL at start"

/** `billing providers check [--file PATH]`. */
const check = Command.make("check", {
  file: Flag.String("file").pipe(
    Flag.withMetavar("PATH"),
    Flag.withDescription("the providers file (default: BILLING_PROVIDERS_FILE)"),
    Flag.optional
  )
}, Effect.fn("Cli.providersCheck")(function*(input) {
  const file = Option.getOrElse(input.file, () => process.env.BILLING_PROVIDERS_FILE ?? "")
  if (file === "") return yield* usageError("no providers file: set BILLING_PROVIDERS_FILE or pass --file PATH")
  const config = yield* loadProvidersFile(file)
  // PSPs are independent: a slow one does not hold the others' lines back more than it must.
  const reports = yield* Effect.forEach(config.pix, checkPsp, { concurrency: 4 })
  for (const report of reports) yield* Console.log(report.line)
  yield* Console.log(CALLBACKS)
  const usable = reports.filter((report) => report.usable).length
  if (usable === 0) return yield* new CliFailure({ message: `no PSP in ${file} is usable`, code: 1 })
  yield* Console.log(`${usable} of ${reports.length} PSPs usable`)
})).pipe(
  Command.withDescription(
    "Load the providers file, read each PSP's certificate (subject, CNPJ, validity) and obtain a token from each; exit 1 when none is usable. The PSPs' callback URLs are registered by billing serve at start"
  )
)

/** `billing providers <check>`. */
export const providers = Command.make("providers").pipe(
  Command.withDescription("Production providers (BILLING_PROVIDERS_FILE)"),
  Command.withSubcommands([check])
)

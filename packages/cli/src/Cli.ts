/**
 * The `billing` command on `effect/cli`: help on every command, `--version`,
 * completions, and failures said in one line on stderr (with the usage only
 * when the command line itself was wrong).
 */
import { Database } from "@billing/adapters-postgres"
import { Console, Effect, Layer, Predicate, Result } from "effect"
import { CliConfig, CliError, CliOutput, Command, GlobalFlag, type HelpDoc } from "effect/cli"
import packageJson from "../package.json" with { type: "json" }
import { CliFailure } from "./CliFailure.ts"
import { loggingConfigFromEnv, LoggingLive } from "./Logging.ts"
import { unsoundRuntime } from "./SoundRuntime.ts"
import { accounts } from "./commands/Accounts.ts"
import { listen } from "./commands/Listen.ts"
import { migrate } from "./commands/Migrate.ts"
import { providers } from "./commands/Providers.ts"
import { runCommand } from "./commands/Run.ts"
import { portInUse, serve } from "./commands/Serve.ts"
import { trigger } from "./commands/Trigger.ts"
import { worker } from "./commands/Worker.ts"

/** The version `billing --version` prints: the `@billing/cli` package's. */
export const version: string = packageJson.version

const environment = [
  "DATABASE_URL        PostgreSQL server; when absent, embedded PGlite in BILLING_DATA_DIR (.data/pglite)",
  "BILLING_DATA_DIR    PGlite data folder; one process opens it, the others go through its socket",
  "PORT                HTTP port of serve (default 3000)",
  "BILLING_DB_POOL     connections to the PostgreSQL server per process (default 20)",
  "BILLING_HTTP_PROCESSES  default of serve --processes (1)",
  "BILLING_SANDBOX_CLIENT_ID, BILLING_SANDBOX_CLIENT_SECRET  when both are set, serve makes sure a sandbox",
  "                    master account with these credentials and every scope exists",
  "BILLING_SECRET_KEY  32 bytes (base64 or hex) sealing the token signing key; required with DATABASE_URL;",
  "                    on PGlite generated into BILLING_DATA_DIR/secret.key when absent",
  "BILLING_TRUSTED_PROXIES  addresses or CIDR networks of reverse proxies whose X-Forwarded-For gives the",
  "                    client address (default: none, the header is ignored)",
  "BILLING_PROVIDERS_FILE  the production providers file (JSON), checked by serve, worker and run at start",
  "BILLING_LOG_FORMAT  pretty (default) or json (one JSON object per line on stdout)",
  "BILLING_LOG_LEVEL   debug, info (default), warn or error"
]

/** The root command: `billing <serve|worker|migrate|accounts|listen|trigger|run|providers>`. */
export const billing = Command.make("billing").pipe(
  Command.withDescription(`The billing engine: Pix, boleto and card charges behind the /v1 API.\n\n  Environment:\n    ${environment.join("\n    ")}`),
  Command.withSubcommands([serve, worker, migrate, accounts, listen, trigger, runCommand, providers])
)

/** `usage: billing accounts create --name NAME --document CPF_OR_CNPJ [--sandbox] ...`, from the help document. */
const usageLine = (doc: HelpDoc.HelpDoc) => {
  const path = (doc.commandPath ?? ["billing"]).join(" ")
  const subcommands = (doc.subcommands ?? []).flatMap((group) => group.commands.map((command) => command.name))
  const flags = doc.flags.map((flag) => {
    const value = flag.type === "boolean" ? `--${flag.name}` : `--${flag.name} ${flag.type}`
    return flag.required ? value : `[${value}]`
  })
  const args = (doc.args ?? []).map((arg) => (arg.required ? `<${arg.name}>` : `[<${arg.name}>]`))
  const parts = [path, ...(subcommands.length > 0 ? [`<${subcommands.join("|")}>`] : []), ...args, ...flags]
  return `usage: ${parts.join(" ")}  (more: ${path} --help)`
}

const firstLine = (text: string) => text.split("\n", 1)[0]!.trim()

/** One line per mistake: the library's messages may add a "Did you mean" paragraph. */
const describeCliError = (error: CliError.NonShowHelpErrors) => {
  switch (error._tag) {
    case "UnrecognizedOption":
      return `unknown flag ${error.option}${error.suggestions.length > 0 ? ` (did you mean ${error.suggestions.join(" or ")}?)` : ""}`
    case "UnknownSubcommand":
      return `unknown command ${error.subcommand}${error.suggestions.length > 0 ? ` (did you mean ${error.suggestions.join(" or ")}?)` : ""}`
    case "InvalidValue": {
      const expected = error.expected.replace(/^Expected:? /, "")
      const what = error.kind === "argument" ? `<${error.option}>` : `--${error.option}`
      return `invalid ${what} "${error.value}": expected ${/number|integer/.test(expected) ? "an integer" : expected.replaceAll("\"", "")}`
    }
    default:
      return firstLine(error.message)
  }
}

/** Help and version on stdout; a wrong command line as one line and its usage on stderr. */
const presenter: CliOutput.Presenter = {
  present: Effect.fnUntraced(function*(event) {
    switch (event._tag) {
      case "Help": {
        const formatter = yield* CliOutput.Formatter
        return yield* Console.log(formatter.formatHelpDoc(event.helpDoc))
      }
      case "Version":
        return yield* Console.log(`${event.name} ${event.version}`)
      case "InvalidInvocation":
        return yield* Console.error(`billing: ${describeCliError(event.errors[0]!)}\n${usageLine(event.helpDoc)}`)
    }
  })
}

/** The one line saying why a command failed, and its exit code. */
const explain = (error: unknown): { readonly message: string; readonly code: number } => {
  if (error instanceof CliFailure) return { message: error.message, code: error.code }
  // Configuration that cannot work: no secret key for a PostgreSQL server, or one that does not open this database's secrets.
  if (Predicate.isTagged(error, "SecretKeyRequired") || Predicate.isTagged(error, "InvalidSecretKey") || Predicate.isTagged(error, "InstallationSecretUnreadable")) {
    return { message: (error as unknown as { readonly message: string }).message, code: 1 }
  }
  // A providers file that cannot be used: its one line names the file and the key.
  if (Predicate.isTagged(error, "ProvidersFileInvalid")) return { message: (error as unknown as { readonly message: string }).message, code: 1 }
  if (error instanceof Database.DataFolderInUse) {
    return { message: `${error.message}; stop it first, or set BILLING_DATA_DIR to another folder`, code: 1 }
  }
  const tagged = error as { readonly _tag?: string; readonly message?: string; readonly cause?: unknown }
  if (tagged._tag === "ServeError") {
    const cause = tagged.cause as NodeJS.ErrnoException & { readonly port?: number }
    if (cause?.code === "EADDRINUSE") return { message: portInUse(cause.port ?? 0), code: 1 }
    if (cause?.code === "EACCES") return { message: `port ${cause.port} needs privileges; try --port above 1023`, code: 1 }
  }
  const detail = firstLine(tagged.message || String(tagged.cause ?? error))
  const cause = rootCause(error)
  const because = cause === error || cause.message === detail ? "" : `: ${firstLine(cause.message)}`
  // "PgConnection: Failed to connect" says little; its cause says why (ECONNREFUSED, no such database).
  if (tagged._tag === "SqlError") return { message: `database: ${cause === error ? detail : firstLine(cause.message)}`, code: 1 }
  return { message: `${tagged._tag === undefined ? "" : `${tagged._tag}: `}${detail}${because}`, code: 1 }
}

/** The innermost error of a `cause` chain: the one that says what actually went wrong. */
const rootCause = (error: unknown) => {
  let current = error as { readonly message: string; readonly cause?: unknown }
  for (let depth = 0; depth < 10; depth++) {
    const next = current.cause as { readonly message?: unknown } | undefined
    if (typeof next !== "object" || next === null || typeof next.message !== "string" || next.message === "") break
    current = next as typeof current
  }
  return current
}

/**
 * Runs `billing` with `args`. Failures are printed here, once, and become
 * the exit code; only defects (bugs) reach the runtime's own report.
 */
export const run = (args: ReadonlyArray<string>) => {
  const unsound = unsoundRuntime()
  if (unsound !== undefined) {
    return Console.error(`billing: ${unsound}`).pipe(Effect.andThen(Effect.sync(() => {
      process.exitCode = 1
    })))
  }
  const logging = loggingConfigFromEnv()
  if (Result.isFailure(logging)) {
    return Console.error(`billing: ${logging.failure}`).pipe(Effect.andThen(Effect.sync(() => {
      process.exitCode = 2
    })))
  }
  return Command.runWith(billing, { version })(args).pipe(
    Effect.catch((error) => {
      if (CliError.isCliError(error) && error._tag === "ShowHelp") {
        // Already presented: the help asked for (0), or a wrong command line (2).
        return Effect.sync(() => {
          process.exitCode = error.errors.length > 0 ? 2 : 0
        })
      }
      const { message, code } = explain(error)
      return Console.error(`billing: ${message}`).pipe(Effect.andThen(Effect.sync(() => {
        process.exitCode = code
      })))
    }),
    Effect.provide(Layer.mergeAll(
      CliOutput.layerPresenter(presenter),
      CliConfig.layer({ builtIns: [GlobalFlag.Help, GlobalFlag.Version, GlobalFlag.Completions] }),
      LoggingLive(logging.success)
    ))
  )
}

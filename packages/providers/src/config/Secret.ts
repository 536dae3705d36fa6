/**
 * A secret in the providers file: written inline, or named as
 * `{ "env": "NAME" }` or `{ "file": "path" }` so the file itself can be
 * committed or shared without it. Resolved once, at load, into a
 * `Redacted` value that never prints.
 */
import { Effect, Redacted, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { readConfigFile } from "./ConfigFiles.ts"
import { invalidAt } from "./ProvidersFileInvalid.ts"

/** An environment variable's name, as shells allow it. */
const EnvName = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "must be an environment variable name" })))

/** A path to a file, absolute or relative to the providers file. */
export const FilePath = Schema.String.pipe(Schema.check(Schema.isNonEmpty({ message: "must be a file path" }), Schema.isMaxLength(4096)))

/** Where the secret comes from, when it is not written inline: exactly one of `env` and `file`. */
const SecretReference = Schema.Struct({
  env: Schema.optionalKey(EnvName),
  file: Schema.optionalKey(FilePath)
}).check(Schema.makeFilter((reference) =>
  (reference.env === undefined) === (reference.file === undefined) ? "give exactly one of env or file" : undefined
))

/** A secret as written in the file: `"inline"`, `{ "env": "NAME" }` or `{ "file": "path" }`. */
export const SecretSource = Schema.Union([Schema.String.pipe(Schema.check(Schema.isNonEmpty({ message: "must not be empty" }))), SecretReference])
export type SecretSource = typeof SecretSource.Type

/** Where relative paths start and which environment secrets are read from. */
export interface ResolveContext {
  /** The folder of the providers file (the working directory for a configuration given as a value). */
  readonly baseDir: string
  readonly env: Readonly<Record<string, string | undefined>>
}

/**
 * The secret's value. A file's trailing line break is dropped: `echo s3cret > file`
 * writes one, and no PSP credential ends with one.
 */
export const resolveSecret = Effect.fnUntraced(function*(source: SecretSource, path: ReadonlyArray<PropertyKey>, context: ResolveContext) {
  if (typeof source === "string") return Redacted.make(source)
  if (source.env !== undefined) {
    const value = context.env[source.env]
    if (value === undefined || value === "") return yield* invalidAt([...path, "env"], `environment variable ${source.env} is not set`)
    return Redacted.make(value)
  }
  const contents = yield* readConfigFile(source.file!, [...path, "file"], context.baseDir, (file) => readFile(file, "utf8"))
  const value = contents.replace(/\r?\n$/, "")
  if (value === "") return yield* invalidAt([...path, "file"], "file is empty")
  return Redacted.make(value)
})

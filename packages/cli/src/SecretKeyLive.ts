/**
 * Where the installation's secret key comes from. `BILLING_SECRET_KEY` when
 * set. Otherwise, on the embedded database, a `secret.key` file in its data
 * folder, generated on first start (mode 600) with one line on stderr
 * saying so; an in-memory database gets a key as short-lived as itself. On a
 * PostgreSQL server there is no such fallback: a server's data is shared by
 * processes on other machines, which could never find a file here, so the
 * engine refuses to start.
 */
import { generateSecretKeyText, InvalidSecretKey, SecretKey } from "@billing/core"
import { Console, Effect, Layer, Schema } from "effect"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { EngineConfig } from "./Engine.ts"

/** `DATABASE_URL` without `BILLING_SECRET_KEY`. */
export class SecretKeyRequired extends Schema.TaggedError<SecretKeyRequired>()("SecretKeyRequired", {
  message: Schema.String
}) {}

/** Name of the generated key file inside the PGlite data folder. */
export const SECRET_KEY_FILE = "secret.key"

export const SecretKeyLive = (config: EngineConfig): Layer.Layer<SecretKey, SecretKeyRequired | InvalidSecretKey> => {
  if (config.secretKey) return SecretKey.fromText(config.secretKey)
  if (config.databaseUrl) {
    return Layer.effect(SecretKey, Effect.fail(new SecretKeyRequired({
      message: "BILLING_SECRET_KEY is required with DATABASE_URL (32 bytes as base64 or hex, e.g. from `openssl rand -base64 32`)"
    })))
  }
  const dataDir = config.dataDir ?? "memory://"
  if (dataDir.startsWith("memory://")) return SecretKey.ephemeral
  return Layer.unwrap(Effect.map(keyFile(join(dataDir, SECRET_KEY_FILE)), SecretKey.fromText))
}

/** Reads the key file, or creates it when there is none; `wx` so two first starts cannot both write one. */
const keyFile = Effect.fnUntraced(function*(path: string) {
  const existing = yield* read(path)
  if (existing !== undefined) return existing
  const text = generateSecretKeyText()
  const created = yield* Effect.try({
    try: () => {
      mkdirSync(join(path, ".."), { recursive: true })
      writeFileSync(path, `${text}\n`, { mode: 0o600, flag: "wx" })
      return true
    },
    catch: (error) => error
  }).pipe(Effect.catch((error) => isCode(error, "EEXIST") ? Effect.succeed(false) : Effect.die(error)))
  if (!created) return (yield* read(path))!
  yield* Console.error(`billing: generated a secret key into ${path} (mode 600): keep it with the data folder, or set BILLING_SECRET_KEY`)
  return text
})

const read = (path: string) =>
  Effect.try({ try: () => readFileSync(path, "utf8"), catch: (error) => error }).pipe(
    Effect.map((text): string | undefined => text),
    Effect.catch((error) => isCode(error, "ENOENT") ? Effect.succeed(undefined) : Effect.die(error))
  )

const isCode = (error: unknown, code: string) =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === code

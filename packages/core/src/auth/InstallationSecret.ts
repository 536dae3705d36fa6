/**
 * A random secret of the installation (the token signing key, a PSP's
 * callback secret): the first process to ask creates it, every process of
 * the installation then reads the same one from the database, and it is kept
 * sealed under the `SecretKey`, so a dump of the database does not reveal
 * it. A clear value left by an older version is sealed in place on the first
 * read that finds it.
 */
import { Effect, Option, Redacted, Schema } from "effect"
import { Ids } from "../ports/Ids.ts"
import { SecretKey } from "../ports/SecretKey.ts"
import { Settings } from "../ports/Settings.ts"
import { deriveSealingKey, isSealed, open, seal, type SealingKey } from "./SecretBox.ts"

/**
 * The secret stored under a setting does not open with the secret key this
 * process was given: another installation's key, or a changed one.
 */
export class InstallationSecretUnreadable extends Schema.TaggedError<InstallationSecretUnreadable>()("InstallationSecretUnreadable", {
  setting: Schema.String,
  message: Schema.String
}) {}

/** The secret (64 hex digits) kept under `setting`, created on first use; the setting is also the context its ciphertext is bound to. */
export const installationSecret = Effect.fn("InstallationSecret.read")(function*(setting: string) {
  const sealing = yield* deriveSealingKey(Redacted.value((yield* SecretKey).material), "settings")
  const candidate = yield* seal(sealing, yield* (yield* Ids).randomHex(32), setting)
  const stored = yield* (yield* Settings).getOrInsert(setting, candidate)
  return isSealed(stored) ? yield* openStored(sealing, setting, stored) : yield* sealInPlace(sealing, setting, stored)
})

const openStored = Effect.fnUntraced(function*(sealing: SealingKey, setting: string, stored: string) {
  const secret = yield* open(sealing, stored, setting)
  if (Option.isNone(secret)) {
    return yield* new InstallationSecretUnreadable({
      setting,
      message: `the ${setting} in this database does not open with BILLING_SECRET_KEY: start with the key this installation was created with`
    })
  }
  return secret.value
})

// Another process may be sealing the same clear value right now: only one
// replacement wins, and the clear secret is the same either way.
const sealInPlace = Effect.fnUntraced(function*(sealing: SealingKey, setting: string, clear: string) {
  yield* (yield* Settings).replace(setting, clear, yield* seal(sealing, clear, setting))
  return clear
})

import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { Ids } from "../ports/Ids.ts"
import { SecretKey } from "../ports/SecretKey.ts"
import { Settings } from "../ports/Settings.ts"
import { importJwtKey, type JwtKey } from "./Jwt.ts"
import { deriveSealingKey, isSealed, open, seal, type SealingKey } from "./SecretBox.ts"

/** Settings key of the sealed HMAC key; also the context its ciphertext is bound to. */
const SETTING = "jwt_signing_key"

/**
 * The signing key stored in this database does not open with the secret key
 * this process was given: another installation's key, or a changed one.
 * Starting anyway would sign tokens no other process accepts.
 */
export class SigningKeyUnreadable extends Schema.TaggedError<SigningKeyUnreadable>()("SigningKeyUnreadable", {
  message: Schema.String
}) {}

/**
 * The HMAC key of access tokens. It lives in the database (first process to
 * start creates it), so every server and worker of one installation accepts
 * the tokens of the others and a restart does not log clients out; it is
 * stored sealed under the `SecretKey`, so a dump of the database cannot sign
 * a token. A clear key left by an older version is sealed in place on the
 * first start that finds it.
 */
export class SigningKey extends Context.Service<SigningKey, { readonly key: JwtKey }>()(
  "@billing/core/auth/SigningKey"
) {
  static readonly layer = Layer.effect(
    SigningKey,
    Effect.gen(function*() {
      const settings = yield* Settings
      const ids = yield* Ids
      const sealing = yield* deriveSealingKey(Redacted.value((yield* SecretKey).material), "settings")
      const candidate = yield* seal(sealing, yield* ids.randomHex(32), SETTING)
      const stored = yield* settings.getOrInsert(SETTING, candidate)
      const secret = isSealed(stored) ? yield* openStored(sealing, stored) : yield* sealInPlace(sealing, stored)
      return SigningKey.of({ key: yield* importJwtKey(secret) })
    })
  )
}

const openStored = Effect.fnUntraced(function*(sealing: SealingKey, stored: string) {
  const secret = yield* open(sealing, stored, SETTING)
  if (Option.isNone(secret)) {
    return yield* new SigningKeyUnreadable({
      message: "the JWT signing key in this database does not open with BILLING_SECRET_KEY: start with the key this installation was created with"
    })
  }
  return secret.value
})

// Another process may be sealing the same clear key right now: only one
// replacement wins, and the clear secret is the same either way.
const sealInPlace = Effect.fnUntraced(function*(sealing: SealingKey, clear: string) {
  const settings = yield* Settings
  yield* settings.replace(SETTING, clear, yield* seal(sealing, clear, SETTING))
  return clear
})

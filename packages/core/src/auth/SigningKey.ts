import { Context, Effect, Layer } from "effect"
import { installationSecret } from "./InstallationSecret.ts"
import { importJwtKey, type JwtKey } from "./Jwt.ts"

/** Settings key of the sealed HMAC key; also the context its ciphertext is bound to. */
const SETTING = "jwt_signing_key"

/**
 * The HMAC key of access tokens. It lives in the database (first process to
 * start creates it), so every server and worker of one installation accepts
 * the tokens of the others and a restart does not log clients out; it is
 * sealed under the `SecretKey` (`InstallationSecret`), so a dump of the
 * database cannot sign a token. Opening it with another installation's key
 * fails the layer (`InstallationSecretUnreadable`): starting anyway would
 * sign tokens no other process accepts.
 */
export class SigningKey extends Context.Service<SigningKey, { readonly key: JwtKey }>()(
  "@billing/core/auth/SigningKey"
) {
  static readonly layer = Layer.effect(
    SigningKey,
    Effect.gen(function*() {
      return SigningKey.of({ key: yield* importJwtKey(yield* installationSecret(SETTING)) })
    })
  )
}

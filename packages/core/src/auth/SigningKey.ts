import { Context, Effect, Layer } from "effect"
import { Ids } from "../ports/Ids.ts"
import { Settings } from "../ports/Settings.ts"
import { importJwtKey, type JwtKey } from "./Jwt.ts"

/**
 * The HMAC key of access tokens. It lives in the database (first process to
 * start creates it), so every server and worker of one installation accepts
 * the tokens of the others and a restart does not log clients out.
 */
export class SigningKey extends Context.Service<SigningKey, { readonly key: JwtKey }>()(
  "@billing/core/auth/SigningKey"
) {
  static readonly layer = Layer.effect(
    SigningKey,
    Effect.gen(function*() {
      const settings = yield* Settings
      const ids = yield* Ids
      const candidate = yield* ids.randomHex(32)
      const secret = yield* settings.getOrInsert("jwt_signing_key", candidate)
      return SigningKey.of({ key: yield* importJwtKey(secret) })
    })
  )
}

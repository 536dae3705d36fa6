/**
 * The providers file's `card` entry: the one card acquirer of the
 * installation. Mercado Pago only for now; `provider` names it so that a
 * second acquirer is one more member of this union, not a new key.
 */
import { Schema } from "effect"
import { SecretSource } from "./Secret.ts"
import { PublicUrl } from "./Urls.ts"

export const MERCADO_PAGO_API = "https://api.mercadopago.com"

const PublicKey = Schema.String.pipe(Schema.check(Schema.isNonEmpty({ message: "must not be empty" }), Schema.isMaxLength(500)))

export const CardEntry = Schema.Struct({
  provider: Schema.Literals(["mercadopago"]).annotate({ message: "must be mercadopago" }),
  /** The application's access token (`APP_USR-…`, `TEST-…` for its test credentials): a secret. */
  accessToken: SecretSource,
  /** The public key, for card tokens (`POST /v1/card_tokens`); public by design, so written inline. */
  publicKey: PublicKey,
  // The same rule as the engine's own URL: https://, or http:// on a loopback host (a test's fake).
  baseUrl: Schema.optionalKey(PublicUrl)
})
export type CardEntry = typeof CardEntry.Type

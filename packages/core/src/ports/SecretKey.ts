import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { generateSecretKeyText, parseSecretKeyText } from "../auth/SecretBox.ts"

/** The secret key given is not 32 bytes in hexadecimal or base64. */
export class InvalidSecretKey extends Schema.TaggedError<InvalidSecretKey>()("InvalidSecretKey", {
  message: Schema.String
}) {}

/**
 * The installation's 32-byte secret key (`BILLING_SECRET_KEY`), under which
 * the core seals what it keeps at rest (the JWT signing key). It never lives
 * in the database: the composition root reads it from the environment or
 * from a file beside the embedded database, and hands it in here.
 *
 * Every process of one installation needs the same key; a process started
 * with another one refuses to start rather than sign with a key it invents.
 */
export class SecretKey extends Context.Service<SecretKey, {
  readonly material: Redacted.Redacted<Uint8Array>
}>()("@billing/core/ports/SecretKey") {
  /** The key written as 64 hexadecimal digits or as base64 of 32 bytes. */
  static readonly fromText = (text: string) =>
    Layer.effect(
      SecretKey,
      Option.match(parseSecretKeyText(text), {
        onNone: () => Effect.fail(new InvalidSecretKey({ message: "BILLING_SECRET_KEY must be 32 bytes, as 64 hex digits or base64" })),
        onSome: (bytes) => Effect.succeed(SecretKey.of({ material: Redacted.make(bytes) }))
      })
    )

  /**
   * A random key that lives as long as the process: only for databases that
   * do not outlive it either (in-memory PGlite in tests and examples).
   */
  static readonly ephemeral = Layer.suspend(() => SecretKey.fromText(generateSecretKeyText())).pipe(Layer.orDie)
}

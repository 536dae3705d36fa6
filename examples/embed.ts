/**
 * The engine as a library inside another Node service: open an account and
 * issue a token without HTTP, on an in-memory PGlite.
 *
 *   node examples/embed.ts
 */
import { Database, StorageLive } from "@billing/adapters-postgres"
import { WebhookTransportFetch } from "@billing/adapters-http"
import { Billing, Ids, SecretKey, SigningKey } from "@billing/core"
import { Effect, Layer } from "effect"

const EngineLive = Layer.mergeAll(SigningKey.layer, WebhookTransportFetch).pipe(
  Layer.provideMerge(Layer.mergeAll(StorageLive, Ids.layer)),
  Layer.provideMerge(Database.MigrationsLive),
  Layer.provideMerge(Database.pglite("memory://")),
  // An in-memory database needs no lasting key; on a real one use SecretKey.fromText(process.env.BILLING_SECRET_KEY).
  Layer.provideMerge(SecretKey.ephemeral)
)

const program = Effect.gen(function*() {
  const account = yield* Billing.createAccount({ name: "Minha Loja", document: "11444777000161", sandbox: true })
  const token = yield* Billing.issueToken({
    grant_type: "client_credentials",
    client_id: account.clientId,
    client_secret: account.clientSecret,
    scope: "webhooks/read"
  })
  console.log({ account: account.accountNumber, expiresIn: token.expires_in })
})

Effect.runPromise(program.pipe(Effect.provide(EngineLive))).catch((error) => {
  console.error(error)
  process.exit(1)
})

import { Effect, Option } from "effect"
import { hashSecret } from "../auth/SecretHash.ts"
import { AllScopes } from "../domain/Scope.ts"
import { ApiClients } from "../ports/ApiClients.ts"
import { Transactor } from "../ports/Transactor.ts"
import { createAccount } from "./CreateAccount.ts"

/**
 * Makes sure a sandbox master account answers to these credentials with every
 * scope: created on first start, its secret and scopes refreshed afterwards,
 * so `BILLING_SANDBOX_CLIENT_ID`/`_SECRET` always work as the README says.
 */
export const ensureSandboxAccount = Effect.fn("Accounts.ensureSandbox")(function*(clientId: string, clientSecret: string) {
  const clients = yield* ApiClients
  const existing = yield* clients.findByClientId(clientId)
  if (Option.isSome(existing)) {
    const transactor = yield* Transactor
    const secretHash = yield* hashSecret(clientSecret)
    yield* transactor.withTransaction(clients.updateCredentials(clientId, secretHash, AllScopes))
    return { accountId: existing.value.accountId, clientId, created: false }
  }
  const created = yield* createAccount({
    name: "Sandbox Merchant",
    document: "11444777000161",
    sandbox: true,
    clientId,
    clientSecret
  })
  return { accountId: created.accountId, clientId, created: true }
})

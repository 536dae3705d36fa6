import { Context, type Effect, type Option } from "effect"
import type { ApiClient } from "../domain/ApiClient.ts"

/** OAuth client credentials of the accounts. */
export class ApiClients extends Context.Service<ApiClients, {
  readonly insert: (client: ApiClient) => Effect.Effect<void>
  readonly findByClientId: (clientId: string) => Effect.Effect<Option.Option<ApiClient>>
  /** Replaces the secret hash and scopes of an existing client. */
  readonly updateCredentials: (clientId: string, secretHash: string, scopes: ReadonlyArray<string>) => Effect.Effect<void>
}>()("@billing/core/ports/ApiClients") {}

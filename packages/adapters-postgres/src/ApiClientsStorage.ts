/** OAuth client credentials on `effect/sql`; scopes are a `jsonb` list. */
import { ApiClient, ApiClients } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { firstOf, orDie } from "./Statements.ts"

const decodeClients = decodeRows(ApiClient)

export const ApiClientsStorageLive = Layer.effect(ApiClients, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return ApiClients.of({
    insert: (c) =>
      orDie(sql`INSERT INTO api_clients (client_id, account_id, secret_hash, scopes, created_at)
        VALUES (${c.clientId}, ${c.accountId}, ${c.secretHash}, ${JSON.stringify(c.scopes)}::jsonb, ${c.createdAt})`),
    findByClientId: (clientId) =>
      orDie(sql`SELECT client_id AS "clientId", account_id AS "accountId", secret_hash AS "secretHash", scopes, created_at AS "createdAt"
        FROM api_clients WHERE client_id = ${clientId}`).pipe(Effect.flatMap(firstOf(decodeClients))),
    updateCredentials: (clientId, secretHash, scopes) =>
      orDie(sql`UPDATE api_clients SET secret_hash = ${secretHash}, scopes = ${JSON.stringify(scopes)}::jsonb WHERE client_id = ${clientId}`)
  })
}))

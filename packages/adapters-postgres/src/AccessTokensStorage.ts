/** Issued access tokens on `effect/sql`: hashes and claims, kept for reuse until they expire. */
import { AccessTokens, IssuedToken } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { firstOf, now, orDie } from "./Statements.ts"

const decodeTokens = decodeRows(IssuedToken)

export const AccessTokensStorageLive = Layer.effect(AccessTokens, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return AccessTokens.of({
    findReusable: (clientId, scopeKey, validAfter) =>
      orDie(sql`SELECT token_hash AS "tokenHash", client_id AS "clientId", scope_key AS "scopeKey", jti,
          issued_at AS "issuedAt", expires_at AS "expiresAt"
        FROM access_tokens
        WHERE client_id = ${clientId} AND scope_key = ${scopeKey} AND expires_at > ${validAfter}
        ORDER BY expires_at DESC LIMIT 1`).pipe(Effect.flatMap(firstOf(decodeTokens))),
    insert: (t) =>
      orDie(sql`INSERT INTO access_tokens (token_hash, client_id, scope_key, jti, issued_at, expires_at)
        VALUES (${t.tokenHash}, ${t.clientId}, ${t.scopeKey}, ${t.jti}, ${t.issuedAt}, ${t.expiresAt})`).pipe(
        // Expired tokens are useless; dropping them here keeps the table at
        // the size of the live tokens without a separate job.
        Effect.andThen(Effect.flatMap(now, (at) => orDie(sql`DELETE FROM access_tokens WHERE client_id = ${t.clientId} AND expires_at < ${at}`)))
      )
  })
}))

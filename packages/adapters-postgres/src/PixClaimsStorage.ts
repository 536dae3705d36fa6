/** Pix key portability claims on `effect/sql`; statuses come from `PixClaimTransitions`. */
import { HOLDING_PIX_CLAIM_STATUSES, OPEN_PIX_CLAIM_STATUSES, PixClaim, PixClaims } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { constants, firstOf, orDie } from "./Statements.ts"

const decodeClaims = decodeRows(PixClaim)

export const PixClaimsStorageLive = Layer.effect(PixClaims, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql`c.id, c.account_id AS "accountId", a.number AS "accountNumber", c.pix_key AS "pixKey", c.pix_key_type AS "pixKeyType",
    c.status, c.resolution_deadline AS "resolutionDeadline", c.created_at AS "createdAt", c.updated_at AS "updatedAt"`
  return PixClaims.of({
    insertOpen: (c) =>
      orDie(sql<{ id: string }>`INSERT INTO pix_claims (id, account_id, pix_key, pix_key_type, status, resolution_deadline, created_at, updated_at)
        VALUES (${c.id}, ${c.accountId}, ${c.pixKey}, ${c.pixKeyType}, ${c.status}, ${c.resolutionDeadline}, ${c.createdAt}, ${c.updatedAt})
        ON CONFLICT (pix_key) WHERE status IN ${constants(sql, OPEN_PIX_CLAIM_STATUSES)} DO NOTHING RETURNING id`).pipe(Effect.map((rows) => rows.length === 1)),
    find: (accountId, id) =>
      orDie(sql`SELECT ${columns} FROM pix_claims c JOIN accounts a ON a.id = c.account_id WHERE c.account_id = ${accountId} AND c.id = ${id}`).pipe(Effect.flatMap(firstOf(decodeClaims))),
    list: (accountId, limit) =>
      orDie(sql`SELECT ${columns} FROM pix_claims c JOIN accounts a ON a.id = c.account_id WHERE c.account_id = ${accountId}
        ORDER BY c.seq DESC LIMIT ${limit}`).pipe(Effect.flatMap(decodeClaims)),
    close: (accountId, id, transition, at) =>
      orDie(sql`UPDATE pix_claims c SET status = ${transition.to}, updated_at = ${at} FROM accounts a
        WHERE c.account_id = ${accountId} AND c.id = ${id} AND c.status IN ${constants(sql, transition.from)} AND a.id = c.account_id
        RETURNING ${columns}`).pipe(Effect.flatMap(firstOf(decodeClaims))),
    holds: (accountId, pixKey) =>
      orDie(sql`SELECT 1 FROM pix_claims WHERE account_id = ${accountId} AND pix_key = ${pixKey}
        AND status IN ${constants(sql, HOLDING_PIX_CLAIM_STATUSES)} LIMIT 1`).pipe(
        Effect.map((rows) => rows.length > 0)
      )
  })
}))

/**
 * The event outbox on `effect/sql`. Bodies are stored as text, written once,
 * so every delivery sends the same bytes; the worker claims unprocessed rows
 * with `FOR UPDATE SKIP LOCKED`.
 */
import { Outbox, OutboxEvent } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { now, run } from "./Statements.ts"

const decodeOutbox = decodeRows(OutboxEvent)

export const OutboxStorageLive = Layer.effect(Outbox, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Outbox.of({
    append: (e) =>
      Effect.flatMap(now, (at) =>
        run(sql`INSERT INTO outbox (account_id, event, body, created_at) VALUES (${e.accountId}, ${e.event}, ${e.body}, ${at})`)),
    appendMany: (events) =>
      events.length === 0 ? Effect.void : Effect.flatMap(now, (at) =>
        run(sql`INSERT INTO outbox (account_id, event, body, created_at)
          VALUES ${sql.csv(events.map((e) => sql`(${e.accountId}, ${e.event}, ${e.body}, ${at})`))}`)),
    claimUnprocessed: (limit) =>
      run(sql`SELECT id::text AS id, account_id AS "accountId", event, body, created_at AS "createdAt" FROM outbox
        WHERE processed_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`).pipe(Effect.flatMap(decodeOutbox)),
    markProcessed: (ids) =>
      ids.length === 0
        ? Effect.void
        : Effect.flatMap(now, (at) => run(sql`UPDATE outbox SET processed_at = ${at} WHERE id IN ${sql.in(ids.map((id) => BigInt(id)))}`))
  })
}))

/**
 * The event outbox on `effect/sql`. Bodies are stored as text, written once,
 * so every delivery sends the same bytes; the worker fans unprocessed rows
 * out with `FOR UPDATE SKIP LOCKED` (`WebhookDeliveriesStorage.fanOut`).
 */
import { Outbox } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { insertRecords, now, orDie } from "./Statements.ts"

export const OutboxStorageLive = Layer.effect(Outbox, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Outbox.of({
    append: (e) =>
      Effect.flatMap(now, (at) =>
        orDie(sql`INSERT INTO outbox (account_id, event, body, created_at) VALUES (${e.accountId}, ${e.event}, ${e.body}, ${at})`)),
    appendMany: (events) =>
      events.length === 0 ? Effect.void : Effect.flatMap(now, (at) =>
        orDie(insertRecords(sql, "outbox", events.map((e) => ({ account_id: e.accountId, event: e.event, body: e.body, created_at: at })))))
  })
}))

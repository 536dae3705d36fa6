import { Notification, Notifications } from "@billing/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { orDie } from "./Statements.ts"

const decodeNotifications = decodeRows(Notification)

/** The e-mail queue of charges on `effect/sql`; claimed with `SKIP LOCKED` like every queue here. */
export const NotificationsStorageLive = Layer.effect(Notifications, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return Notifications.of({
    enqueue: (n, at) =>
      orDie(sql`INSERT INTO notifications (account_id, charge_id, kind, recipient, subject, body, status, created_at)
        VALUES (${n.accountId}, ${n.chargeId}, ${n.kind}, ${n.recipient}, ${n.subject}, ${n.body}, 'pending', ${at})`),
    claimPending: (limit) =>
      orDie(sql`SELECT id::text AS id, account_id AS "accountId", charge_id AS "chargeId", kind, recipient, subject, body FROM notifications
        WHERE status = 'pending' ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`).pipe(Effect.flatMap(decodeNotifications)),
    markSent: (id, at) => orDie(sql`UPDATE notifications SET status = 'sent', sent_at = ${at} WHERE id = ${BigInt(id)}`),
    markFailed: (id, error) => orDie(sql`UPDATE notifications SET status = 'failed', error = ${error} WHERE id = ${BigInt(id)}`)
  })
}))

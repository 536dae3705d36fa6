import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * E-mail notifications of charges (spec: Transparent checkout `notifications`):
 * the kinds asked for on the charge, and one row per message to send,
 * written in the transaction of the change that causes it and sent by the
 * worker through the mailer port.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE charges ADD COLUMN notifications text`
  yield* sql`
    CREATE TABLE notifications (
      id bigserial PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      charge_id text NOT NULL REFERENCES charges (id),
      kind text NOT NULL,
      recipient text NOT NULL,
      subject text NOT NULL,
      body text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      error text,
      created_at timestamptz NOT NULL,
      sent_at timestamptz
    )`
  yield* sql`CREATE INDEX notifications_pending_idx ON notifications (id) WHERE status = 'pending'`
})

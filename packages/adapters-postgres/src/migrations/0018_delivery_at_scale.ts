import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Event delivery at scale (issue 16): each registration's queue read in
 * order by its own index (a dispatcher takes a few of every registration's
 * oldest deliveries at a time); the ordering key of a delivery (the
 * subscription or charge it is about), so that one registration gets one
 * subscription's or charge's events in order; and each registration's
 * delivered and failed counters, kept as results are written.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE webhook_deliveries ADD COLUMN ordering_key text`
  yield* sql`CREATE INDEX webhook_deliveries_queue_idx ON webhook_deliveries (webhook_id, seq) WHERE status IN ('pending', 'sending')`
  // The queue in one order across registrations, which the fair lease no longer reads: one index less to write per delivery.
  yield* sql`DROP INDEX webhook_deliveries_due_idx`
  yield* sql`CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (webhook_id, ordering_key, seq)
    WHERE status IN ('pending', 'sending') AND ordering_key IS NOT NULL`
  yield* sql`
    CREATE TABLE webhook_counters (
      webhook_id text PRIMARY KEY,
      delivered bigint NOT NULL DEFAULT 0,
      failed bigint NOT NULL DEFAULT 0
    )`
  // Counters of the deliveries made before this migration.
  yield* sql`INSERT INTO webhook_counters (webhook_id, delivered, failed)
    SELECT webhook_id, count(*) FILTER (WHERE status = 'delivered'), count(*) FILTER (WHERE status = 'failed')
    FROM webhook_deliveries GROUP BY webhook_id`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Each job of the billing run walks its partial index in the order of one
 * day (issue date, due date, next attempt, end of claim), and thousands of
 * cycles share a day: among them the database returned whichever its heap
 * held first, which a write elsewhere can change. Claims now walk a total
 * order (the day, then the cycle's key), so the same due cycles are claimed
 * in the same order on every run of the same history (a simulation's seed
 * replays on a PostgreSQL server as on PGlite), and each index holds that
 * order, so a claim still reads only the rows it takes.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX billing_cycles_scheduled_idx`
  yield* sql`DROP INDEX billing_cycles_unpaid_idx`
  yield* sql`DROP INDEX billing_cycles_processing_idx`
  yield* sql`DROP INDEX billing_cycles_retry_idx`
  yield* sql`CREATE INDEX billing_cycles_scheduled_idx ON billing_cycles (issue_date, subscription_id, cycle_number)
    WHERE status = 'SCHEDULED' AND held_reason IS NULL`
  yield* sql`CREATE INDEX billing_cycles_unpaid_idx ON billing_cycles (due_date, subscription_id, cycle_number)
    WHERE status IN ('PENDING', 'AWAITING_PAYMENT', 'PROCESSING', 'RETRY_SCHEDULED', 'DUNNING') AND overdue_at IS NULL`
  yield* sql`CREATE INDEX billing_cycles_processing_idx ON billing_cycles (claimed_until, subscription_id, cycle_number) WHERE status = 'PROCESSING'`
  yield* sql`CREATE INDEX billing_cycles_retry_idx ON billing_cycles (next_attempt_on, subscription_id, cycle_number) WHERE status IN ('RETRY_SCHEDULED', 'DUNNING')`
})

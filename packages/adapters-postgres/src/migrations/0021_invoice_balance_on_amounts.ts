import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The invoice balance check (0013) fired for every change of an invoice,
 * though only its total and its discount take part in it: each payment,
 * expiry or overdue mark ran the check's two reads again at commit. It now
 * fires when those change, and for lines only on insert (lines are never
 * changed: `invoice_lines_frozen`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP TRIGGER invoices_balance ON invoices`
  yield* sql`CREATE CONSTRAINT TRIGGER invoices_balance AFTER INSERT OR UPDATE OF total_cents, discount_cents ON invoices
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION invoice_balances('id')`
  yield* sql`DROP TRIGGER invoice_lines_balance ON invoice_lines`
  yield* sql`CREATE CONSTRAINT TRIGGER invoice_lines_balance AFTER INSERT ON invoice_lines
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION invoice_balances('invoice_id')`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * An invoice's lines add up to its total plus its discount, checked once per
 * statement over the invoices it wrote, not row by row at commit. The
 * deferred row checks (0013, 0021) ran three times for an invoice of two
 * lines, each reading both tables: half of what writing a billing run's rows
 * costs the database (the bench's floor). An invoice and its lines are now
 * written by one statement (`insertInvoices`); a statement's AFTER triggers,
 * those of the invoices it inserts in a `WITH` included, run when the whole
 * statement is done, so each sees the invoice with all its lines. What is
 * refused: a statement that leaves an invoice it inserts, changes the
 * amounts of, or adds lines to out of balance. Lines are never changed or
 * deleted (`invoice_lines_frozen`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP TRIGGER invoices_balance ON invoices`
  yield* sql`DROP TRIGGER invoice_lines_balance ON invoice_lines`
  yield* sql`DROP FUNCTION invoice_balances()`
  yield* sql`
    CREATE FUNCTION check_invoice_balances(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      unbalanced record;
    BEGIN
      SELECT i.id, i.total_cents + i.discount_cents AS expected, coalesce(l.lines, 0) AS lines INTO unbalanced
      FROM invoices i LEFT JOIN LATERAL (SELECT sum(net_amount_cents) AS lines FROM invoice_lines WHERE invoice_id = i.id) l ON true
      WHERE i.id = ANY (ids) AND i.total_cents + i.discount_cents IS DISTINCT FROM coalesce(l.lines, 0)
      LIMIT 1;
      IF FOUND THEN
        RAISE EXCEPTION 'invoice % does not balance: lines % against total plus discount %', unbalanced.id, unbalanced.lines, unbalanced.expected
          USING ERRCODE = 'check_violation';
      END IF;
    END $$`
  // As the row checks it replaces (0014): a plan cached while the tables were small must not stay a sequential scan.
  yield* sql`ALTER FUNCTION check_invoice_balances(text[]) SET enable_seqscan = off`
  yield* sql`
    CREATE FUNCTION invoices_inserted_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM check_invoice_balances(ARRAY(SELECT id FROM inserted));
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE FUNCTION invoices_updated_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- A status change (paid, expired, overdue) leaves the amounts as they were: nothing to read.
      PERFORM check_invoice_balances(ARRAY(
        SELECT a.id FROM after a JOIN before b ON b.id = a.id
        WHERE (a.total_cents, a.discount_cents) IS DISTINCT FROM (b.total_cents, b.discount_cents)));
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE FUNCTION invoice_lines_inserted_balance() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM check_invoice_balances(ARRAY(SELECT DISTINCT invoice_id FROM inserted));
      RETURN NULL;
    END $$`
  yield* sql`CREATE TRIGGER invoices_inserted_balance AFTER INSERT ON invoices
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION invoices_inserted_balance()`
  yield* sql`CREATE TRIGGER invoices_updated_balance AFTER UPDATE ON invoices
    REFERENCING OLD TABLE AS before NEW TABLE AS after FOR EACH STATEMENT EXECUTE FUNCTION invoices_updated_balance()`
  yield* sql`CREATE TRIGGER invoice_lines_inserted_balance AFTER INSERT ON invoice_lines
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION invoice_lines_inserted_balance()`
})

import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * A ledger line's entry is checked once per statement, beside the rest of
 * the lines' checks (0015), not by a foreign key row by row. The foreign key's
 * check is a plan each connection caches: made while the ledger was nearly
 * empty, it stayed a sequential scan of `ledger_entries` as the ledger grew,
 * and in a billing run of 100,000 subscriptions (33,000 cards paid, against
 * a ledger analyzed with a handful of entries) the checks of 500 lines took
 * up to 1.4 s, two thirds of the run's database time. The statement looks
 * its entries up by their ids at once (`id = ANY`), with sequential scans off
 * as in the invoice balance check (0014): a plan cached small can then only
 * probe the primary key. (An anti-join, tried first, was planned from the
 * same stale estimate as a scan of the whole index for each statement.)
 * Entries are never updated or deleted (`ledger_append_only`) nor truncated
 * (below), so a line whose entry existed when it was written keeps it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE ledger_lines DROP CONSTRAINT ledger_lines_entry_id_fkey`
  yield* sql`CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries EXECUTE FUNCTION ledger_append_only()`
  yield* sql`
    CREATE FUNCTION ledger_lines_have_entries() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      entries text[];
      missing text;
    BEGIN
      SELECT array_agg(DISTINCT entry_id) INTO entries FROM inserted;
      IF (SELECT count(*) FROM ledger_entries WHERE id = ANY (entries)) < cardinality(entries) THEN
        SELECT u.id INTO missing FROM unnest(entries) AS u (id) WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = u.id) LIMIT 1;
        RAISE EXCEPTION 'a ledger line names entry %, which does not exist', missing USING ERRCODE = 'foreign_key_violation';
      END IF;
      RETURN NULL;
    END $$`
  yield* sql`ALTER FUNCTION ledger_lines_have_entries() SET enable_seqscan = off`
  yield* sql`CREATE TRIGGER ledger_lines_have_entries AFTER INSERT ON ledger_lines
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_have_entries()`
})

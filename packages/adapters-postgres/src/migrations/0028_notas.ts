import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Fiscal invoices (issue 30). What money and the tax office depend on is
 * the database's to hold:
 * - one standing note per charge or standalone reference (a canceled or
 *   replaced one makes room for the next);
 * - a DPS/RPS number is used once per issuer and series, ever: every number
 *   handed out is a row of `nota_dps_numbers`, so a number whose attempt
 *   ended unknown can never be given to another note; each account and
 *   environment numbers apart (an account naming another merchant's CNPJ,
 *   or a sandbox account, must never move that merchant's real numbering),
 *   and every key carries the account, as DESIGN asks of a table to be
 *   distributed by tenant;
 * - a status moves only along `rules/NotaTransitions.ts` (the trigger's
 *   pairs; a test compares them with the table).
 * `nota_schedules` is a charge's fiscal configuration (its `nfConfigId`, or
 * its subscription's) and when its note is owed by the configuration's
 * timing: `due_at` is null until then (paid, for the confirmation timings)
 * and again once the note is emitted; the worker claims due rows like the
 * billing run's cycles.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE notas (
      account_id text NOT NULL REFERENCES accounts (id),
      id text NOT NULL,
      seq bigserial NOT NULL,
      invoice_id text NOT NULL,
      charge_id text,
      subscription_id text,
      cycle_number integer,
      config_id text NOT NULL,
      standard text NOT NULL CHECK (standard IN ('nacional', 'municipal')),
      status text NOT NULL CHECK (status IN ('PROCESSING', 'ISSUED', 'AUTHORIZED', 'FAILED', 'ERROR', 'CANCELED', 'REPLACED')),
      environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
      issuer_cnpj text NOT NULL,
      serie text NOT NULL,
      dps_number bigint NOT NULL CHECK (dps_number >= 1),
      numero text,
      chave_acesso text,
      amount bigint NOT NULL CHECK (amount > 0),
      descricao text NOT NULL,
      tomador jsonb NOT NULL,
      errors jsonb NOT NULL DEFAULT '[]',
      xml text,
      cancel_reason text,
      replaced_by text,
      issued_at timestamptz NOT NULL,
      authorized_at timestamptz,
      canceled_at timestamptz,
      claimed_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (status NOT IN ('ISSUED', 'AUTHORIZED') OR numero IS NOT NULL),
      CHECK (status <> 'CANCELED' OR (cancel_reason IS NOT NULL AND canceled_at IS NOT NULL)),
      CHECK (status <> 'REPLACED' OR replaced_by IS NOT NULL),
      PRIMARY KEY (account_id, id),
      UNIQUE (account_id, seq),
      FOREIGN KEY (account_id, replaced_by) REFERENCES notas (account_id, id) DEFERRABLE INITIALLY DEFERRED
    )`
  yield* sql`CREATE UNIQUE INDEX notas_one_standing ON notas (account_id, invoice_id) WHERE status NOT IN ('CANCELED', 'REPLACED')`
  yield* sql`CREATE UNIQUE INDEX notas_one_dps ON notas (account_id, environment, issuer_cnpj, serie, dps_number)`
  yield* sql`CREATE INDEX notas_list ON notas (account_id, seq DESC)`
  // What the routes' ids name: an invoice id, a cycle's charge id.
  yield* sql`CREATE INDEX notas_by_invoice ON notas (account_id, invoice_id)`
  yield* sql`CREATE INDEX notas_by_charge ON notas (account_id, charge_id) WHERE charge_id IS NOT NULL`
  yield* sql`CREATE INDEX notas_processing ON notas (updated_at) WHERE status = 'PROCESSING'`
  yield* sql`
    CREATE TABLE nota_dps_numbers (
      account_id text NOT NULL,
      environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
      issuer_cnpj text NOT NULL,
      serie text NOT NULL,
      dps_number bigint NOT NULL CHECK (dps_number >= 1),
      nota_id text NOT NULL,
      PRIMARY KEY (account_id, environment, issuer_cnpj, serie, dps_number),
      FOREIGN KEY (account_id, nota_id) REFERENCES notas (account_id, id) DEFERRABLE INITIALLY DEFERRED
    )`
  yield* sql`CREATE FUNCTION nota_status_moves() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status = OLD.status OR (OLD.status, NEW.status) IN (
        ('PROCESSING', 'ISSUED'), ('PROCESSING', 'AUTHORIZED'), ('PROCESSING', 'FAILED'), ('PROCESSING', 'ERROR'),
        ('FAILED', 'PROCESSING'), ('ERROR', 'PROCESSING'),
        ('ISSUED', 'CANCELED'), ('AUTHORIZED', 'CANCELED'), ('ISSUED', 'REPLACED'), ('AUTHORIZED', 'REPLACED')
      ) THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'nota % cannot move from % to %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
    END $$`
  yield* sql`CREATE TRIGGER nota_status_moves BEFORE UPDATE OF status ON notas FOR EACH ROW EXECUTE FUNCTION nota_status_moves()`
  yield* sql`
    CREATE TABLE nota_schedules (
      account_id text NOT NULL REFERENCES accounts (id),
      charge_id text NOT NULL,
      config_id text NOT NULL,
      due_at timestamptz,
      claimed_until timestamptz,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, charge_id)
    )`
  yield* sql`CREATE INDEX nota_schedules_due ON nota_schedules (due_at) WHERE due_at IS NOT NULL`
})

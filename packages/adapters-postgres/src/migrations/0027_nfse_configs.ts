import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Issuer configurations of fiscal invoices (issue 30). The settings are one
 * JSON document (the spec's fields, validated by the core's schema); the
 * A1 certificate, its password and the city portal's password are sealed
 * under the installation key, bound to the row and the field, so a dump
 * alone can sign no note. The certificate's CNPJ and expiry are kept in
 * clear beside them: what a response and a later CNPJ change check.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE nfse_configs (
      account_id text NOT NULL REFERENCES accounts (id),
      id text NOT NULL,
      settings text NOT NULL,
      certificate_pfx text NOT NULL CHECK (certificate_pfx LIKE 'sealed:%'),
      certificate_password text NOT NULL CHECK (certificate_password LIKE 'sealed:%'),
      certificate_cnpj text NOT NULL,
      certificate_expires_at timestamptz NOT NULL,
      prefeitura_senha text CHECK (prefeitura_senha LIKE 'sealed:%'),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (account_id, id)
    )`
})

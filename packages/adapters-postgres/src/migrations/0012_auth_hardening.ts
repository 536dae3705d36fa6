import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Nothing in a dump mints a token. `access_tokens` keeps the SHA-256 of each
 * token and the claims to sign it again for reuse, never the token: the old
 * rows (tokens in clear) are dropped rather than converted, which costs only
 * reuse (the tokens themselves stay valid until they expire; a client's next
 * token request gets a new one). The signing key in `settings` is sealed by
 * the engine at its next start, since sealing needs the secret key that
 * migrations do not have.
 *
 * `attempt_counters` holds the throttle of the token route: one row per
 * client id or address, its attempts and the start of its window, updated
 * atomically by every server of the installation.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP TABLE access_tokens`
  yield* sql`
    CREATE TABLE access_tokens (
      token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
      client_id text NOT NULL REFERENCES api_clients (client_id) ON DELETE CASCADE,
      scope_key text NOT NULL,
      jti text NOT NULL,
      issued_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL CHECK (expires_at > issued_at)
    )`
  yield* sql`CREATE INDEX access_tokens_reuse_idx ON access_tokens (client_id, scope_key, expires_at DESC)`
  yield* sql`
    CREATE TABLE attempt_counters (
      key text PRIMARY KEY,
      attempts integer NOT NULL CHECK (attempts >= 0),
      window_start timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX attempt_counters_window_idx ON attempt_counters (window_start)`
})

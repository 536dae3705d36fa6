/**
 * Issuer configurations of fiscal invoices on `effect/sql`: the settings as
 * one JSON document, the secrets (A1 certificate, its password, the city
 * portal's password) AES-GCM-sealed under a key derived from the
 * installation's secret key (purpose `nfse-configs`), each bound to its
 * configuration and field, as the webhook secrets are: a dump alone signs no
 * note, and a sealed value moved to another row or field does not open.
 */
import { AccountId, type NfseConfig, NfseConfigId, NfseConfigs, NfseSettings, SecretBox, SecretKey } from "@billing/core"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { decodeRows } from "./Rows.ts"
import { orDie } from "./Statements.ts"

const ConfigRow = Schema.Struct({
  id: NfseConfigId,
  accountId: AccountId,
  settings: Schema.fromJsonString(NfseSettings),
  certificatePfx: Schema.String,
  certificatePassword: Schema.String,
  certificateCnpj: Schema.String,
  certificateExpiresAt: Schema.Date,
  prefeituraSenha: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  updatedAt: Schema.Date
})
const decodeConfigs = decodeRows(ConfigRow)

type SecretField = "certificate_pfx" | "certificate_password" | "prefeitura_senha"

export const NfseConfigsStorageLive = Layer.effect(NfseConfigs, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const key = yield* SecretBox.deriveSealingKey(Redacted.value((yield* SecretKey).material), "nfse-configs")
  const context = (id: string, field: SecretField) => `nfse_config:${id}:${field}`
  const seal = (id: string, field: SecretField, value: Redacted.Redacted<string>) => SecretBox.seal(key, Redacted.value(value), context(id, field))
  // A value that does not open was altered or sealed under another key: the row cannot be used, which is a defect.
  const open = (id: string, field: SecretField, sealed: string) =>
    Effect.flatMap(SecretBox.open(key, sealed, context(id, field)), Option.match({
      onNone: () => Effect.die(new Error(`the ${field} of fiscal configuration ${id} does not open with BILLING_SECRET_KEY`)),
      onSome: (value) => Effect.succeed(Redacted.make(value))
    }))
  const sealed = (c: NfseConfig) =>
    Effect.all({
      pfx: seal(c.id, "certificate_pfx", c.certificate.pfxBase64),
      password: seal(c.id, "certificate_password", c.certificate.password),
      senha: Option.match(c.prefeituraSenha, { onNone: () => Effect.succeed(null), onSome: (senha) => seal(c.id, "prefeitura_senha", senha) })
    })
  const opened = (rows: ReadonlyArray<unknown>) =>
    Effect.flatMap(decodeConfigs(rows), (configs) =>
      Effect.forEach(configs, (r) =>
        Effect.all({
          pfxBase64: open(r.id, "certificate_pfx", r.certificatePfx),
          password: open(r.id, "certificate_password", r.certificatePassword),
          senha: r.prefeituraSenha === null ? Effect.succeed(null) : open(r.id, "prefeitura_senha", r.prefeituraSenha)
        }).pipe(Effect.map(({ password, pfxBase64, senha }): NfseConfig => ({
          id: r.id,
          accountId: r.accountId,
          settings: r.settings,
          certificate: { pfxBase64, password, cnpj: r.certificateCnpj, expiresAt: r.certificateExpiresAt },
          prefeituraSenha: Option.fromNullishOr(senha),
          createdAt: r.createdAt,
          updatedAt: r.updatedAt
        })))))
  const columns = sql`id, account_id AS "accountId", settings, certificate_pfx AS "certificatePfx",
    certificate_password AS "certificatePassword", certificate_cnpj AS "certificateCnpj",
    certificate_expires_at AS "certificateExpiresAt", prefeitura_senha AS "prefeituraSenha",
    created_at AS "createdAt", updated_at AS "updatedAt"`
  const settingsText = (c: NfseConfig) => JSON.stringify(c.settings)
  const findOne = (accountId: AccountId, id: string, kept: Statement.Fragment) =>
    orDie(sql`SELECT ${columns} FROM nfse_configs WHERE account_id = ${accountId} AND id = ${id} ${kept}`).pipe(
      Effect.flatMap(opened),
      Effect.map((rows) => Option.fromNullishOr(rows[0]))
    )

  return NfseConfigs.of({
    insert: (c) =>
      Effect.flatMap(sealed(c), ({ password, pfx, senha }) =>
        orDie(sql`INSERT INTO nfse_configs (account_id, id, settings, certificate_pfx, certificate_password, certificate_cnpj,
            certificate_expires_at, prefeitura_senha, created_at, updated_at)
          VALUES (${c.accountId}, ${c.id}, ${settingsText(c)}, ${pfx}, ${password}, ${c.certificate.cnpj},
            ${c.certificate.expiresAt}, ${senha}, ${c.createdAt}, ${c.updatedAt})`)),
    update: (c) =>
      Effect.flatMap(sealed(c), ({ password, pfx, senha }) =>
        orDie(sql<{ id: string }>`UPDATE nfse_configs SET settings = ${settingsText(c)}, certificate_pfx = ${pfx},
            certificate_password = ${password}, certificate_cnpj = ${c.certificate.cnpj},
            certificate_expires_at = ${c.certificate.expiresAt}, prefeitura_senha = ${senha}, updated_at = ${c.updatedAt}
          WHERE account_id = ${c.accountId} AND id = ${c.id} AND removed_at IS NULL RETURNING id`).pipe(Effect.map((rows) => rows.length > 0))),
    find: (accountId, id) => findOne(accountId, id, sql`AND removed_at IS NULL`),
    findForNotes: (accountId, id) => findOne(accountId, id, sql``),
    list: (accountId) =>
      orDie(sql`SELECT ${columns} FROM nfse_configs WHERE account_id = ${accountId} AND removed_at IS NULL ORDER BY created_at, id`).pipe(
        Effect.flatMap(opened)
      ),
    remove: (accountId, id, at) =>
      orDie(sql<{ id: string }>`UPDATE nfse_configs SET removed_at = ${at} WHERE account_id = ${accountId} AND id = ${id} AND removed_at IS NULL
        RETURNING id`).pipe(Effect.map((rows) => rows.length > 0))
  })
}))

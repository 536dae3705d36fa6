/**
 * Sub-account proposals on `effect/sql`; the onboarding job claims the ones
 * `OnboardingClaim` takes with a lease and `SKIP LOCKED`. Statuses are
 * written in as constants: the live-document unique index and the claim's
 * partial index (migration 0017) name them, and a statement matches them
 * only so.
 */
import { OnboardingClaim, Proposal, ProposalForm, Proposals, REPROVED_STAGE_STATUSES } from "@billing/core"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { CentsColumn, decodeRows } from "./Rows.ts"
import { constants, expireClaimsById, first, firstOf, inScope, orDie } from "./Statements.ts"

const columns = (sql: SqlClient.SqlClient) =>
  sql`id, account_id AS "accountId", type, document_number AS "documentNumber", form, form_status AS "formStatus",
    pending_fields AS "pendingFields", background_check AS "backgroundCheck", documents_copy AS "documentsCopy", proposal, account, reason,
    onboarding_id AS "onboardingId", documents_token AS "documentsToken", documents_sent_at AS "documentsSentAt",
    sub_account_id AS "subAccountId", webhook_id AS "webhookId", created_at AS "createdAt", updated_at AS "updatedAt"`

const FormJson = Schema.fromJsonString(ProposalForm)
const FieldsJson = Schema.fromJsonString(Schema.Array(Schema.String))
const decodeProposals = decodeRows(Proposal.mapFields((fields) => ({ ...fields, form: FormJson, pendingFields: FieldsJson })))
const encodeForm = Schema.encodeSync(FormJson)
const encodeFields = Schema.encodeSync(FieldsJson)

/** Not reproved at any stage: the proposal still leads somewhere (`isLiveProposal`). */
const live = (sql: SqlClient.SqlClient) => {
  const reproved = constants(sql, REPROVED_STAGE_STATUSES)
  return sql`background_check NOT IN ${reproved} AND documents_copy NOT IN ${reproved} AND proposal NOT IN ${reproved}`
}

/** The proposals the onboarding job takes, but for the lease and the scope (`onboardingTakes`). */
const takenByOnboarding = (sql: SqlClient.SqlClient) =>
  sql`form_status IN ${constants(sql, OnboardingClaim.formStatuses)} AND account IN ${constants(sql, OnboardingClaim.accountStatuses)}
    AND ${live(sql)}
    AND (background_check IN ${constants(sql, OnboardingClaim.backgroundCheckStatuses)}
      OR documents_copy IN ${constants(sql, OnboardingClaim.documentsCopyStatuses)} OR documents_sent_at IS NOT NULL)`

export const ProposalsStorageLive = Layer.effect(Proposals, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const select = (where: Statement.Fragment, suffix: Statement.Fragment = sql``) =>
    orDie(sql`SELECT ${columns(sql)} FROM proposals WHERE ${where} ${suffix}`).pipe(Effect.flatMap(decodeProposals))
  const values = (p: Proposal) => ({
    form: encodeForm(p.form),
    pending: encodeFields(p.pendingFields)
  })
  return Proposals.of({
    insert: (p) => {
      const { form, pending } = values(p)
      return orDie(sql`INSERT INTO proposals (id, account_id, type, document_number, form, form_status, pending_fields, background_check,
        documents_copy, proposal, account, reason, onboarding_id, documents_token, documents_sent_at, sub_account_id, webhook_id, created_at, updated_at)
        VALUES (${p.id}, ${p.accountId}, ${p.type}, ${p.documentNumber}, ${form}, ${p.formStatus}, ${pending}, ${p.backgroundCheck},
        ${p.documentsCopy}, ${p.proposal}, ${p.account}, ${p.reason}, ${p.onboardingId}, ${p.documentsToken}, ${p.documentsSentAt},
        ${p.subAccountId}, ${p.webhookId}, ${p.createdAt}, ${p.updatedAt})
        ON CONFLICT (account_id, document_number) WHERE ${live(sql)} DO NOTHING RETURNING id`).pipe(Effect.map((rows) => rows.length === 1))
    },
    update: (p) => {
      const { form, pending } = values(p)
      return orDie(sql`UPDATE proposals SET form = ${form}, form_status = ${p.formStatus}, pending_fields = ${pending},
        background_check = ${p.backgroundCheck}, documents_copy = ${p.documentsCopy}, proposal = ${p.proposal}, account = ${p.account},
        reason = ${p.reason}, onboarding_id = ${p.onboardingId}, documents_sent_at = ${p.documentsSentAt}, sub_account_id = ${p.subAccountId},
        webhook_id = ${p.webhookId}, updated_at = ${p.updatedAt}
        WHERE id = ${p.id}`)
    },
    release: (formId) => orDie(sql`UPDATE proposals SET claimed_until = NULL WHERE id = ${formId}`),
    find: (accountId, formId) => select(sql`account_id = ${accountId} AND id = ${formId}`).pipe(Effect.map(first)),
    lock: (accountId, formId) => select(sql`account_id = ${accountId} AND id = ${formId}`, sql`FOR UPDATE`).pipe(Effect.map(first)),
    lockLiveOf: (accountId, documentNumber) =>
      select(sql`account_id = ${accountId} AND document_number = ${documentNumber} AND ${live(sql)}`, sql`FOR UPDATE`).pipe(Effect.map(first)),
    findByDocumentsToken: (token) => select(sql`documents_token = ${token}`).pipe(Effect.map(first)),
    onboardingsOf: (subAccountIds) =>
      subAccountIds.length === 0 ? Effect.succeed([]) : orDie(sql<{ subAccountId: string; onboardingId: string }>`SELECT sub_account_id AS "subAccountId",
        onboarding_id AS "onboardingId" FROM proposals WHERE sub_account_id IN ${sql.in([...subAccountIds])}`),
    openingFeeOf: (masterId) =>
      orDie(sql`SELECT opening_fee_cents AS fee FROM subaccount_fees WHERE account_id = ${masterId}`).pipe(
        Effect.flatMap(firstOf(decodeRows(Schema.Struct({ fee: CentsColumn })))),
        Effect.map(Option.map((row) => row.fee))
      ),
    expireClaims: expireClaimsById(sql, "proposals"),
    claimDue: (limit, scope, at, leaseMillis) =>
      orDie(sql`WITH claimable AS (
          SELECT id AS claimed_id FROM proposals
          WHERE ${takenByOnboarding(sql)}
            AND (claimed_until IS NULL OR claimed_until < ${at})
            AND ${inScope(sql, scope, sql`proposals.account_id`)}
          ORDER BY updated_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        UPDATE proposals SET claimed_until = ${new Date(at.getTime() + leaseMillis)} FROM claimable WHERE proposals.id = claimable.claimed_id
        RETURNING ${columns(sql)}`).pipe(Effect.flatMap(decodeProposals))
  })
}))

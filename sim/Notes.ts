/**
 * The merchants' fiscal notes: on day 0 each opens national configurations
 * of every timing with its e-CNPJ certificate (`IMMEDIATE`,
 * `AFTER_CONFIRMATION`, `DAYS_AFTER_CONFIRMATION`), which its purchases name
 * (`Purchases.ts`); then it issues standalone notes (some whose description
 * the city refuses: `[recusar]`), emits a paid charge's note by hand,
 * cancels issued notes and reissues refused ones (with the description
 * mended) or issued ones (a replacement).
 */
import { Billing, EmitNotaRequest, NfseConfigInput, ReissueNotaRequest, SANDBOX_REFUSAL_MARK, StandaloneNotaRequest } from "@billing/core"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { issuerCertificate } from "./Certificates.ts"
import { buyer } from "./People.ts"
import * as Random from "./Random.ts"
import { step } from "./Steps.ts"
import { START } from "./World.ts"
import { as, decode, type Merchant, type Workload } from "./Workload.ts"

/** Florianópolis: on the national system, so a production account's notes can be issued there. */
const CITY = "4205407"

const TIMINGS = [
  { invoiceTiming: "IMMEDIATE" },
  { invoiceTiming: "AFTER_CONFIRMATION" },
  { invoiceTiming: "DAYS_AFTER_CONFIRMATION", daysAfterConfirmation: 2 }
] as const

/** A national configuration of an ME/EPP in the Simples Nacional, issued with the merchant's own certificate. */
const configBody = (m: Merchant, timing: (typeof TIMINGS)[number]) => {
  const certificate = issuerCertificate(m.document, START)
  return {
    config_name: `Serviços ${m.number} ${timing.invoiceTiming}`,
    codigo_tributacao_nacional_iss: "010701",
    tributacao_iss: 1,
    tipo_retencao_iss: 1,
    percentual_total_tributos_simples_nacional: 6,
    descricao_servico: "Consultoria em sistemas",
    prestador: { codigo_municipio: CITY, codigo_opcao_simples_nacional: 3, regime_especial_tributacao: 0 },
    certificate: { pfx_base64: certificate.pfxBase64, password: certificate.password },
    ...timing
  }
}

/** Day 0: the merchant's configurations, one per timing. */
export const createConfigs = Effect.fn("Notes.createConfigs")(function*(w: Workload, m: Merchant) {
  for (const timing of TIMINGS) {
    const created = yield* step(w.log, `  nf config ${timing.invoiceTiming} of ${m.accountId}`, Effect.flatMap(decode(NfseConfigInput, configBody(m, timing)), Billing.createNfseConfig).pipe(as(m)), (c) => c.id, { crashable: false })
    if (Option.isSome(created)) m.configs.push(created.value.id)
  }
})

/** A standalone note (`POST /v1/invoices/notas`) for a buyer, now and then one the city refuses. */
export const standalone = Effect.fn("Notes.standalone")(function*(w: Workload, m: Merchant) {
  if (m.configs.length === 0) return
  const person = buyer(w.random, ++w.buyers)
  const refused = Random.chance(w.random, 0.2)
  const request = {
    customer: { document: person.documentNumber, name: person.name, email: person.email, address: person.address },
    amount: Random.int(w.random, 1_000, 200_000) / 100,
    descricao: refused ? `Consultoria avulsa ${SANDBOX_REFUSAL_MARK}` : "Consultoria avulsa",
    configId: Random.pick(w.random, m.configs),
    ref: `nota-${m.number}-${++w.notes}`
  }
  yield* step(w.log, `nota ${request.ref} ${request.amount} of ${m.accountId}`, Effect.flatMap(decode(StandaloneNotaRequest, request), Billing.emitStandaloneNota).pipe(as(m)), (n) => `${n.status} ${n.numero ?? "-"}`)
})

type Follow = "cancel" | "reissue" | "emit"

/** What the merchant does next with its notes: cancels an issued one, reissues a refused or issued one, or emits a paid charge's. */
export const followUp = Effect.fn("Notes.followUp")(function*(w: Workload, m: Merchant) {
  const sql = yield* SqlClient.SqlClient
  const notes = yield* sql<{ invoiceId: string; status: string }>`
    SELECT invoice_id AS "invoiceId", status FROM notas WHERE account_id = ${m.accountId} AND status IN ('ISSUED', 'AUTHORIZED', 'FAILED', 'ERROR') ORDER BY id`.pipe(Effect.orDie)
  const kind = Random.pick(w.random, ["cancel", "reissue", "emit"] as const satisfies ReadonlyArray<Follow>)
  if (kind === "emit") return yield* emitForCharge(w, m)
  if (notes.length === 0) return void w.log.lines.push(`nota ${kind}: no note at ${m.accountId}`)
  const note = Random.pick(w.random, notes)
  const issued = note.status === "ISSUED" || note.status === "AUTHORIZED"
  if (kind === "cancel") {
    return yield* step(w.log, `cancel nota ${note.invoiceId} (${note.status})`, Billing.cancelNota(note.invoiceId, "Serviço não prestado ao tomador").pipe(as(m)), (n) => n.status)
  }
  const body = issued ? {} : { descricao: "Consultoria avulsa (descrição corrigida)" }
  yield* step(w.log, `reissue nota ${note.invoiceId} (${note.status})`, Effect.flatMap(decode(ReissueNotaRequest, body), (r) => Billing.reissueNota(note.invoiceId, r)).pipe(as(m)), (n) =>
    `${n.status} ${n.numero ?? "-"}`)
})

/** `emitir` of a paid charge of the merchant with a buyer, by one of its configurations (refused when its note stands or is scheduled). */
const emitForCharge = Effect.fn("Notes.emitForCharge")(function*(w: Workload, m: Merchant) {
  const sql = yield* SqlClient.SqlClient
  const paid = yield* sql<{ id: string }>`
    SELECT id FROM charges WHERE account_id = ${m.accountId} AND status = 'PAID' AND customer IS NOT NULL ORDER BY id`.pipe(Effect.orDie)
  if (paid.length === 0 || m.configs.length === 0) return void w.log.lines.push(`nota emit: no paid charge at ${m.accountId}`)
  const chargeId = Random.pick(w.random, paid).id
  const body = { configId: Random.pick(w.random, m.configs) }
  yield* step(w.log, `emit nota of ${chargeId}`, Effect.flatMap(decode(EmitNotaRequest, body), (r) => Billing.emitChargeNota(chargeId, r)).pipe(as(m)), (n) => `${n.status} ${n.numero ?? "-"}`)
})

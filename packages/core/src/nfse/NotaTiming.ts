/**
 * Notes by their configuration's timing (spec: Fiscal configuration,
 * `invoiceTiming`): `IMMEDIATE` when the charge is created,
 * `AFTER_CONFIRMATION` when it is paid, `DAYS_AFTER_CONFIRMATION` that many
 * days after. A charge records its configuration when it is made (its
 * `nfConfigId`) or paid (its subscription's); the worker emits what is due
 * and asks the city about notes it has not answered. Each claims its rows
 * with a lease, so several workers emit each note once.
 */
import { Clock, Effect, Option } from "effect"
import type { Account } from "../domain/Account.ts"
import type { Charge } from "../domain/Charge.ts"
import type { NfseSettings } from "../domain/NfseConfig.ts"
import type { Nota } from "../domain/Nota.ts"
import { EVERY_ACCOUNT, type RunScope } from "../domain/RunScope.ts"
import { Accounts } from "../ports/Accounts.ts"
import { Charges } from "../ports/Charges.ts"
import { NfseConfigs } from "../ports/NfseConfigs.ts"
import { NfseProvider } from "../ports/NfseProvider.ts"
import { type NotaSchedule, Notas } from "../ports/Notas.ts"
import { NotaTransitions } from "../rules/NotaTransitions.ts"
import { canonicalConfigId } from "./Configs.ts"
import { emitNew, recordNew, recordOutcome, send, toIssue } from "./NotaAttempt.ts"
import { configNamed, EMITTABLE_CHARGE_STATUSES, pendenciasOf, tomadorOf } from "./Notas.ts"

const DAY_MILLIS = 86_400_000

/** How long a worker holds a claimed schedule or note before another may take it. */
const NOTA_LEASE_MILLIS = 60_000

/**
 * How long a first send to the city may still be in flight (the national
 * system's calls wait up to 120 s with their retries): a note not recorded
 * as sent is asked about, and sent again under its number, only after it.
 */
const NOTA_SEND_MILLIS = 180_000

/** When a charge's note is owed under `settings`: at `createdAt`, or after `paidAt` (null: not yet). */
export const noteDueAt = (settings: Pick<NfseSettings, "invoiceTiming" | "daysAfterConfirmation">, createdAt: Date, paidAt: Date | null): Date | null => {
  switch (settings.invoiceTiming) {
    case "IMMEDIATE":
      return createdAt
    case "AFTER_CONFIRMATION":
      return paidAt
    case "DAYS_AFTER_CONFIRMATION":
      return paidAt === null ? null : new Date(paidAt.getTime() + settings.daysAfterConfirmation * DAY_MILLIS)
  }
}

/**
 * Records that `charge` is owed a note under configuration `configId` (its
 * `nfConfigId`), due by the configuration's timing; `NF_CONFIG_NOT_FOUND`
 * (and nothing recorded: call in the charge's transaction) when the account
 * has no such configuration.
 */
export const scheduleChargeNota = Effect.fn("Notas.scheduleCharge")(function*(charge: Charge, configId: string) {
  const config = yield* configNamed(charge.accountId, configId)
  const at = new Date(yield* Clock.currentTimeMillis)
  yield* (yield* Notas).schedule({
    accountId: charge.accountId,
    chargeId: charge.id,
    configId: config.id,
    dueAt: config.settings.enabled ? noteDueAt(config.settings, charge.createdAt, charge.paidAt) : null
  }, at)
})

/** The note owed to one paid charge: its own schedule, else its subscription's configuration. */
const owedOnPayment = Effect.fnUntraced(function*(charge: Charge, schedule: NotaSchedule | undefined, paidAt: Date) {
  const notas = yield* Notas
  const configId = schedule?.configId ?? (charge.subscriptionId === null
    ? null
    : Option.getOrNull(Option.flatMap(yield* notas.subjectOf(charge.accountId, charge.id), (s) => Option.fromNullishOr(s.subscriptionConfigId))))
  if (configId === null) return
  const config = yield* (yield* NfseConfigs).find(charge.accountId, canonicalConfigId(configId))
  if (Option.isNone(config) || !config.value.settings.enabled) return
  const dueAt = noteDueAt(config.value.settings, charge.createdAt, paidAt)
  if (schedule === undefined) yield* notas.schedule({ accountId: charge.accountId, chargeId: charge.id, configId: config.value.id, dueAt }, paidAt)
  else if (schedule.dueAt === null && config.value.settings.invoiceTiming !== "IMMEDIATE") {
    yield* notas.setDue([{ accountId: charge.accountId, chargeId: charge.id, dueAt }])
  }
})

/** Sets the notes paid charges are owed (called as they are confirmed, in their transaction). */
export const notasOwedOnPayment = Effect.fn("Notas.owedOnPayment")(function*(charges: ReadonlyArray<Charge>, paidAt: Date) {
  if (charges.length === 0) return
  const schedules = yield* (yield* Notas).schedulesOf(charges.map((c) => ({ accountId: c.accountId, chargeId: c.id })))
  yield* Effect.forEach(charges, (charge) =>
    owedOnPayment(charge, schedules.find((s) => s.chargeId === charge.id && s.accountId === charge.accountId), paidAt), { discard: true })
})

/** Emits the note one schedule owes; a note that cannot be made records why (`ERROR`), and the schedule is done either way. */
const emitScheduled = Effect.fnUntraced(function*(schedule: NotaSchedule) {
  const notas = yield* Notas
  const done = notas.setDue([{ accountId: schedule.accountId, chargeId: schedule.chargeId, dueAt: null }])
  const config = yield* (yield* NfseConfigs).find(schedule.accountId, schedule.configId)
  const charge = yield* (yield* Charges).find({ _tag: "Account", accountId: schedule.accountId }, schedule.chargeId)
  const subject = yield* notas.subjectOf(schedule.accountId, schedule.chargeId)
  const account = yield* (yield* Accounts).findById(schedule.accountId)
  if (Option.isNone(config) || !config.value.settings.enabled || Option.isNone(charge) || Option.isNone(subject) || Option.isNone(account)) return yield* done
  // A charge refunded, canceled or expired before its note came due is owed none (as `emitir` refuses it).
  if (!EMITTABLE_CHARGE_STATUSES.includes(charge.value.status)) return yield* done
  const tomador = tomadorOf(charge.value)
  const draft = {
    invoiceId: subject.value.invoiceId,
    chargeId: charge.value.id,
    subscriptionId: subject.value.subscriptionId,
    cycleNumber: subject.value.cycleNumber,
    amount: charge.value.amount,
    descricao: charge.value.description ?? config.value.settings.descricao_servico ?? "Serviços prestados",
    tomador
  }
  const pendencias = pendenciasOf(config.value, tomador, true)
  const emitted = yield* Effect.result(
    pendencias.length === 0
      ? emitNew(config.value, draft, account.value.sandbox, false)
      : Effect.flatMap(recordNew(config.value, draft, account.value.sandbox), (nota) => recordIncomplete(nota, pendencias))
  )
  // An invoice whose note was emitted by hand meanwhile is owed nothing more.
  if (emitted._tag === "Failure") yield* Effect.logInfo(`nota of charge ${schedule.chargeId}: ${emitted.failure.message}`)
  yield* done
})

/** A scheduled note whose data is incomplete is recorded `ERROR` with what is missing, never sent; `reemitir` sends it once mended. */
const recordIncomplete = Effect.fnUntraced(function*(nota: Nota, pendencias: ReadonlyArray<string>) {
  const at = new Date(yield* Clock.currentTimeMillis)
  return Option.getOrElse(
    yield* (yield* Notas).transition(nota.accountId, nota.id, NotaTransitions.failedToSend, {
      errors: pendencias.map((p) => ({ code: "NF_INCOMPLETE_DATA", message: `Dado ausente: ${p}` }))
    }, at),
    () => nota
  )
})

/** The worker's job: emits the notes due, up to `limit`; how many schedules it handled. */
export const emitDueNotas = Effect.fn("Notas.emitDue")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const now = yield* Clock.currentTimeMillis
  const claimed = yield* (yield* Notas).claimDue(new Date(now), new Date(now + NOTA_LEASE_MILLIS), limit, scope)
  yield* Effect.forEach(claimed, emitScheduled, { concurrency: 4, discard: true })
  return claimed.length
})

/** Asks the city what became of one note it has not answered; one it never got is sent again under its number. */
const askCity = Effect.fnUntraced(function*(nota: Nota, account: Account) {
  // Removed or not: a note already sent is settled with the configuration it was sent under.
  const config = yield* (yield* NfseConfigs).findForNotes(nota.accountId, nota.configId)
  if (Option.isNone(config)) return
  const answer = yield* Effect.result((yield* NfseProvider).outcome(config.value, toIssue(nota, account.sandbox)))
  if (answer._tag === "Failure") return yield* Effect.logWarning(`nota ${nota.id}: the city did not answer (${answer.failure.message})`)
  if (answer.success._tag === "NotReceived") return yield* Effect.asVoid(send(config.value, nota, account.sandbox, false))
  yield* recordOutcome(nota, answer.success, null, false)
})

/** The worker's job: asks about up to `limit` notes the city has not answered; how many it asked about. */
export const answerProcessingNotas = Effect.fn("Notas.answerProcessing")(function*(limit: number, scope: RunScope = EVERY_ACCOUNT) {
  const now = yield* Clock.currentTimeMillis
  // A note the city took is asked about at the next pass; one not recorded as sent only once a first send would have ended.
  const claimed = yield* (yield* Notas).claimProcessing(new Date(now), new Date(now - NOTA_SEND_MILLIS), new Date(now + NOTA_LEASE_MILLIS), limit, scope)
  const accounts = yield* Accounts
  yield* Effect.forEach(claimed, (nota) =>
    Effect.flatMap(accounts.findById(nota.accountId), Option.match({ onNone: () => Effect.void, onSome: (account) => askCity(nota, account) })), {
    concurrency: 4,
    discard: true
  })
  return claimed.length
})

/**
 * One attempt of a note at the city: number it, record it, send it, and
 * record what the city said. The number is taken and the note written in
 * one transaction before the city is asked, so a crash or a lost answer
 * leaves a `PROCESSING` note that the worker asks about (`outcome`) under
 * the same number, never a second number for one DPS.
 */
import { Clock, Effect, Option } from "effect"
import type { NfseConfig } from "../domain/NfseConfig.ts"
import { type Nota, NotaAlreadyIssued, type NotaToIssue, type Tomador } from "../domain/Nota.ts"
import { saoPauloDate } from "../brazil/BankCalendar.ts"
import type { Cents } from "../money/Money.ts"
import { Ids } from "../ports/Ids.ts"
import { type NotaOutcome, NfseProvider } from "../ports/NfseProvider.ts"
import { type DpsIssuer, Notas } from "../ports/Notas.ts"
import { Transactor } from "../ports/Transactor.ts"
import { NotaTransitions, type NotaTrigger } from "../rules/NotaTransitions.ts"
import { standardOf } from "./NationalCities.ts"
import { ChargeId, NotaId, NotaIds, SubscriptionId } from "../domain/Ids.ts"

/**
 * Whose numbering the configuration's notes take: its issuer's CNPJ (a
 * stored configuration always has one: `requiredProblem` refused it
 * otherwise), in the account's environment.
 */
export const issuerOf = (config: NfseConfig, sandbox: boolean): DpsIssuer => ({
  accountId: config.accountId,
  cnpj: config.settings.prestador.cnpj ?? config.certificate.cnpj,
  sandbox
})

/** The series a configuration numbers its notes in: the DPS series (national) or the RPS series (municipal). */
export const serieOf = (config: NfseConfig): string =>
  standardOf(config.settings) === "nacional" ? config.settings.serie_dps : (config.settings.prefeitura.serie_rps ?? "1")

/** What the city is asked for a stored note. */
export const toIssue = (nota: Nota, sandbox: boolean): NotaToIssue => ({
  notaId: nota.id,
  accountId: nota.accountId,
  sandbox,
  standard: nota.standard,
  serie: nota.serie,
  dpsNumber: nota.dpsNumber,
  issuedAt: nota.issuedAt,
  competencia: saoPauloDate(nota.issuedAt.getTime()),
  amount: nota.amount,
  descricao: nota.descricao,
  tomador: nota.tomador
})

/** A note to emit: what it is for and what it says. */
export interface NotaDraft {
  /** The nota routes' id; null: the note's own id (a standalone note sent without `ref`). */
  readonly invoiceId: string | null
  readonly chargeId: ChargeId | null
  readonly subscriptionId: SubscriptionId | null
  readonly cycleNumber: number | null
  readonly amount: Cents
  readonly descricao: string
  readonly tomador: Tomador
}

/** The next DPS number of the configuration's issuer and series, held until the transaction ends (`Notas.nextDpsNumber`). */
export const takeDpsNumber = (config: NfseConfig, sandbox: boolean) =>
  Effect.flatMap(Notas, (notas) => notas.nextDpsNumber(issuerOf(config, sandbox), serieOf(config), config.settings.prefeitura.proximo_numero_rps ?? 1))

/** A note of `draft` as first recorded: `PROCESSING` under `dpsNumber`, the city not asked yet. */
export const freshNota = (config: NfseConfig, draft: NotaDraft, id: NotaId, dpsNumber: number, at: Date): Nota => ({
  ...draft,
  invoiceId: draft.invoiceId ?? id,
  id,
  accountId: config.accountId,
  configId: config.id,
  standard: standardOf(config.settings),
  status: "PROCESSING",
  serie: serieOf(config),
  dpsNumber,
  numero: null,
  chaveAcesso: null,
  errors: [],
  xml: null,
  cancelReason: null,
  replacedBy: null,
  issuedAt: at,
  authorizedAt: null,
  canceledAt: null,
  createdAt: at,
  updatedAt: at
})

/** Numbers and records a new note in `PROCESSING`; `NOTA_ALREADY_ISSUED` when the invoice has a standing one. */
export const recordNew = Effect.fnUntraced(function*(config: NfseConfig, draft: NotaDraft, sandbox: boolean) {
  const notas = yield* Notas
  const at = new Date(yield* Clock.currentTimeMillis)
  const id = yield* (yield* Ids).make(NotaIds, { sandbox })
  const recorded = yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const nota = freshNota(config, draft, id, yield* takeDpsNumber(config, sandbox), at)
    return (yield* notas.insert(nota, issuerOf(config, sandbox))) ? Option.some(nota) : Option.none()
  }))
  if (Option.isNone(recorded)) {
    return yield* new NotaAlreadyIssued({ message: `${draft.invoiceId} já tem nota fiscal`, details: { invoiceId: draft.invoiceId } })
  }
  return recorded.value
})

/**
 * Records what the city said of `nota`. `atOnce`: the answer came to the
 * emission itself (`ISSUED`), not to a later question (`AUTHORIZED`). A
 * note that moved meanwhile (canceled by another request) stays as it is.
 */
export const recordOutcome = Effect.fnUntraced(function*(nota: Nota, outcome: NotaOutcome, dps: string | null, atOnce: boolean) {
  const at = new Date(yield* Clock.currentTimeMillis)
  const move = (trigger: NotaTrigger, changes: Parameters<Notas["Service"]["transition"]>[3]) =>
    Effect.flatMap(Notas, (notas) => notas.transition(nota.accountId, nota.id, NotaTransitions[trigger], changes, at))
  const sent = dps === null ? {} : { xml: dps }
  const moved = yield* (() => {
    switch (outcome._tag) {
      case "Authorized":
        return move(atOnce ? "issuedAtOnce" : "authorized", {
          numero: outcome.numero,
          chaveAcesso: outcome.chaveAcesso,
          xml: outcome.xml,
          authorizedAt: outcome.authorizedAt,
          errors: []
        })
      case "Refused":
        return move("refused", { ...sent, errors: outcome.errors })
      case "Processing":
      case "NotReceived":
        return move("sent", sent)
    }
  })()
  if (Option.isSome(moved)) return moved.value
  // Moved meanwhile (another worker's answer, a cancel): the note as it is now, not as this attempt saw it.
  return Option.getOrElse(yield* (yield* Notas).find(nota.accountId, nota.id), () => nota)
})

/**
 * Sends `nota` to the city and records the answer. A city that cannot be
 * reached leaves the note `PROCESSING` for the worker. `atOnce`: a city that
 * took the DPS without deciding is asked once more right away (a standalone
 * note is "always issued immediately").
 */
export const send = Effect.fn("Notas.send")(function*(config: NfseConfig, nota: Nota, sandbox: boolean, atOnce: boolean) {
  const city = yield* NfseProvider
  const request = toIssue(nota, sandbox)
  const sent = yield* Effect.result(city.issue(config, request))
  if (sent._tag === "Failure") {
    yield* Effect.logWarning(`nota ${nota.id}: the city did not answer (${sent.failure.message}); the worker will ask again`)
    return nota
  }
  const { dps, outcome } = sent.success
  if (outcome._tag !== "Processing" || !atOnce) return yield* recordOutcome(nota, outcome, dps, atOnce)
  const asked = yield* Effect.result(city.outcome(config, request))
  return yield* recordOutcome(nota, asked._tag === "Success" ? asked.success : outcome, dps, atOnce)
})

/** Numbers, records and sends a new note. */
export const emitNew = Effect.fn("Notas.emitNew")(function*(config: NfseConfig, draft: NotaDraft, sandbox: boolean, atOnce: boolean) {
  const nota = yield* recordNew(config, draft, sandbox)
  return yield* send(config, nota, sandbox, atOnce)
})

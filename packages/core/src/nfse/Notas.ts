/**
 * The nota routes (spec: Endpoints, Fiscal invoices): standalone emission,
 * a charge's note (`emitir`), the check without emitting, a new attempt or
 * a replacement (`reemitir`), cancel, resend by e-mail, list, summary,
 * detail and documents. No webhook event tells of notes (spec: Events 5).
 */
import { Clock, Effect, Option } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import type { Account } from "../domain/Account.ts"
import type { Charge } from "../domain/Charge.ts"
import { invalidData } from "../domain/Errors.ts"
import type { NfseConfig } from "../domain/NfseConfig.ts"
import {
  InvoiceNotFound,
  InvoiceStatusNotEmittable,
  NfCancelFailed,
  NfConfigNotFound,
  NfConfigRequired,
  NfIncompleteData,
  NfNotAuthorized,
  type Nota,
  NotaAlreadyIssued,
  NotaNotFound,
  NotaNotIssued,
  NotaProcessing,
  NotaTypeNotSupported,
  type Tomador,
  TooManyEmails
} from "../domain/Nota.ts"
import type { EmitNotaRequest, NotaListQuery, ReissueNotaRequest, ResendNotaRequest, StandaloneNotaRequest } from "../domain/NotaViews.ts"
import { toNotaEmission, toNotaView } from "../domain/NotaViews.ts"
import { dateBound, keysetPagination, pageLimit } from "../domain/Pagination.ts"
import { sumCents, cents } from "../money/Money.ts"
import { ProviderUnavailable } from "../charges/CreatePixCharge.ts"
import { completeAddressOrNull } from "../checkout/BuyerAddress.ts"
import { Charges } from "../ports/Charges.ts"
import { Ids } from "../ports/Ids.ts"
import { Mailer } from "../ports/Mailer.ts"
import { NfseConfigs } from "../ports/NfseConfigs.ts"
import { NfseProvider } from "../ports/NfseProvider.ts"
import { type NotaSubject, Notas } from "../ports/Notas.ts"
import { requireProvider } from "../ports/ProviderGate.ts"
import { Transactor } from "../ports/Transactor.ts"
import { LIVE_NOTA_STATUSES, NotaTransitions, REFUSED_NOTA_STATUSES, statusesMatching } from "../rules/NotaTransitions.ts"
import { canonicalConfigId } from "./Configs.ts"
import { standardOf } from "./NationalCities.ts"
import { emitNew, freshNota, issuerOf, send, serieOf, takeDpsNumber, toIssue } from "./NotaAttempt.ts"
import { type AccountId, NotaIds } from "../domain/Ids.ts"

/** Segments of `/v1/invoices/notas/...` that are routes, not note ids: no note may be called so. */
const ROUTE_WORDS: ReadonlySet<string> = new Set(["config", "summary"])

/** Most recipients one resend takes (spec: Limits). */
export const MAX_RESEND_RECIPIENTS = 10

/** Charges a note can be emitted for (spec: `INVOICE_STATUS_NOT_EMITTABLE`). */
export const EMITTABLE_CHARGE_STATUSES: ReadonlyArray<Charge["status"]> = ["PENDING", "AWAITING_PAYMENT", "PAID"]

const isLive = (nota: Nota) => (LIVE_NOTA_STATUSES as ReadonlyArray<string>).includes(nota.status)
const isRefused = (nota: Nota) => (REFUSED_NOTA_STATUSES as ReadonlyArray<string>).includes(nota.status)

/** The account's configuration `id` (either prefix). */
export const configNamed = Effect.fnUntraced(function*(accountId: AccountId, id: string) {
  const found = yield* (yield* NfseConfigs).find(accountId, canonicalConfigId(id))
  if (Option.isNone(found)) return yield* new NfConfigNotFound({ message: `Configuração fiscal ${id} não encontrada`, details: { configId: id } })
  return found.value
})

/** What is missing for a note to `tomador` under `config` (the `pendencias`); empty when it can be emitted. */
export const pendenciasOf = (config: NfseConfig, tomador: Tomador, needsAddress: boolean): ReadonlyArray<string> => [
  ...(config.settings.enabled ? [] : ["configuração fiscal desativada (enabled: false)"]),
  ...(tomador.document === "" ? ["customer.document"] : []),
  ...(tomador.name === null ? ["customer.name"] : []),
  ...(needsAddress && tomador.address === null ? ["customer.address"] : [])
]

const incomplete = (pendencias: ReadonlyArray<string>) =>
  new NfIncompleteData({ message: `Dados incompletos para emitir a nota: ${pendencias.join(", ")}`, details: pendencias })

/** The taker of a charge's note: its buyer. */
export const tomadorOf = (charge: Charge): Tomador => ({
  document: charge.customer?.documentNumber ?? "",
  name: charge.customer?.name ?? null,
  email: charge.customer?.email ?? null,
  address: charge.address
})

const notaOf = Effect.fnUntraced(function*(accountId: AccountId, id: string) {
  const found = yield* (yield* Notas).find(accountId, id)
  if (Option.isNone(found)) return yield* new NotaNotFound({ message: `Nota ${id} não encontrada`, details: { invoiceId: id } })
  return found.value
})

/** The configuration a note was issued under, removed or not: its certificate still cancels and prints the note. */
const configOfNota = Effect.fnUntraced(function*(nota: Nota) {
  const found = yield* (yield* NfseConfigs).findForNotes(nota.accountId, nota.configId)
  if (Option.isNone(found)) return yield* new NfConfigNotFound({ message: `Configuração fiscal ${nota.configId} não encontrada`, details: { configId: nota.configId } })
  return found.value
})

/**
 * The configuration `configId` names, with a city that can issue its notes
 * for `account`: the sandbox city issues both standards; production
 * accounts need the configured city, and only the national standard exists
 * there (the municipal ones, ABRASF and its providers, come later).
 */
const configForNote = Effect.fnUntraced(function*(account: Account, configId: string) {
  const config = yield* configNamed(account.id, configId)
  yield* requireProvider(account, "nfse")
  if (!account.sandbox && standardOf(config.settings) === "municipal") {
    return yield* new NotaTypeNotSupported({
      message: "Notas do padrão municipal ainda não são emitidas em produção: só o padrão nacional",
      details: { configId: config.id, tipo: "municipal", codigo_municipio: config.settings.prestador.codigo_municipio }
    })
  }
  return config
})

/** `POST /v1/invoices/notas`: a note of no charge, issued at once. */
export const emitStandalone = Effect.fn("Notas.emitStandalone")(function*(request: StandaloneNotaRequest) {
  const { account } = yield* Caller
  if (request.ref !== undefined && ROUTE_WORDS.has(request.ref)) return yield* invalidData("ref", `ref may not be ${request.ref}: it names a route`)
  const config = yield* configForNote(account, request.configId)
  const tomador: Tomador = {
    document: request.customer.document,
    name: request.customer.name ?? null,
    email: request.customer.email ?? null,
    // Complete, with its IBGE code from the CEP when not sent (the DPS writes the taker's address only with one), else none.
    address: completeAddressOrNull(request.customer.address)
  }
  const pendencias = pendenciasOf(config, tomador, false)
  if (pendencias.length > 0) return yield* incomplete(pendencias)
  const nota = yield* emitNew(config, {
    invoiceId: request.ref ?? null,
    chargeId: null,
    subscriptionId: null,
    cycleNumber: null,
    amount: request.amount,
    descricao: request.descricao,
    tomador
  }, account.sandbox, true)
  return toNotaEmission(nota)
})

/** The charge an `emitir` path id names, emittable. */
const emittableCharge = Effect.fnUntraced(function*(accountId: AccountId, id: string) {
  const subject = yield* (yield* Notas).subjectOf(accountId, id)
  const charge = Option.isNone(subject)
    ? Option.none<Charge>()
    : yield* (yield* Charges).find({ _tag: "Account", accountId }, subject.value.chargeId)
  if (Option.isNone(subject) || Option.isNone(charge)) {
    return yield* new InvoiceNotFound({ message: `Cobrança ${id} não encontrada`, details: { invoiceId: id } })
  }
  if (!EMITTABLE_CHARGE_STATUSES.includes(charge.value.status)) {
    return yield* new InvoiceStatusNotEmittable({
      message: `A cobrança ${id} está ${charge.value.status}: só cobranças pendentes, aguardando pagamento ou pagas têm nota`,
      details: { status: charge.value.status }
    })
  }
  return { subject: subject.value, charge: charge.value }
})

/** Refuses an `emitir` on an invoice whose note stands, is on its way, or is scheduled by its configuration's timing. */
const refuseStandingNote = Effect.fnUntraced(function*(accountId: AccountId, subject: NotaSubject, charge: Charge, previous: Option.Option<Nota>) {
  if (Option.isSome(previous) && previous.value.status === "PROCESSING") {
    return yield* new NotaProcessing({ message: `A nota de ${subject.invoiceId} aguarda a resposta da prefeitura`, details: null })
  }
  if (Option.isSome(previous) && (isLive(previous.value) || isRefused(previous.value))) {
    return yield* new NotaAlreadyIssued({
      message: isLive(previous.value) ? `A cobrança ${subject.invoiceId} já tem nota autorizada` : `A nota de ${subject.invoiceId} foi recusada: use reemitir`,
      details: { status: previous.value.status }
    })
  }
  if (Option.isNone(previous) && (yield* isScheduled(accountId, charge))) {
    return yield* new NotaAlreadyIssued({ message: `A nota de ${subject.invoiceId} está agendada pela configuração fiscal`, details: { status: "SCHEDULED" } })
  }
})

/**
 * Whether the worker will emit `charge`'s note: its configuration (enabled)
 * made it due, or will when the charge is paid.
 */
const isScheduled = Effect.fnUntraced(function*(accountId: AccountId, charge: Charge) {
  const schedule = (yield* (yield* Notas).schedulesOf([{ accountId, chargeId: charge.id }]))[0]
  if (schedule === undefined) return false
  if (schedule.dueAt !== null) return true
  const config = yield* (yield* NfseConfigs).find(accountId, schedule.configId)
  return Option.isSome(config) && config.value.settings.enabled && charge.paidAt === null
})

/** The configuration of a charge's note: the body's, the previous note's, the charge's, the subscription's (spec's order). */
const configIdFor = Effect.fnUntraced(function*(accountId: AccountId, subject: NotaSubject, previous: Option.Option<Nota>, sent: string | undefined) {
  if (sent !== undefined) return sent
  if (Option.isSome(previous)) return previous.value.configId
  const ofCharge = yield* (yield* Notas).configOfCharge(accountId, subject.chargeId)
  const configId = Option.getOrNull(ofCharge) ?? subject.subscriptionConfigId
  if (configId === null) {
    return yield* new NfConfigRequired({ message: "Nenhuma configuração fiscal: envie configId ou configure nfConfigId na cobrança", details: null })
  }
  return configId
})

/** Everything `emitir` checks before emitting: the charge, the standing note, the configuration, the data. */
const prepareEmission = Effect.fnUntraced(function*(account: Account, id: string, request: EmitNotaRequest) {
  const { charge, subject } = yield* emittableCharge(account.id, id)
  const previous = yield* (yield* Notas).find(account.id, subject.invoiceId)
  yield* refuseStandingNote(account.id, subject, charge, previous)
  const config = yield* configForNote(account, yield* configIdFor(account.id, subject, previous, request.configId))
  const tomador = tomadorOf(charge)
  return { charge, subject, config, tomador, pendencias: pendenciasOf(config, tomador, true) }
})

/** `POST .../{notaId}/emitir`: the note of a charge or subscription invoice. */
export const emitForCharge = Effect.fn("Notas.emitForCharge")(function*(id: string, request: EmitNotaRequest) {
  const { account } = yield* Caller
  const { charge, config, pendencias, subject, tomador } = yield* prepareEmission(account, id, request)
  if (pendencias.length > 0) return yield* incomplete(pendencias)
  const nota = yield* emitNew(config, {
    invoiceId: subject.invoiceId,
    chargeId: subject.chargeId,
    subscriptionId: subject.subscriptionId,
    cycleNumber: subject.cycleNumber,
    amount: charge.amount,
    descricao: charge.description ?? config.settings.descricao_servico ?? "Serviços prestados",
    tomador
  }, account.sandbox, false)
  yield* (yield* Notas).setDue([{ accountId: account.id, chargeId: subject.chargeId, dueAt: null }])
  return toNotaEmission(nota)
})

/** `POST .../{notaId}/verificar-emissao`: what `emitir` would refuse, without emitting. */
export const checkEmission = Effect.fn("Notas.checkEmission")(function*(id: string, request: EmitNotaRequest) {
  const { account } = yield* Caller
  const { config, pendencias } = yield* prepareEmission(account, id, request)
  return { success: true, invoiceId: id, emitivel: pendencias.length === 0, configId: config.id, pendencias }
})

/**
 * The taker a reissued note names: a charge's buyer as the charge has it now
 * (its data may have been mended since the refusal), else the note's own.
 */
const currentTomador = Effect.fnUntraced(function*(nota: Nota) {
  if (nota.chargeId === null) return nota.tomador
  const charge = yield* (yield* Charges).find({ _tag: "Account", accountId: nota.accountId }, nota.chargeId)
  return Option.match(charge, { onNone: () => nota.tomador, onSome: tomadorOf })
})

/** `reemitir` of a refused note: a new number, the same note; a new description, or the charge's mended data, may mend what was refused. */
const reissueRefused = Effect.fnUntraced(function*(account: Account, nota: Nota, config: NfseConfig, request: ReissueNotaRequest) {
  const notas = yield* Notas
  const tomador = yield* currentTomador(nota)
  const pendencias = pendenciasOf(config, tomador, nota.chargeId !== null)
  if (pendencias.length > 0) return yield* incomplete(pendencias)
  const at = new Date(yield* Clock.currentTimeMillis)
  const moved = yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const dpsNumber = yield* takeDpsNumber(config, account.sandbox)
    return yield* notas.reissue(account.id, nota.id, issuerOf(config, account.sandbox), {
      dpsNumber,
      serie: serieOf(config),
      issuedAt: at,
      configId: config.id,
      tomador,
      errors: [],
      ...(request.descricao === undefined ? {} : { descricao: request.descricao })
    }, at)
  }))
  if (Option.isNone(moved)) return yield* new NotaProcessing({ message: `A nota ${nota.invoiceId} mudou enquanto era reemitida`, details: null })
  return yield* send(config, moved.value, account.sandbox, nota.chargeId === null)
})

/**
 * `reemitir` of an issued note: a new note replaces it under the same
 * invoice id. Only at the sandbox city for now: at the national system a
 * replacement must name the note it substitutes (the DPS's `subst` group),
 * which the engine does not write yet, and a plain new note would leave both
 * valid at the tax office; a production account cancels and emits instead.
 */
const replaceIssued = Effect.fnUntraced(function*(account: Account, nota: Nota, config: NfseConfig, request: ReissueNotaRequest) {
  if (!account.sandbox) {
    return yield* new NotaTypeNotSupported({
      message: "Substituir uma nota emitida ainda não é possível no sistema nacional: cancele-a e emita outra",
      details: { invoiceId: nota.invoiceId, status: nota.status }
    })
  }
  const notas = yield* Notas
  const at = new Date(yield* Clock.currentTimeMillis)
  const id = yield* (yield* Ids).make(NotaIds, { sandbox: account.sandbox })
  const replacement = yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
    const replaced = yield* notas.transition(account.id, nota.id, NotaTransitions.replaced, { replacedBy: id }, at)
    if (Option.isNone(replaced)) return Option.none<Nota>()
    const fresh = freshNota(config, { ...nota, descricao: request.descricao ?? nota.descricao }, id, yield* takeDpsNumber(config, account.sandbox), at)
    yield* notas.insert(fresh, issuerOf(config, account.sandbox))
    return Option.some(fresh)
  }))
  if (Option.isNone(replacement)) return yield* new NotaNotIssued({ message: `A nota ${nota.invoiceId} não está mais emitida`, details: null })
  return yield* send(config, replacement.value, account.sandbox, nota.chargeId === null)
})

/** `POST .../{notaId}/reemitir`: a new attempt of a refused note, or a replacement of an issued one. */
export const reissue = Effect.fn("Notas.reissue")(function*(id: string, request: ReissueNotaRequest) {
  const { account } = yield* Caller
  const nota = yield* notaOf(account.id, id)
  if (nota.status === "PROCESSING") return yield* new NotaProcessing({ message: `A nota ${id} aguarda a resposta da prefeitura`, details: null })
  if (!isLive(nota) && !isRefused(nota)) {
    return yield* new NotaNotIssued({ message: `A nota ${id} está ${nota.status}: emita uma nova com emitir`, details: { status: nota.status } })
  }
  const config = yield* configForNote(account, request.configId ?? nota.configId)
  const done = isRefused(nota) ? yield* reissueRefused(account, nota, config, request) : yield* replaceIssued(account, nota, config, request)
  return toNotaEmission(done)
})

/** `DELETE .../{notaId}?motivo=`: cancels the note at the city. */
export const cancelNota = Effect.fn("Notas.cancel")(function*(id: string, motivo: string | undefined) {
  const { account } = yield* Caller
  const reason = motivo?.trim() ?? ""
  if (reason.length < 15 || reason.length > 255) return yield* invalidData("motivo", "motivo is required, 15 to 255 characters")
  const nota = yield* notaOf(account.id, id)
  if (!isLive(nota) || nota.numero === null) {
    return yield* new NotaNotIssued({ message: `A nota ${id} está ${nota.status}: não há nota emitida para cancelar`, details: { status: nota.status } })
  }
  yield* requireProvider(account, "nfse")
  const config = yield* configOfNota(nota)
  const answer = yield* Effect.result((yield* NfseProvider).cancel(config, { ...toIssue(nota, account.sandbox), numero: nota.numero, chaveAcesso: nota.chaveAcesso }, reason))
  const outcome = answer._tag === "Failure"
    ? { _tag: "Refused" as const, errors: [{ code: "SEM_RESPOSTA", message: answer.failure.message }] }
    : answer.success
  if (outcome._tag === "Refused") return yield* new NfCancelFailed({ message: "A prefeitura não cancelou a nota", details: { errors: outcome.errors } })
  const at = new Date(yield* Clock.currentTimeMillis)
  const canceled = yield* (yield* Notas).transition(account.id, nota.id, NotaTransitions.canceled, { cancelReason: reason, canceledAt: outcome.at }, at)
  return toNotaView(Option.getOrElse(canceled, () => nota))
})

/** The issued note `id` names, with its configuration: what its documents need. */
const issuedNota = Effect.fnUntraced(function*(id: string) {
  const { account } = yield* Caller
  const nota = yield* notaOf(account.id, id)
  if (!isLive(nota) || nota.numero === null) {
    return yield* new NfNotAuthorized({ message: `A nota ${id} está ${nota.status}: ainda não há nota autorizada`, details: { status: nota.status } })
  }
  const config = yield* configOfNota(nota)
  return { account, nota, numero: nota.numero, config }
})

/** The note's DANFSe, from the city. */
export const notaPdf = Effect.fn("Notas.pdf")(function*(id: string) {
  const { account, config, nota, numero } = yield* issuedNota(id)
  const pdf = yield* (yield* NfseProvider).pdf(config, { ...toIssue(nota, account.sandbox), numero, chaveAcesso: nota.chaveAcesso }).pipe(
    Effect.mapError((error) => new ProviderUnavailable({ message: "A prefeitura não entregou o PDF da nota", details: { reason: error.message } }))
  )
  return { nota, pdf }
})

/** The note's XML: the issued NFS-e, or the DPS sent while the city has not issued it. */
export const notaXml = Effect.fn("Notas.xml")(function*(id: string) {
  const { account } = yield* Caller
  const nota = yield* notaOf(account.id, id)
  // Empty: nothing was sent (a DPS the engine could not build, or a municipal note of the sandbox city, which writes no RPS).
  if (nota.xml === null || nota.xml === "") {
    return yield* new NfNotAuthorized({ message: `A nota ${id} não tem XML: nada foi enviado à prefeitura`, details: { status: nota.status } })
  }
  return { nota, xml: nota.xml }
})

/** `POST .../{notaId}/reenviar`: the note's PDF and XML to up to ten recipients. */
export const resendNota = Effect.fn("Notas.resend")(function*(id: string, request: ResendNotaRequest) {
  if (request.emails.length > MAX_RESEND_RECIPIENTS) {
    return yield* new TooManyEmails({ message: `No máximo ${MAX_RESEND_RECIPIENTS} destinatários`, details: { count: request.emails.length } })
  }
  const { account } = yield* Caller
  // The sandbox mailbox delivers nothing: a production account's resend needs a real mailer, which no providers file names yet.
  yield* requireProvider(account, "mail")
  const { nota, pdf } = yield* notaPdf(id)
  const mailer = yield* Mailer
  const recipients = [...new Set(request.emails.map((email) => email.toLowerCase()))]
  yield* Effect.forEach(recipients, (to) =>
    mailer.send({
      to,
      subject: `Nota fiscal de serviço ${nota.numero}`,
      body: `Segue a nota fiscal de serviço número ${nota.numero} (${nota.descricao}).`,
      attachments: [
        { filename: `nfse-${nota.numero}.pdf`, contentType: "application/pdf", content: pdf },
        ...(nota.xml === null || nota.xml === ""
          ? []
          : [{ filename: `nfse-${nota.numero}.xml`, contentType: "application/xml", content: new TextEncoder().encode(nota.xml) }])
      ]
    }).pipe(Effect.mapError((error) => new ProviderUnavailable({ message: "O e-mail da nota não pôde ser enviado", details: { reason: error.message, to } }))), {
    discard: true
  })
  return { success: true, invoiceId: nota.invoiceId, emails: recipients }
})

export const getNota = Effect.fn("Notas.get")(function*(id: string) {
  const { account } = yield* Caller
  return toNotaView(yield* notaOf(account.id, id))
})

/** `GET /v1/invoices/notas`: newest first, keyset pages. */
export const listNotas = Effect.fn("Notas.list")(function*(query: NotaListQuery) {
  const { account } = yield* Caller
  const limit = yield* pageLimit(query.limit, 20, invalidData)
  const from = yield* dateBound(query.startDate, { field: "startDate", endOfDay: false, invalid: invalidData })
  const to = yield* dateBound(query.endDate, { field: "endDate", endOfDay: true, invalid: invalidData })
  const page = yield* (yield* Notas).list(account.id, {
    limit,
    lastKey: query.lastKey ?? null,
    statuses: query.status === undefined ? null : statusesMatching(query.status),
    search: query.search ?? null,
    taxId: query.taxId?.replace(/\D/g, "") ?? null,
    customerName: query.customerName ?? null,
    from,
    to
  })
  return { items: page.items.map(toNotaView), pagination: keysetPagination(page, limit) }
})

/** `GET /v1/invoices/notas/summary`: count and amount by status, and in all. */
export const summarizeNotas = Effect.fn("Notas.summary")(function*() {
  const { account } = yield* Caller
  const rows = yield* (yield* Notas).summary(account.id)
  const byStatus = rows.map((r) => ({ status: r.status, count: r.count, amount: cents(Number(r.amount)) }))
  return {
    total: { count: byStatus.reduce((n, r) => n + r.count, 0), amount: sumCents(byStatus.map((r) => r.amount)) },
    byStatus
  }
})

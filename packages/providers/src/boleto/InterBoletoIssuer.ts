/**
 * The `BoletoIssuer` port on Banco Inter's Cobrança v3 API (boleto with Pix):
 * OAuth2 client credentials (`boleto-cobranca.read boleto-cobranca.write`)
 * over mutual TLS, registration by `POST /cobranca/v3/cobrancas` with our
 * reference as `seuNumero`, answered by a `codigoSolicitacao` whose codes
 * (`boleto.codigoBarras`, `boleto.linhaDigitavel`, `pix.pixCopiaECola`) the
 * detail gives once Inter has processed it; write-off by
 * `POST …/{codigoSolicitacao}/cancelar`; payments from the list filtered by
 * payment date (`RECEBIDO`, `MARCADO_RECEBIDO`).
 *
 * Inter takes no idempotency key, so the reference is made one here: a
 * registration first looks for its `seuNumero` (list filtered by due date),
 * and one whose outcome is unknown (timeout, 5xx) is looked for again
 * before it is ever sent again. Codes are checked with the engine's
 * FEBRABAN functions before they reach a charge.
 *
 * Sources: Inter's own SDKs, inter-co/pj-sdk-python (`billing/billing/BillingClient.py`,
 * `billing/models/*.py`, `billing/enums/BillingSituation.py`, `commons/utils/HttpUtils.py`,
 * `commons/utils/TokenUtils.py`, `commons/structures/Constants.py`) and
 * inter-co/pj-sdk-java (`inter/sdk/billing/billing/BillingClient.java`); the
 * asynchronous registration, the cancel's `motivoCancelamento` (at most 50
 * characters) and the 120 calls a minute from divulgueregional/api-inter-v2's
 * `docs/API COBRANCA (PIX)`. Inter's portal (developers.inter.co) was not
 * reachable from here: field limits are checked only against the fake.
 */
import {
  type BoletoPayment,
  BoletoIssuer,
  BoletoIssuerError,
  BoletoNotFound,
  type BoletoRef,
  BoletoRefused,
  type BoletoStatus,
  Brazil,
  type Cents,
  type IssuedBoleto,
  Money
} from "@billing/core"
import { type Duration, Effect, Layer, Result, Schedule } from "effect"
import type { BoletoBankConfig } from "../config/ProvidersConfig.ts"
import { type InterCallError, type InterHttpOptions } from "./InterHttp.ts"
import { InterAnswerInvalid, InterStillProcessing, isRefusal, isRetryable } from "./InterErrors.ts"
import { makeInterCobrancas, type InterCobrancas } from "./InterCobrancas.ts"
import { cobrancaBodyOf, seuNumeroOf } from "./InterRequests.ts"
import { CLOSED_SITUACOES, type CobrancaBody, type CobrancaDetail, PAID_SITUACOES } from "./InterSchemas.ts"

export interface InterBoletoOptions extends InterHttpOptions {
  /** Between two reads of a registration Inter is still processing (default 1 s). */
  readonly pollInterval?: Duration.Input
  /** Reads of a registration still processing before the issue is given up as unfinished (default 10). */
  readonly polls?: number
}

/** Inter's bank code (FEBRABAN 077), the first digits of its barcodes. */
export const INTER_BANK_CODE = "077"

/** `motivoCancelamento` of a write-off (Inter takes at most 50 characters). */
export const WRITE_OFF_REASON = "Baixa solicitada pelo sistema de cobrança"

type Closed = Exclude<BoletoStatus, { readonly _tag: "Open" }>

/** Anything but Inter refusing the request itself: the issuer unavailable, in Inter's words. */
const unavailable = (error: { readonly message: string }) => new BoletoIssuerError({ message: error.message })

/** Where a cobrança stands, as the port says it. */
const statusOf = (detail: CobrancaDetail): Effect.Effect<BoletoStatus, InterAnswerInvalid> => {
  const { cobranca } = detail
  if (PAID_SITUACOES.has(cobranca.situacao)) {
    if (cobranca.dataSituacao === undefined) {
      return Effect.fail(new InterAnswerInvalid({ message: `Inter: the cobrança ${cobranca.codigoSolicitacao} is ${cobranca.situacao} without dataSituacao` }))
    }
    // The SDKs type valorTotalRecebido as optional; without it, the nominal amount is what the boleto was paid or marked received for.
    return Effect.succeed({ _tag: "Paid", amount: cobranca.valorTotalRecebido ?? cobranca.valorNominal, paidOn: cobranca.dataSituacao.slice(0, 10) })
  }
  return Effect.succeed(CLOSED_SITUACOES.has(cobranca.situacao) ? { _tag: "WrittenOff" } : { _tag: "Open" })
}

/** What is wrong with the bank's codes for what was asked, by the engine's FEBRABAN functions; `undefined` when nothing is. */
const codesProblem = (barcode: string, linhaDigitavel: string, asked: { readonly amount: Cents; readonly dueDate: string }) => {
  const code = Brazil.parseBarcode(barcode, asked.dueDate)
  if (Result.isFailure(code)) return code.failure.message
  if (code.success.bankCode !== INTER_BANK_CODE) return `bank ${code.success.bankCode}, not Inter's ${INTER_BANK_CODE}`
  const line = Brazil.parseDigitableLine(linhaDigitavel, asked.dueDate)
  if (Result.isFailure(line)) return line.failure.message
  if (line.success.barcode !== code.success.barcode) return "the line is not the barcode's"
  if (code.success.amountCents !== asked.amount || code.success.dueDate !== asked.dueDate) {
    return `they encode ${Money.toDecimalString(code.success.amountCents as Cents)} due ${code.success.dueDate ?? "never"}`
  }
  return undefined
}

/** The boleto of a processed cobrança, its codes checked against what was asked. */
const issuedOf = (
  detail: CobrancaDetail,
  boleto: NonNullable<CobrancaDetail["boleto"]>,
  asked: { readonly reference: string; readonly amount: Cents; readonly dueDate: string }
): Effect.Effect<IssuedBoleto, BoletoRefused | BoletoIssuerError> => {
  const { cobranca, pix } = detail
  if (cobranca.valorNominal !== asked.amount || cobranca.dataVencimento !== asked.dueDate) {
    return Effect.fail(new BoletoRefused({
      message: `Inter already holds a boleto for ${asked.reference} (seuNumero ${cobranca.seuNumero}) of ${Money.toDecimalString(cobranca.valorNominal)} due ${cobranca.dataVencimento}, not of ${
        Money.toDecimalString(asked.amount)
      } due ${asked.dueDate}`
    }))
  }
  // Inter's SDKs carry the codes as plain strings; punctuation, if any, is not part of them.
  const barcode = boleto.codigoBarras.replace(/\D/g, "")
  const digitableLine = boleto.linhaDigitavel.replace(/\D/g, "")
  const problem = codesProblem(barcode, digitableLine, asked)
  if (problem !== undefined) {
    return Effect.fail(new BoletoIssuerError({ message: `Inter answered codes for ${asked.reference} that the FEBRABAN check refuses: ${problem}` }))
  }
  return Effect.succeed({
    bankCode: barcode.slice(0, 3),
    ourNumber: boleto.nossoNumero,
    barcode,
    digitableLine,
    ...(pix === undefined ? {} : { pixCopiaECola: pix.pixCopiaECola })
  })
}

/** A registration: its `codigoSolicitacao`, and its detail when the look-up found it already there. */
interface Registration {
  readonly codigo: string
  readonly found: CobrancaDetail | undefined
}

/**
 * The reference's cobrança at Inter, registered when there is none. Looked
 * for before every send, so an attempt whose outcome was unknown (timeout,
 * 5xx) is found rather than sent twice; a live one first, since an earlier
 * registration that failed at Inter is no boleto.
 */
const registrationOf = (cobrancas: InterCobrancas, body: CobrancaBody): Effect.Effect<Registration, InterCallError> => {
  const lookup = Effect.map(
    cobrancas.list({ dataInicial: body.dataVencimento, dataFinal: body.dataVencimento, filtrarDataPor: "VENCIMENTO", seuNumero: body.seuNumero }, { retry: false }),
    (listed) => {
      const ours = listed.filter((item) => item.cobranca.seuNumero === body.seuNumero)
      return ours.find((item) => item.cobranca.situacao !== "FALHA_EMISSAO") ?? ours[0]
    }
  )
  const findOrCreate = Effect.flatMap(lookup, (found): Effect.Effect<Registration, InterCallError> =>
    found === undefined
      ? Effect.map(cobrancas.create(body), (codigo) => ({ codigo, found: undefined }))
      : Effect.succeed({ codigo: found.cobranca.codigoSolicitacao, found }))
  return Effect.retry(findOrCreate, { schedule: cobrancas.http.backoff, while: isRetryable })
}

/** The cobrança once Inter has processed it (its codes there), or why it never will be. */
interface Processed {
  readonly detail: CobrancaDetail
  readonly boleto: NonNullable<CobrancaDetail["boleto"]>
}

const readyOf = (current: CobrancaDetail, reference: string): Effect.Effect<Processed, BoletoRefused | InterStillProcessing> => {
  const { codigoSolicitacao, situacao } = current.cobranca
  if (situacao === "FALHA_EMISSAO") {
    return Effect.fail(new BoletoRefused({ message: `Inter failed to issue the boleto of ${reference} (codigoSolicitacao ${codigoSolicitacao}, FALHA_EMISSAO)` }))
  }
  return situacao === "EM_PROCESSAMENTO" || current.boleto === undefined
    ? Effect.fail(new InterStillProcessing({ codigoSolicitacao, message: `Inter is still processing the boleto of ${reference} (codigoSolicitacao ${codigoSolicitacao}); asked again, the same reference finds it` }))
    : Effect.succeed({ detail: current, boleto: current.boleto })
}

/** Reads the registration until Inter has processed it, `polls` reads at most. */
const processedOf = (cobrancas: InterCobrancas, registration: Registration, reference: string, options: InterBoletoOptions) => {
  const read = Effect.flatMap(cobrancas.get(registration.codigo), (current) => readyOf(current, reference))
  const polled = Effect.retry(read, {
    schedule: Schedule.spaced(options.pollInterval ?? "1 second").pipe(Schedule.upTo({ times: Math.max(0, (options.polls ?? 10) - 1) })),
    while: (error) => error._tag === "InterStillProcessing" || isRetryable(error)
  })
  return registration.found === undefined ? polled : Effect.catchTag(readyOf(registration.found, reference), "InterStillProcessing", () => polled)
}

/** Inter refusing the request itself refuses the boleto; anything else leaves the issuer unavailable. */
const issueError = (reference: string) => (error: InterCallError | InterStillProcessing | BoletoRefused | BoletoIssuerError) =>
  error._tag === "BoletoRefused" || error._tag === "BoletoIssuerError" ? error
  : isRefusal(error) ? new BoletoRefused({ message: `Inter refused the boleto of ${reference}: ${error.message}` })
  : unavailable(error)

const makeIssue = (cobrancas: InterCobrancas, options: InterBoletoOptions): BoletoIssuer["Service"]["issue"] =>
  Effect.fn("InterBoletoIssuer.issue")(function*(request) {
    if (request.payer === undefined) {
      return yield* new BoletoRefused({ message: `Inter registers a boleto with its payer (CPF or CNPJ, name and address); ${request.reference} has none` })
    }
    const registration = yield* registrationOf(cobrancas, cobrancaBodyOf({ ...request, payer: request.payer }))
    const { boleto, detail } = yield* processedOf(cobrancas, registration, request.reference, options)
    return yield* issuedOf(detail, boleto, request)
  }, (effect, request) => Effect.mapError(effect, issueError(request.reference)))

/** The cobrança a boleto of ours is, by `seuNumero`, due date and "nosso número". */
const findRef = (cobrancas: InterCobrancas, ref: BoletoRef) =>
  Effect.flatMap(
    cobrancas.list({ dataInicial: ref.dueDate, dataFinal: ref.dueDate, filtrarDataPor: "VENCIMENTO", seuNumero: seuNumeroOf(ref.reference) }),
    (found): Effect.Effect<CobrancaDetail, BoletoNotFound> => {
      const ours = found.find((item) => item.boleto?.nossoNumero === ref.ourNumber)
      return ours === undefined
        ? Effect.fail(new BoletoNotFound({ reference: ref.reference, message: `Inter holds no boleto for ${ref.reference} with nosso número ${ref.ourNumber} due ${ref.dueDate}` }))
        : Effect.succeed(ours)
    }
  )

const portError = (error: InterCallError | BoletoNotFound | BoletoRefused) =>
  error._tag === "BoletoNotFound" || error._tag === "BoletoRefused" ? error : unavailable(error)

const makeWriteOff = (cobrancas: InterCobrancas): BoletoIssuer["Service"]["writeOff"] =>
  Effect.fn("InterBoletoIssuer.writeOff")(function*(ref) {
    const found = yield* findRef(cobrancas, ref)
    const before = yield* statusOf(found)
    if (before._tag !== "Open") return before
    const codigo = found.cobranca.codigoSolicitacao
    return yield* cobrancas.cancel(codigo, WRITE_OFF_REASON).pipe(
      Effect.as<Closed>({ _tag: "WrittenOff" }),
      // Refused: paid or written off meanwhile (or a repeat of a cancel that went through), read to answer what it is.
      Effect.catchIf(isRefusal, (refusal) =>
        Effect.flatMap(Effect.flatMap(cobrancas.get(codigo), statusOf), (now) =>
          now._tag === "Open"
            ? Effect.fail(new BoletoRefused({ message: `Inter refused the write-off of ${ref.reference}: ${refusal.message}` }))
            : Effect.succeed(now)))
    )
  }, Effect.mapError(portError))

const makeStatus = (cobrancas: InterCobrancas): BoletoIssuer["Service"]["status"] =>
  Effect.fn("InterBoletoIssuer.status")(function*(ref) {
    return yield* statusOf(yield* findRef(cobrancas, ref))
  }, Effect.mapError((error) => (error._tag === "BoletoNotFound" ? error : unavailable(error))))

const makePaymentsBetween = (cobrancas: InterCobrancas): BoletoIssuer["Service"]["paymentsBetween"] =>
  Effect.fn("InterBoletoIssuer.paymentsBetween")(function*(request) {
    const found = yield* cobrancas.list({ dataInicial: request.from, dataFinal: request.to, filtrarDataPor: "PAGAMENTO" })
    const payments: Array<BoletoPayment> = []
    for (const item of found) {
      const status = yield* statusOf(item)
      if (status._tag === "Paid" && item.boleto !== undefined) payments.push({ ourNumber: item.boleto.nossoNumero, amount: status.amount, paidOn: status.paidOn })
    }
    return payments
  }, Effect.mapError(unavailable))

/**
 * The port on the configured Inter application, its connections closed with
 * the scope. The `receiver` of a request is not read: the providers file
 * has one bank account, which every account's boletos go to.
 */
export const makeInterBoletoIssuer = Effect.fn("InterBoletoIssuer.make")(function*(config: BoletoBankConfig, options: InterBoletoOptions = {}) {
  const cobrancas = yield* makeInterCobrancas(config, options)
  return BoletoIssuer.of({
    issue: makeIssue(cobrancas, options),
    writeOff: makeWriteOff(cobrancas),
    status: makeStatus(cobrancas),
    paymentsBetween: makePaymentsBetween(cobrancas)
  })
})

export const interBoletoIssuerLayer = (config: BoletoBankConfig, options: InterBoletoOptions = {}) =>
  Layer.effect(BoletoIssuer, makeInterBoletoIssuer(config, options))

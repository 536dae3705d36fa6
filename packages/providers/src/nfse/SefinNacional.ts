/**
 * The production `NfseProvider` for cities served by the national system
 * (Sistema Nacional NFS-e): the DPS of layout 1.01 signed with the issuer's
 * A1 certificate and sent to Sefin Nacional (`POST /nfse`) over mutual TLS
 * with the same certificate; the outcome of a DPS whose answer was lost
 * asked by its `Id` (`GET /dps/{id}`, then `GET /nfse/{chave}`), never by a
 * new number; cancellation as event e101101; the PDF from the DANFSe
 * service; a city's standard from the municipal parameters service. Routes
 * and shapes are the API descriptions' in
 * `shared/reference/nfse-nacional/api-specs`.
 *
 * What the engine could not send (the configuration lacks a field of the
 * layout, the certificate does not open) is a refusal, with the reason in
 * `nf.errors`: nothing reached the system, and the note can be reissued
 * once the configuration is fixed.
 */
import type { NfseConfig, NfseSettings } from "@billing/core/domain/NfseConfig"
import type { NotaError, NotaToIssue } from "@billing/core/domain/Nota"
import { type IssueOutcome, NfseProvider, NfseProviderError, type NotaOutcome } from "@billing/core/ports/NfseProvider"
import { type Ambiente, dpsId, dpsXml } from "@billing/core/nfse/DpsXml"
import { Clock, Effect, Layer, Result, Schema } from "effect"
import { CANCEL_EVENT, cancelEventXml, type CancelReasonCode } from "./CancelEvent.ts"
import { gunzipBase64, gzipBase64, readCertificate, type SignatureAlgorithm, signDps, signEnveloped } from "./DpsSignature.ts"
import { makeCityStandards } from "./MunicipalParameters.ts"
import { DpsAnswer, errorsOf, EventAnswer, NfseAnswer, processedAt, readJson } from "./SefinAnswers.ts"
import { type SefinAnswer, type SefinHttpOptions, type SefinSession, sefinSession, SefinUnreachable } from "./SefinHttp.ts"

/** Sefin Nacional's base URLs (API descriptions: host and base path). */
export const SEFIN_PRODUCTION = "https://sefin.nfse.gov.br/SefinNacional"
export const SEFIN_HOMOLOGATION = "https://sefin.producaorestrita.nfse.gov.br/SefinNacional"
/** The DANFSe service of the ADN (the homologation address is the API description's; production's is its counterpart). */
export const DANFSE_PRODUCTION = "https://adn.nfse.gov.br/danfse"
export const DANFSE_HOMOLOGATION = "https://adn.producaorestrita.nfse.gov.br/danfse"

/** The municipal parameters service (API description: `servers: /parametrizacao`, on the ADN's hosts like the DANFSe). */
export const PARAMETERS_PRODUCTION = "https://adn.nfse.gov.br/parametrizacao"
export const PARAMETERS_HOMOLOGATION = "https://adn.producaorestrita.nfse.gov.br/parametrizacao"

export interface SefinNacionalOptions extends SefinHttpOptions {
  /** Sefin Nacional, without a trailing slash. */
  readonly baseUrl: string
  /** The DANFSe service, without a trailing slash. */
  readonly danfseUrl: string
  /** The municipal parameters service, without a trailing slash. */
  readonly parametersUrl: string
  /** 1 production, 2 homologation ("produção restrita"); written in every DPS and event. */
  readonly ambiente: Ambiente
  /** The signature's digest and algorithm: both are reported in use, so it is a setting. */
  readonly signatureAlgorithm: SignatureAlgorithm
  /**
   * `cNBS` of an issuer's service (9 digits), required by layout 1.01: the
   * configuration's `codigo_nbs` in production (`sefinOf`); `null` refuses
   * the note naming `codigo_nbs`.
   */
  readonly codigoNbs: (settings: NfseSettings) => string | null
  /** `cMotivo` of cancellations (default 9, other: the merchant's reason is free text). */
  readonly cancelReasonCode?: CancelReasonCode
}

const refused = (errors: ReadonlyArray<NotaError>): IssueOutcome => ({ _tag: "Refused", errors })

const unknown = (message: string) => new NfseProviderError({ message })

const decodeOr = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, what: string) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (answer: SefinAnswer) =>
    decode(readJson(answer.text)).pipe(
      Effect.mapError(() => unknown(`Sefin Nacional respondeu ${answer.status} a ${what} num formato inesperado: ${answer.text.slice(0, 200)}`))
    )
}
const decodeNfse = decodeOr(NfseAnswer, "uma NFS-e")
const decodeDps = decodeOr(DpsAnswer, "GET /dps")
const decodeEvent = decodeOr(EventAnswer, "um evento")

/** An error answer's messages, or its status when it has none. */
const answerErrors = (answer: SefinAnswer): ReadonlyArray<NotaError> => {
  const errors = errorsOf(readJson(answer.text))
  return errors.length > 0 ? errors : [{ code: `HTTP_${answer.status}`, message: answer.text === "" ? `Sefin Nacional respondeu ${answer.status}` : answer.text.slice(0, 500) }]
}

/** The authorized note of an NFS-e answer: its number from the NFS-e XML (`nNFSe`), its key, its XML. */
const authorized = (found: typeof NfseAnswer.Type) =>
  Effect.gen(function*() {
    const xml = gunzipBase64(found.nfsexmlgzipb64)
    if (Result.isFailure(xml)) return yield* unknown(`A NFS-e ${found.chaveacesso} veio num formato ilegível: ${xml.failure.message}`)
    const now = yield* Clock.currentTimeMillis
    return {
      _tag: "Authorized",
      // The note's number is inside the NFS-e; its key identifies it as well should a system omit it.
      numero: /<nNFSe>(\d+)<\/nNFSe>/.exec(xml.success)?.[1] ?? found.chaveacesso,
      chaveAcesso: found.chaveacesso,
      xml: xml.success,
      authorizedAt: processedAt(found.datahoraprocessamento) ?? new Date(now)
    } satisfies NotaOutcome
  })

/**
 * What became of the DPS `id`: the NFS-e issued from it, or `NotReceived`
 * when the system has none (it never arrived, or it was refused).
 */
const lookUp = (options: SefinNacionalOptions, session: SefinSession, id: string) =>
  Effect.gen(function*() {
    const answer = yield* session.get(`${options.baseUrl}/dps/${id}`)
    if (answer.status === 404) return { _tag: "NotReceived" } satisfies NotaOutcome
    if (answer.status !== 200) return yield* unknown(`Sefin Nacional respondeu ${answer.status} a GET /dps/${id}: ${answerErrors(answer).map((error) => error.message).join("; ")}`)
    const { chaveacesso } = yield* decodeDps(answer)
    const nfse = yield* session.get(`${options.baseUrl}/nfse/${chaveacesso}`)
    if (nfse.status !== 200) return yield* unknown(`Sefin Nacional respondeu ${nfse.status} a GET /nfse/${chaveacesso}`)
    return yield* authorized(yield* decodeNfse(nfse))
  })

const unreachable = (error: SefinUnreachable) => unknown(error.message)

/** The certificate of `config`, or the refusal that names it. */
const certificateOf = (config: NfseConfig) =>
  Result.mapError(readCertificate(config.certificate), (error): ReadonlyArray<NotaError> => [{ code: "CERTIFICATE_UNREADABLE", message: error.message }])

/** The signed DPS of `nota` and the certificate, or why it could not be made (the note is then refused). */
const prepare = (options: SefinNacionalOptions, config: NfseConfig, nota: NotaToIssue) => {
  const dps = Result.mapError(
    dpsXml(config.settings, nota, { ambiente: options.ambiente, codigoNbs: options.codigoNbs(config.settings) }),
    (error): ReadonlyArray<NotaError> => error.fields.map((field) => ({ code: "NF_INCOMPLETE_DATA", message: `${field}: ausente ou inválido para a DPS nacional` }))
  )
  return Result.flatMap(dps, (built) =>
    Result.flatMap(certificateOf(config), (certificate) =>
      Result.mapBoth(signDps(built.xml, certificate, options.signatureAlgorithm), {
        onFailure: (error): ReadonlyArray<NotaError> => [{ code: "DPS_SIGNATURE_FAILED", message: error.message }],
        onSuccess: (signed) => ({ id: built.id, signed, certificate })
      })))
}

/** Cancellation as event e101101, signed like the DPS; a lost answer settled by reading the event back. */
const makeCancel = (options: SefinNacionalOptions): NfseProvider["Service"]["cancel"] =>
  Effect.fn("SefinNacional.cancel")(function*(config, nota, reason) {
    const certificate = certificateOf(config)
    if (Result.isFailure(certificate)) return { _tag: "Refused" as const, errors: certificate.failure }
    const chave = nota.chaveAcesso ?? ""
    const at = new Date(yield* Clock.currentTimeMillis)
    const event = Result.flatMap(
      cancelEventXml({ ambiente: options.ambiente, cnpj: config.settings.prestador.cnpj ?? "", chaveAcesso: chave, at, code: options.cancelReasonCode ?? 9, reason }),
      (built) => signEnveloped(built.xml, "infPedReg", certificate.success, options.signatureAlgorithm)
    )
    if (Result.isFailure(event)) return { _tag: "Refused" as const, errors: [{ code: "NF_CANCEL_INVALID", message: event.failure.message }] }
    return yield* Effect.scoped(Effect.gen(function*() {
      const session = yield* sefinSession(certificate.success, options)
      const url = `${options.baseUrl}/nfse/${chave}/eventos`
      const registered = (answer: SefinAnswer) =>
        Effect.map(decodeEvent(answer), (event) => ({ _tag: "Canceled" as const, at: processedAt(event.datahoraprocessamento) ?? at }))
      // The cancellation happens once (request number 1), so the event itself says whether it was registered.
      const lookUpEvent = session.get(`${url}/${CANCEL_EVENT}/1`)
      const answer = yield* session.post(url, { pedidoRegistroEventoXmlGZipB64: gzipBase64(event.success) }).pipe(
        Effect.catchTag("SefinUnreachable", (error) => (error.outcomeUnknown ? Effect.succeed(undefined) : Effect.fail(error)))
      )
      if (answer === undefined) {
        const found = yield* lookUpEvent
        if (found.status === 200) return yield* registered(found)
        return yield* unknown(`Sefin Nacional não respondeu ao cancelamento da NFS-e ${chave} e ainda não o tem: resultado desconhecido`)
      }
      if (answer.status === 200 || answer.status === 201) return yield* registered(answer)
      // Asked again after a lost answer, a registered cancellation is refused as a duplicate: the event tells.
      const first = yield* lookUpEvent
      return first.status === 200 ? yield* registered(first) : { _tag: "Refused" as const, errors: answerErrors(answer) }
    })).pipe(Effect.catchTag("SefinUnreachable", (error) => Effect.fail(unreachable(error))))
  })

export const makeSefinNacional = (options: SefinNacionalOptions): NfseProvider["Service"] => {
  const issue = Effect.fn("SefinNacional.issue")(function*(config: NfseConfig, nota: NotaToIssue) {
    const prepared = prepare(options, config, nota)
    // Nothing was built, so nothing was sent: the DPS kept is empty and the reasons are the note's errors.
    if (Result.isFailure(prepared)) return { dps: "", outcome: refused(prepared.failure) }
    const { certificate, id, signed } = prepared.success
    const outcome: IssueOutcome = yield* Effect.scoped(Effect.gen(function*() {
      const session = yield* sefinSession(certificate, options)
      const answer = yield* session.post(`${options.baseUrl}/nfse`, { dpsXmlGZipB64: gzipBase64(signed) }).pipe(
        // The DPS may have been issued: ask by its Id, never send it again.
        Effect.catchTag("SefinUnreachable", (error) => (error.outcomeUnknown ? Effect.succeed(undefined) : Effect.fail(unreachable(error))))
      )
      if (answer === undefined) {
        const found = yield* lookUp(options, session, id)
        return found._tag === "NotReceived" ? yield* unknown(`Sefin Nacional não respondeu à DPS ${id} e ainda não tem NFS-e dela: resultado desconhecido`) : found
      }
      if (answer.status === 200 || answer.status === 201) return yield* authorized(yield* decodeNfse(answer))
      if (answer.status === 408 || answer.status === 429) return yield* unknown(`Sefin Nacional respondeu ${answer.status} à DPS ${id}: resultado desconhecido`)
      // A DPS sent again after a lost answer is refused as a duplicate when the
      // first was issued; the system keys DPS by Id, so asking by it tells the
      // two apart without knowing the duplicate's error code.
      const first = yield* lookUp(options, session, id)
      return first._tag === "NotReceived" ? refused(answerErrors(answer)) : first
    })).pipe(Effect.catchTag("SefinUnreachable", (error) => Effect.fail(unreachable(error))))
    return { dps: signed, outcome }
  })

  const outcome = Effect.fn("SefinNacional.outcome")(function*(config: NfseConfig, nota: NotaToIssue) {
    const certificate = certificateOf(config)
    if (Result.isFailure(certificate)) return yield* unknown(certificate.failure.map((error) => error.message).join("; "))
    const id = dpsId(config.settings.prestador.codigo_municipio ?? "", config.settings.prestador.cnpj ?? "", nota.serie, nota.dpsNumber)
    return yield* Effect.scoped(Effect.flatMap(sefinSession(certificate.success, options), (session) => lookUp(options, session, id))).pipe(
      Effect.catchTag("SefinUnreachable", (error) => Effect.fail(unreachable(error)))
    )
  })

  const pdf: NfseProvider["Service"]["pdf"] = Effect.fn("SefinNacional.pdf")(function*(config, nota) {
    const certificate = certificateOf(config)
    if (Result.isFailure(certificate)) return yield* unknown(certificate.failure.map((error) => error.message).join("; "))
    const answer = yield* Effect.scoped(Effect.flatMap(sefinSession(certificate.success, options), (session) => session.get(`${options.danfseUrl}/${nota.chaveAcesso ?? ""}`, "application/pdf"))).pipe(
      Effect.catchTag("SefinUnreachable", (error) => Effect.fail(unreachable(error)))
    )
    if (answer.status !== 200) return yield* unknown(`O DANFSe da NFS-e ${nota.chaveAcesso} não veio: ${answer.status} ${answer.text.slice(0, 200)}`)
    return answer.body
  })

  const cityStandard = makeCityStandards(options.parametersUrl, options)
  return NfseProvider.of({ issue, outcome, cancel: makeCancel(options), pdf, cityStandard })
}

/** `NfseProvider` on the national system. */
export const sefinNacionalLayer = (options: SefinNacionalOptions) => Layer.succeed(NfseProvider, makeSefinNacional(options))

/**
 * Whether a city is served by the national system, from its municipal
 * parameters service (`GET /parametrizacao/{codigoMunicipio}/convenio`,
 * `shared/reference/nfse-nacional/api-specs/adn-parametros-municipais-production.json`):
 * `parametrosConvenio.aderenteAmbienteNacional` 1 is a city that adhered to
 * the national environment; 0 or -1, or no agreement at all (404), one that
 * keeps its own (municipal) system. Asked over mutual TLS with the issuer's
 * certificate, and kept for a day per city: a city's adhesion changes by
 * agreement, not from one note to the next.
 */
import type { NfseStandard, StoredCertificate } from "@billing/core/domain/NfseConfig"
import { NfseProviderError } from "@billing/core/ports/NfseProvider"
import { Clock, Effect, Option, Result, Schema } from "effect"
import { readCertificate } from "./DpsSignature.ts"
import { readJson } from "./SefinAnswers.ts"
import { type SefinHttpOptions, sefinSession } from "./SefinHttp.ts"

/** How long a city's answer is kept. */
const CITY_TTL_MILLIS = 86_400_000

/** The answer's keys in lower case, as `readJson` gives every Sefin answer (the system's casing varies). */
const ConvenioAnswer = Schema.Struct({
  parametrosconvenio: Schema.optionalKey(Schema.NullOr(Schema.Struct({
    aderenteambientenacional: Schema.optionalKey(Schema.NullOr(Schema.Int))
  })))
})
const decodeConvenio = Schema.decodeUnknownOption(ConvenioAnswer)

/** The standard a convenio answer says the city uses. */
const standardOfConvenio = (status: number, text: string): Option.Option<NfseStandard> => {
  if (status === 404) return Option.some("municipal")
  if (status !== 200) return Option.none()
  return Option.map(decodeConvenio(readJson(text)), (answer) =>
    answer.parametrosconvenio?.aderenteambientenacional === 1 ? "nacional" : "municipal")
}

/** `cityStandard` of the national system at `parametersUrl`, each city's answer kept a day. */
export const makeCityStandards = (parametersUrl: string, http: SefinHttpOptions) => {
  const known = new Map<string, { readonly standard: NfseStandard; readonly at: number }>()
  return Effect.fn("SefinNacional.cityStandard")(function*(request: { readonly certificate: StoredCertificate; readonly codigoMunicipio: string }) {
    const now = yield* Clock.currentTimeMillis
    const kept = known.get(request.codigoMunicipio)
    if (kept !== undefined && now - kept.at < CITY_TTL_MILLIS) return Option.some(kept.standard)
    const certificate = readCertificate(request.certificate)
    if (Result.isFailure(certificate)) return yield* new NfseProviderError({ message: certificate.failure.message })
    const answer = yield* Effect.scoped(Effect.flatMap(sefinSession(certificate.success, http), (session) =>
      session.get(`${parametersUrl}/${request.codigoMunicipio}/convenio`))).pipe(
        Effect.mapError((error) => new NfseProviderError({ message: error.message }))
      )
    const standard = standardOfConvenio(answer.status, answer.text)
    if (Option.isNone(standard)) {
      return yield* new NfseProviderError({ message: `the municipal parameters service answered ${answer.status} for city ${request.codigoMunicipio}` })
    }
    known.set(request.codigoMunicipio, { standard: standard.value, at: now })
    return standard
  })
}

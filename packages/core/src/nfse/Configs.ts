/**
 * Issuer configurations of fiscal invoices (spec: Endpoints, Fiscal
 * invoices, `/v1/invoices/notas/config`): create (an `id` in the body makes
 * it an update), list with the account's defaults, read, update with
 * `prefeitura` merged, delete. A configuration is stored only once every
 * rule holds and its certificate was read; on any refusal nothing is kept.
 */
import { Clock, Effect, Option, Redacted, Result } from "effect"
import { Caller } from "../auth/Authenticate.ts"
import {
  type NfseConfig,
  type NfseConfigInput,
  type NfseConfigView,
  type NfseSettings,
  NotaConfigNotFound,
  type StoredCertificate
} from "../domain/NfseConfig.ts"
import { Ids } from "../ports/Ids.ts"
import { NfseProvider } from "../ports/NfseProvider.ts"
import { NfseConfigs } from "../ports/NfseConfigs.ts"
import { buildSettings, certificateGaps, defaultsOf, requiredProblem } from "./ConfigRules.ts"
import { certificateCnpjProblem, readIssuerCertificate } from "./IssuerCertificate.ts"
import { isNationalCity, standardOf } from "./NationalCities.ts"
import { NfseConfigId, NfseConfigIds } from "../domain/Ids.ts"

/** The spec shows configurations as `unc_` and `nfc_`: ids are issued `nfc_`, and `unc_` names the same one. */
/** A configuration id as clients may send it (the provider's `unc_` form too), decoded into the engine's `nfc_` id. */
export const canonicalConfigId = (id: string): NfseConfigId => NfseConfigId.make(id.replace(/^(SANDBOX_)?unc_/, "$1nfc_"))

export const toConfigView = (config: NfseConfig): NfseConfigView => ({
  id: config.id,
  accountId: config.accountId,
  ...config.settings,
  tipo: standardOf(config.settings),
  prefeitura: { ...config.settings.prefeitura, has_senha: Option.isSome(config.prefeituraSenha) },
  certificate: { has_certificate: true, expiry_date: config.certificate.expiresAt },
  createdAt: config.createdAt,
  updatedAt: config.updatedAt
})

const findOwn = Effect.fn("NfseConfigs.findOwn")(function*(id: string) {
  const caller = yield* Caller
  const found = yield* (yield* NfseConfigs).find(caller.account.id, canonicalConfigId(id))
  if (Option.isNone(found)) return yield* new NotaConfigNotFound({ message: `Configuração fiscal ${id} não encontrada`, details: null })
  return found.value
})

/**
 * The certificate the configuration will hold: the one sent, read now, or
 * the stored one, which must still be the issuer's. (A new configuration
 * always sends one: `certificateGaps` refused it otherwise.)
 */
const certificateFor = Effect.fnUntraced(function*(input: NfseConfigInput, stored: StoredCertificate | undefined, cnpj: string) {
  const sent = input.certificate
  if (sent?.pfx_base64 !== undefined && sent.password !== undefined) {
    const now = yield* Clock.currentTimeMillis
    return yield* Effect.fromResult(readIssuerCertificate({ pfxBase64: sent.pfx_base64, password: sent.password }, cnpj, now))
  }
  if (stored === undefined) return yield* Effect.die(new Error("a new configuration without a certificate passed its checks"))
  const mismatch = certificateCnpjProblem(stored.cnpj, cnpj)
  return mismatch === undefined ? stored : yield* mismatch
})

/**
 * The standard the issuer's city uses, as the city's provider tells it when
 * the city is new to this configuration (asked once per save, cached by the
 * provider); the one found before when the city did not change; null when
 * `tipo_nf` forces a standard, the list decides, or no one can tell (the
 * list then decides, `NationalCities.ts`).
 */
const cityStandardOf = Effect.fnUntraced(function*(
  sandbox: boolean,
  settings: NfseSettings,
  previous: NfseSettings | undefined,
  certificate: StoredCertificate
) {
  const city = settings.prestador.codigo_municipio
  if (settings.tipo_nf !== null || city === null || isNationalCity(city)) return null
  if (previous?.prestador.codigo_municipio === city && (previous.tipo_cidade ?? null) !== null) return previous.tipo_cidade ?? null
  const asked = yield* Effect.result((yield* NfseProvider).cityStandard({ sandbox, certificate, codigoMunicipio: city }))
  if (asked._tag === "Failure") {
    yield* Effect.logWarning(`the standard of city ${city} could not be asked (${asked.failure.message}); the engine's list decides`)
    return null
  }
  return Option.getOrNull(asked.success)
})

/**
 * The city's standard for the configuration being saved, asked with the
 * certificate at hand (the one sent, if it opens, else the stored one; the
 * question needs any certificate of the issuer, the full checks come later):
 * none at hand, the list decides.
 */
const cityStandardFor = Effect.fnUntraced(function*(sandbox: boolean, input: NfseConfigInput, settings: NfseSettings, current: NfseConfig | undefined) {
  const sent = input.certificate
  const now = yield* Clock.currentTimeMillis
  const opened = sent?.pfx_base64 !== undefined && sent.password !== undefined
    ? Result.getOrUndefined(readIssuerCertificate({ pfxBase64: sent.pfx_base64, password: sent.password }, settings.prestador.cnpj ?? "", now))
    : undefined
  const certificate = opened ?? current?.certificate
  return certificate === undefined ? null : yield* cityStandardOf(sandbox, settings, current?.settings, certificate)
})

/**
 * `input` applied over `current` (a new configuration when there is none),
 * checked, with its certificate read: the configuration to store.
 */
const configFrom = Effect.fnUntraced(function*(input: NfseConfigInput, current: NfseConfig | undefined) {
  const caller = yield* Caller
  const built = buildSettings(input, current?.settings, defaultsOf(caller.account))
  const settings = { ...built, tipo_cidade: yield* cityStandardFor(caller.account.sandbox, input, built, current) }
  const problem = requiredProblem(settings, certificateGaps(input, current === undefined))
  if (problem !== undefined) return yield* problem
  // `requiredProblem` refused a configuration without a CNPJ.
  const certificate = yield* certificateFor(input, current?.certificate, settings.prestador.cnpj ?? "")
  const at = new Date(yield* Clock.currentTimeMillis)
  const senha = input.prefeitura?.senha
  return {
    id: current?.id ?? (yield* (yield* Ids).make(NfseConfigIds, { sandbox: caller.account.sandbox })),
    accountId: caller.account.id,
    settings,
    certificate,
    prefeituraSenha: senha === undefined ? (current?.prefeituraSenha ?? Option.none()) : Option.some(Redacted.make(senha)),
    createdAt: current?.createdAt ?? at,
    updatedAt: at
  } satisfies NfseConfig
})

export const updateConfig = Effect.fn("NfseConfigs.update")(function*(id: string, input: NfseConfigInput) {
  const config = yield* configFrom(input, yield* findOwn(id))
  if (!(yield* (yield* NfseConfigs).update(config))) {
    return yield* new NotaConfigNotFound({ message: `Configuração fiscal ${id} não encontrada`, details: null })
  }
  return toConfigView(config)
})

/** `POST /v1/invoices/notas/config`: creates, or updates the configuration named by `id`. */
export const createConfig = Effect.fn("NfseConfigs.create")(function*(input: NfseConfigInput) {
  if (input.id !== undefined) return yield* updateConfig(input.id, input)
  const config = yield* configFrom(input, undefined)
  yield* (yield* NfseConfigs).insert(config)
  return toConfigView(config)
})

export const getConfig = Effect.fn("NfseConfigs.get")(function*(id: string) {
  return toConfigView(yield* findOwn(id))
})

/** The account's configurations and the defaults a new one starts from. */
export const listConfigs = Effect.fn("NfseConfigs.list")(function*() {
  const caller = yield* Caller
  const configs = yield* (yield* NfseConfigs).list(caller.account.id)
  return { items: configs.map(toConfigView), defaults: defaultsOf(caller.account) }
})

export const removeConfig = Effect.fn("NfseConfigs.remove")(function*(id: string) {
  const config = yield* findOwn(id)
  yield* (yield* NfseConfigs).remove(config.accountId, config.id, new Date(yield* Clock.currentTimeMillis))
  return { success: true as const, message: "Configuração fiscal removida", id: config.id }
})

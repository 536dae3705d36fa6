/**
 * Which standard a city's notes are issued in. The national system says
 * which cities it serves through its municipal parameters service
 * (`GET /parametrizacao/{codigoMunicipio}/convenio`, in
 * `shared/reference/nfse-nacional/api-specs`): the production city asks it
 * when a configuration is saved (cached per city for a day) and the answer
 * is kept with the configuration (`tipo_cidade`). This list is the
 * operator's override: a city on it is national whatever the service says,
 * and it is the whole answer where no service answers (the sandbox, a
 * production installation without an `nfse` entry, the service down). Each
 * entry is to be confirmed against the service before a production issuer
 * relies on it.
 */
import type { NfseSettings, NfseStandard } from "../domain/NfseConfig.ts"

/** IBGE codes of the cities this version treats as served by the national system. */
export const NATIONAL_CITIES: ReadonlySet<string> = new Set([
  "5300108", // Brasília (DF)
  "2704302", // Maceió (AL)
  "4205407" // Florianópolis (SC)
])

export const isNationalCity = (codigoMunicipio: string): boolean => NATIONAL_CITIES.has(codigoMunicipio)

/**
 * The standard of a configuration: `tipo_nf` when it forces one; else the
 * override list; else what the city was found to use; else municipal.
 */
export const standardOf = (settings: Pick<NfseSettings, "tipo_nf" | "tipo_cidade" | "prestador">): NfseStandard => {
  if (settings.tipo_nf !== null) return settings.tipo_nf
  const city = settings.prestador.codigo_municipio
  if (city !== null && isNationalCity(city)) return "nacional"
  return settings.tipo_cidade ?? "municipal"
}

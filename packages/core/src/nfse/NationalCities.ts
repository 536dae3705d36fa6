/**
 * Which standard a city's notes are issued in. The national system
 * (Sistema Nacional NFS-e) says which cities it serves through its municipal
 * parameters service (`GET /parametrizacao/{codigoMunicipio}/convenio`, in
 * `shared/reference/nfse-nacional/api-specs`); until the production adapter
 * consults it (cached per city, with this list kept as the operator's
 * override), this list is the whole answer: a city not on it is municipal.
 * Each entry is to be confirmed against the service before a production
 * issuer relies on it.
 */
import type { NfseSettings, NfseStandard } from "../domain/NfseConfig.ts"

/** IBGE codes of the cities this version treats as served by the national system. */
export const NATIONAL_CITIES: ReadonlySet<string> = new Set([
  "5300108", // Brasília (DF)
  "2704302", // Maceió (AL)
  "4205407" // Florianópolis (SC)
])

export const isNationalCity = (codigoMunicipio: string): boolean => NATIONAL_CITIES.has(codigoMunicipio)

/** The standard of a configuration: `tipo_nf` when it forces one, else the issuer's city decides. */
export const standardOf = (settings: Pick<NfseSettings, "tipo_nf" | "prestador">): NfseStandard =>
  settings.tipo_nf ?? (settings.prestador.codigo_municipio !== null && isNationalCity(settings.prestador.codigo_municipio) ? "nacional" : "municipal")

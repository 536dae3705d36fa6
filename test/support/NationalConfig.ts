/**
 * A fiscal-note configuration of a merchant in Brasília, a city on the
 * national system (Simples Nacional, ISS by the national code 01.07.01),
 * sealed with the test PKI's A1 certificate: what `POST
 * /v1/invoices/notas/config` takes from a production merchant whose notes
 * go to the fake Sefin Nacional.
 */
import type { TestPki } from "../../packages/providers/test/support/TestCertificates.ts"

type Json = { readonly [key: string]: any }

/** Brasília's IBGE code: on the national system. */
export const NATIONAL_CITY = "5300108"

export const nationalConfigBody = (pki: TestPki, extra: Json = {}): Json => ({
  config_name: "Serviços Brasília",
  codigo_tributacao_nacional_iss: "010701",
  codigo_nbs: "115013000",
  tributacao_iss: 1,
  tipo_retencao_iss: 1,
  percentual_total_tributos_simples_nacional: 6,
  prestador: { codigo_municipio: NATIONAL_CITY, codigo_opcao_simples_nacional: 3, regime_especial_tributacao: 0 },
  certificate: { pfx_base64: pki.client.pfx.toString("base64"), password: pki.passphrase },
  ...extra
})

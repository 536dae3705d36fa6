/**
 * An issuer and a note of the national standard, for the DPS tests here and
 * the signature and adapter tests of `@billing/providers`: the issuer is
 * outside the Simples Nacional (option 1, PIS/COFINS) in Brasília, a city of
 * the national system; `simples` turns it into an optant.
 */
import { AccountId } from "../../src/domain/Ids.ts"
import type { NfseSettings } from "../../src/domain/NfseConfig.ts"
import type { NotaToIssue, TomadorAddress } from "../../src/domain/Nota.ts"
import { cents } from "../../src/money/Money.ts"
import type { DpsOptions } from "../../src/nfse/DpsXml.ts"

export const settings: NfseSettings = {
  config_name: "Brasília",
  enabled: true,
  razao_social: "Loja Exemplo Ltda",
  invoiceTiming: "IMMEDIATE",
  daysAfterConfirmation: 1,
  tipo_nf: null,
  descricao_servico: null,
  enviar_email_destinatario: true,
  serie_dps: "1",
  codigo_tributacao_nacional_iss: "010701",
  tributacao_iss: 1,
  tipo_retencao_iss: 1,
  situacao_tributaria_pis_cofins: "01",
  aliquota_pis: 0.65,
  aliquota_cofins: 3,
  percentual_total_tributos_simples_nacional: null,
  aliquota_csll: null,
  aliquota_irrf: null,
  tipo_retencao_pis_cofins: 0,
  percentual_total_tributos_federais: null,
  percentual_total_tributos_estaduais: null,
  percentual_total_tributos_municipais: null,
  regime_tributario_simples_nacional: 1,
  item_lista_servico: null,
  aliquota_iss: null,
  iss_retido: false,
  natureza_operacao: 1,
  codigo_cnae: null,
  codigo_tributario_municipio: null,
  prestador: {
    cnpj: "11444777000161",
    codigo_municipio: "5300108",
    codigo_opcao_simples_nacional: 1,
    regime_especial_tributacao: 0,
    inscricao_municipal: "0734567",
    inscricao_estadual: null,
    nome_fantasia: null,
    email: "fiscal@loja.example",
    telefone: "(61) 3333-4444",
    codigo_municipio_prestacao: "5300108",
    endereco: null
  },
  prefeitura: { login: null, serie_rps: null, proximo_numero_rps: null },
  responsavel: null
}

export const simples = (option: 2 | 3): NfseSettings => ({
  ...settings,
  situacao_tributaria_pis_cofins: null,
  aliquota_pis: null,
  aliquota_cofins: null,
  percentual_total_tributos_simples_nacional: 6,
  regime_tributario_simples_nacional: 2,
  prestador: { ...settings.prestador, codigo_opcao_simples_nacional: option }
})

export const address: TomadorAddress = {
  street: "Rua São João — bloco B",
  number: "100",
  complement: null,
  neighborhood: "Asa Sul",
  city: "Brasília",
  state: "DF",
  zipCode: "70297-400",
  cityCode: "5300108"
}

export const nota: NotaToIssue = {
  notaId: "inv_1",
  accountId: AccountId.make("acc_1"),
  sandbox: false,
  standard: "nacional",
  serie: "1",
  dpsNumber: 42,
  issuedAt: new Date("2026-03-10T15:04:05.678Z"),
  competencia: "2026-03-10",
  amount: cents(123456),
  descricao: "Mensalidade de março",
  tomador: { document: "52998224725", name: "Maria da Silva", email: "maria@example.com", address: null }
}

export const options: DpsOptions = { ambiente: 2, codigoNbs: "115013000" }

/**
 * IBGE city codes from CEPs, without any network lookup: a small table of
 * the CEP ranges of the largest cities (the ranges the Correios assign to
 * them). A CEP outside the table resolves to nothing, and the client's own
 * `cityCode` is kept; a full CEP database would be a provider port.
 */

const RANGES: ReadonlyArray<readonly [from: number, to: number, ibge: string]> = [
  [1_000_000, 5_999_999, "3550308"], // São Paulo
  [8_000_000, 8_499_999, "3550308"], // São Paulo (zona leste)
  [20_000_000, 23_799_999, "3304557"], // Rio de Janeiro
  [30_000_000, 31_999_999, "3106200"], // Belo Horizonte
  [40_000_000, 42_599_999, "2927408"], // Salvador
  [50_000_000, 52_999_999, "2611606"], // Recife
  [60_000_000, 61_599_999, "2304400"], // Fortaleza
  [70_000_000, 72_799_999, "5300108"], // Brasília
  [73_000_000, 73_699_999, "5300108"], // Brasília
  [80_000_000, 82_999_999, "4106902"], // Curitiba
  [90_000_000, 91_999_999, "4314902"] // Porto Alegre
]

/** The IBGE code of the city of an 8-digit CEP, when the table knows it. */
export const cityCodeOfCep = (cep: string): string | undefined => {
  const n = Number(cep)
  for (const [from, to, ibge] of RANGES) if (n >= from && n <= to) return ibge
  return undefined
}

/**
 * What the adapter sends Inter for a boleto: our reference as `seuNumero`
 * and the registration body. Inter's limits (from its "Emitir cobrança"
 * page as remembered, not re-read here, so checked only against the fake):
 * `seuNumero` 1 to 15 characters; `numDiasAgenda` 0 to 60; the payer's
 * `nome` and `endereco` up to 100, `cidade` and `bairro` 60, `complemento`
 * 30, `numero` 10, `email` 50.
 */
import { type BoletoPayer, type Cents, Money } from "@billing/core"
import type { CobrancaBody, Pagador } from "./InterSchemas.ts"

/** `seuNumero`'s length at Inter. */
export const SEU_NUMERO_LENGTH = 15

/**
 * Our reference as Inter's `seuNumero`: its letters and digits, the last 15
 * when longer. A charge id (`cha_` and 21 base-36 characters) keeps its 12
 * random characters and 3 of its time, so two charges practically never
 * share one; a lookup also checks amount, due date and "nosso número".
 */
export const seuNumeroOf = (reference: string) => reference.replace(/[^A-Za-z0-9]/g, "").slice(-SEU_NUMERO_LENGTH)

/** Text cut to Inter's limit: a longer name or street would have the whole boleto refused, a cut one still identifies the payer. */
const cut = (text: string, max: number) => text.trim().slice(0, max).trim()

/** `pagador` from the charge's buyer; optional fields left out when empty (Inter refuses a blank where it expects a value). */
export const pagadorOf = (payer: BoletoPayer): Pagador => {
  const { address } = payer
  const optional = (name: "numero" | "complemento" | "bairro" | "email", text: string | null | undefined, max: number) => {
    const value = text === null || text === undefined ? "" : cut(text, max)
    return value === "" ? {} : { [name]: value }
  }
  return {
    cpfCnpj: payer.document,
    tipoPessoa: payer.document.length === 11 ? "FISICA" : "JURIDICA",
    nome: cut(payer.name, 100),
    endereco: cut(address.street, 100),
    ...optional("numero", address.number, 10),
    ...optional("complemento", address.complement, 30),
    ...optional("bairro", address.neighborhood, 60),
    cidade: cut(address.city, 60),
    uf: address.state,
    cep: address.zipCode,
    // An address too long for the field is left out rather than cut into another one.
    ...(payer.email !== undefined && payer.email.length <= 50 ? { email: payer.email } : {})
  }
}

/** `numDiasAgenda`: the engine's days payable after the due date, within Inter's 0 to 60. */
const numDiasAgendaOf = (days: number | undefined) => Math.min(60, Math.max(0, Math.floor(days ?? 0)))

/** The registration body of a boleto. */
export const cobrancaBodyOf = (request: {
  readonly reference: string
  readonly amount: Cents
  readonly dueDate: string
  readonly payer: BoletoPayer
  readonly daysPayableAfterDue?: number | undefined
}): CobrancaBody => ({
  seuNumero: seuNumeroOf(request.reference),
  // Decimal reais written from the centavos (`150.75`), never a float computed here.
  valorNominal: Money.toJsonNumber(request.amount),
  dataVencimento: request.dueDate,
  numDiasAgenda: numDiasAgendaOf(request.daysPayableAfterDue),
  pagador: pagadorOf(request.payer)
})

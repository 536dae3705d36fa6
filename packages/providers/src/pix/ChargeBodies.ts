/**
 * A charge of the engine as the PSP's `cob` (immediate) or `cobv` (with a
 * due date). Only what the PSP needs to take the payment goes: amount,
 * receiving key, deadline, the payer of a `cobv`. Split, metadata and every
 * other field of our API stay ours.
 */
import { Brazil, Money, type PixRegistration } from "@billing/core"
import { Result } from "effect"
import type { PixPsp } from "../config/ProvidersConfig.ts"
import type { CobBody, CobvBody, Devedor } from "./PixApiClient.ts"

/** Who is to pay a charge with a due date (the port's `payer`): the standard's `cobv` requires its `devedor`. */
type PixPayer = NonNullable<PixRegistration["payer"]>

/** The standard's limits for `solicitacaoPagador` (140, the pacs.008 field) and a person's `nome` (200). */
const MAX_REQUEST = 140
const MAX_NAME = 200

const withRequest = (description: string | null) => (description === null || description.trim() === "" ? {} : { solicitacaoPagador: description.trim().slice(0, MAX_REQUEST) })

/** A `cob` living until the charge's `expiresAt` (whole seconds from `nowMs`, at least one). */
export const cobBody = (psp: PixPsp, input: PixRegistration, nowMs: number): CobBody => ({
  calendario: { expiracao: Math.max(1, Math.ceil((input.expiresAt.getTime() - nowMs) / 1000)) },
  valor: { original: Money.toDecimalString(input.amount) },
  chave: psp.pixKey.value,
  ...withRequest(input.description)
})

const devedorOf = (payer: PixPayer): Devedor | undefined => {
  const document = Brazil.normalizeDocument(payer.document)
  const nome = payer.name.trim().slice(0, MAX_NAME)
  switch (Brazil.documentKind(document)) {
    case "CPF":
      return { cpf: document, nome }
    case "CNPJ":
      return { cnpj: document, nome }
    default:
      return undefined
  }
}

/**
 * A `cobv` due on `dueDate` and payable as long as the engine's charge is:
 * `validadeAposVencimento` counts the days from the due date to the day (in
 * São Paulo) the charge expires, the checkout's `expirationAfterDueDate`
 * (0 when it expires on its due date). Fails saying why when the payer is
 * missing or has no valid document.
 */
export const cobvBody = (psp: PixPsp, input: PixRegistration, dueDate: string): Result.Result<CobvBody, string> => {
  if (input.payer === null) return Result.fail("a Pix with a due date (cobv) needs its payer, which the charge did not give")
  const devedor = devedorOf(input.payer)
  if (devedor === undefined || devedor.nome === "") return Result.fail("the payer of a Pix with a due date (cobv) needs a name and a valid CPF or CNPJ")
  return Result.succeed({
    calendario: { dataDeVencimento: dueDate, validadeAposVencimento: Math.max(0, Brazil.daysBetween(dueDate, Brazil.saoPauloDate(input.expiresAt.getTime()))) },
    devedor,
    valor: { original: Money.toDecimalString(input.amount) },
    chave: psp.pixKey.value,
    ...withRequest(input.description)
  })
}

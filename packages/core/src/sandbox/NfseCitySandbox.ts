/**
 * The sandbox city: notes for sandbox accounts, decided by the note itself
 * so tests and integrators can reach every outcome (README, "Sandbox
 * notes"):
 * - every DPS is taken (`Processing`); asked again, the city authorizes it
 *   with its DPS number as the note's number; a standalone note, asked at
 *   once, is `ISSUED`, a charge's note `AUTHORIZED` at the worker's next pass;
 * - a description containing `[recusar]` is refused with a city message;
 * - a national configuration whose DPS lacks what the layout needs is
 *   refused naming the fields, as the national system would;
 * - a cancellation always succeeds (the use case refuses notes not issued);
 * - it knows no city's standard: the engine's list (`NationalCities.ts`) decides.
 * The note's XML is the DPS the engine would send; its PDF is drawn here.
 */
import { Clock, Effect, Layer, Option, Result } from "effect"
import { formatReais } from "../money/Money.ts"
import type { NfseConfig } from "../domain/NfseConfig.ts"
import type { NotaToIssue } from "../domain/Nota.ts"
import { onePagePdf, pdfText } from "../brazil/Pdf.ts"
import { dpsXml } from "../nfse/DpsXml.ts"
import { type NotaDocuments, type NotaOutcome, NfseProvider } from "../ports/NfseProvider.ts"

/** The text that makes the sandbox city refuse a note. */
export const SANDBOX_REFUSAL_MARK = "[recusar]"

/** The NBS code the sandbox writes when a configuration names none (layout 1.01 requires one; the spec's tables lack it). */
const SANDBOX_NBS = "115011000"

/** The DPS the engine would send for `nota`, or the fields the layout misses. */
const sandboxDps = (config: NfseConfig, nota: NotaToIssue) =>
  dpsXml(config.settings, nota, { ambiente: 2, codigoNbs: config.settings.codigo_nbs ?? SANDBOX_NBS })

/** A 50-digit access key in the national layout's shape: city, issuer, number (the rest zeros). */
const sandboxKey = (config: NfseConfig, nota: NotaToIssue) =>
  `${config.settings.prestador.codigo_municipio ?? "0000000"}2${(config.settings.prestador.cnpj ?? "").padStart(14, "0")}${
    String(nota.dpsNumber).padStart(13, "0")
  }`.replace(/\D/g, "0").padEnd(50, "0").slice(0, 50)

const decide = (config: NfseConfig, nota: NotaToIssue, at: Date): NotaOutcome => {
  const dps = sandboxDps(config, nota)
  if (nota.standard === "nacional" && Result.isFailure(dps)) {
    return { _tag: "Refused", errors: dps.failure.fields.map((field) => ({ code: "E0001", message: `Campo obrigatório ausente ou inválido: ${field}` })) }
  }
  if (nota.descricao.includes(SANDBOX_REFUSAL_MARK)) {
    return { _tag: "Refused", errors: [{ code: "E0312", message: "Prefeitura de testes: descrição do serviço recusada ([recusar])" }] }
  }
  return {
    _tag: "Authorized",
    numero: String(nota.dpsNumber),
    chaveAcesso: nota.standard === "nacional" ? sandboxKey(config, nota) : null,
    xml: Result.isSuccess(dps) ? dps.success.xml : "",
    authorizedAt: at
  }
}

/** The sandbox DANFSe: issuer, taker, service, amount and the note's identities. */
export const sandboxNotaPdf = (config: NfseConfig, nota: NotaToIssue & NotaDocuments): Uint8Array => {
  const lines: Array<string> = []
  const text = (x: number, y: number, size: number, value: string) => lines.push(`BT /F1 ${size} Tf ${x} ${y} Td (${pdfText(value)}) Tj ET`)
  text(40, 790, 14, "DANFSe - Documento Auxiliar da NFS-e (SANDBOX, sem valor fiscal)")
  text(40, 765, 10, `Numero da NFS-e: ${nota.numero}   Serie: ${nota.serie}   DPS: ${nota.dpsNumber}`)
  if (nota.chaveAcesso !== null) text(40, 750, 9, `Chave de acesso: ${nota.chaveAcesso}`)
  text(40, 725, 10, `Prestador: ${config.settings.razao_social ?? ""} - CNPJ ${config.settings.prestador.cnpj ?? ""}`)
  text(40, 705, 10, `Tomador: ${nota.tomador.name ?? ""} - ${nota.tomador.document}`)
  text(40, 680, 10, `Servico: ${nota.descricao.slice(0, 90)}`)
  text(40, 655, 12, `Valor do servico: ${formatReais(nota.amount, " ")}`)
  text(40, 635, 9, `Competencia: ${nota.competencia}   Emissao: ${nota.issuedAt.toISOString()}`)
  return onePagePdf(lines)
}

const dpsText = (config: NfseConfig, nota: NotaToIssue) => {
  const dps = sandboxDps(config, nota)
  return Result.isSuccess(dps) ? dps.success.xml : ""
}

/** The sandbox city itself (for sandbox accounts only: see `NfseProvider.byEnvironment`). */
export const sandboxCity: NfseProvider["Service"] = {
  issue: (config, nota) => Effect.succeed({ dps: dpsText(config, nota), outcome: { _tag: "Processing" } }),
  outcome: (config, nota) => Effect.map(Clock.currentTimeMillis, (now) => decide(config, nota, new Date(now))),
  cancel: () => Effect.map(Clock.currentTimeMillis, (now) => ({ _tag: "Canceled" as const, at: new Date(now) })),
  pdf: (config, nota) => Effect.sync(() => sandboxNotaPdf(config, nota)),
  // The sandbox city knows no city: the engine's own list decides.
  cityStandard: () => Effect.succeed(Option.none())
}

/** The sandbox city for sandbox accounts; production accounts get no city until one is configured. */
export const NfseCitySandbox = Layer.succeed(NfseProvider, NfseProvider.byEnvironment(sandboxCity, NfseProvider.none))

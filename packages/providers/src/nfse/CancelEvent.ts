/**
 * The cancellation of an NFS-e in the national system: the event request
 * (`pedRegEvento`, layout 1.01, `pedRegEvento_v1.01.xsd`) of event e101101,
 * signed like the DPS over `infPedReg` and sent to
 * `POST /nfse/{chaveAcesso}/eventos`.
 *
 * Written the way `DpsXml` writes the DPS (compact, text escaped as
 * Canonical XML escapes it), so that the signature can digest `infPedReg`
 * as written (`DpsSignature.ts`).
 */
import { type Ambiente, DPS_VERSION, dhEmi, escapeText, latin1, NFSE_NAMESPACE, VER_APLIC } from "@billing/core/nfse/DpsXml"
import { Result, Schema } from "effect"

/** The event type of a cancellation by the issuer. */
export const CANCEL_EVENT = "101101"

/** `cMotivo`: 1 error in the issue, 2 service not provided, 9 other. */
export type CancelReasonCode = 1 | 2 | 9

export interface CancelRequest {
  readonly ambiente: Ambiente
  /** The issuer's CNPJ, the author of the event. */
  readonly cnpj: string
  readonly chaveAcesso: string
  readonly at: Date
  readonly code: CancelReasonCode
  /** `xMotivo`: the merchant's reason, 15 to 255 characters once made a one-line Latin-1 text. */
  readonly reason: string
}

/** The request cannot be written: `field` names what is wrong. */
export class CancelEventInvalid extends Schema.TaggedError<CancelEventInvalid>()("CancelEventInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/**
 * `infPedReg/@Id`: `PRE`, the access key (50), the event type (6) and the
 * request's number for that type zero-padded to 3: 62 characters. A
 * cancellation happens once, so its number is always 1.
 */
export const pedRegEventoId = (chaveAcesso: string): string => `PRE${chaveAcesso}${CANCEL_EVENT}001`

/** The unsigned `pedRegEvento` of a cancellation, with its `Id`; or what is wrong with the request. */
export const cancelEventXml = (request: CancelRequest): Result.Result<{ readonly id: string; readonly xml: string }, CancelEventInvalid> => {
  if (!/^\d{50}$/.test(request.chaveAcesso)) {
    return Result.fail(new CancelEventInvalid({ field: "chaveAcesso", message: "A chave de acesso da NFS-e deve ter 50 dígitos" }))
  }
  if (!/^\d{14}$/.test(request.cnpj)) {
    return Result.fail(new CancelEventInvalid({ field: "prestador.cnpj", message: "O CNPJ do autor do evento deve ter 14 dígitos" }))
  }
  // Checked on the text as it will be sent (whitespace collapsed, outside Latin-1 dropped), not as typed.
  const reason = latin1(request.reason, 1_000)
  if (reason.length < 15 || reason.length > 255) {
    return Result.fail(new CancelEventInvalid({ field: "motivo", message: "O motivo do cancelamento deve ter de 15 a 255 caracteres" }))
  }
  const id = pedRegEventoId(request.chaveAcesso)
  const xml = `<?xml version="1.0" encoding="UTF-8"?><pedRegEvento xmlns="${NFSE_NAMESPACE}" versao="${DPS_VERSION}">` +
    `<infPedReg Id="${id}">` +
    `<tpAmb>${request.ambiente}</tpAmb>` +
    `<verAplic>${escapeText(VER_APLIC)}</verAplic>` +
    `<dhEvento>${dhEmi(request.at)}</dhEvento>` +
    `<CNPJAutor>${request.cnpj}</CNPJAutor>` +
    `<chNFSe>${request.chaveAcesso}</chNFSe>` +
    `<nPedRegEvento>1</nPedRegEvento>` +
    `<e${CANCEL_EVENT}><xDesc>Cancelamento de NFS-e</xDesc><cMotivo>${request.code}</cMotivo><xMotivo>${escapeText(reason)}</xMotivo></e${CANCEL_EVENT}>` +
    `</infPedReg></pedRegEvento>`
  return Result.succeed({ id, xml })
}

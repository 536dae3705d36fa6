/**
 * Sending a Pix to a key, which the BCB standard does not cover: Efí's
 * `PUT /v2/gn/pix/{idEnvio}` (body `{ valor, pagador: { chave, infoPagador },
 * favorecido: { chave } }`, answered 201 `{ idEnvio, e2eId, valor, horario,
 * status }`), and `GET /v2/gn/pix/enviados/id-envio/{idEnvio}` for a send
 * asked again. Efí answers 409 `id_envio_duplicado` to an `idEnvio` already
 * used, so a repeated send is found by its id rather than paid twice. Its
 * errors are `{ nome, mensagem }`, read by `problemOf`. Shapes from Efí's
 * "Envio e pagamento Pix" documentation; checked against the fake only.
 */
import { Effect, Schema } from "effect"
import { createOrFind, type PixApiError } from "./PixApiClient.ts"
import { Valor } from "./PixApiSchemas.ts"
import { decodeAnswer, type PspHttp } from "./PspHttp.ts"

const SendStatus = Schema.Literals(["EM_PROCESSAMENTO", "REALIZADO", "NAO_REALIZADO"])
const EndToEndId = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9]{32}$/)))

/** The answer to the send (`e2eId`). */
const SendAnswer = Schema.Struct({ idEnvio: Schema.String, e2eId: EndToEndId, valor: Valor, status: SendStatus })
/** The send looked up by its id (`endToEndId`, the name of the standard's Pix). */
const SentPix = Schema.Struct({ idEnvio: Schema.String, endToEndId: EndToEndId, valor: Valor, status: SendStatus })

export interface PixSent {
  readonly endToEndId: string
  readonly valor: string
  readonly status: typeof SendStatus.Type
}

export interface SendPixRequest {
  readonly idEnvio: string
  readonly valor: string
  /** The paying key: the PSP entry's own, which Efí requires to have a webhook. */
  readonly pagador: string
  readonly favorecido: string
  readonly infoPagador?: string
}

/** The send's state now, by its id. */
export const efiSentPix = (http: PspHttp, idEnvio: string): Effect.Effect<PixSent, PixApiError> =>
  http.send({ method: "GET", path: ["gn", "pix", "enviados", "id-envio", idEnvio] }).pipe(
    Effect.flatMap(decodeAnswer(http.psp.name, "the Pix sent", SentPix)),
    Effect.map((answer): PixSent => ({ endToEndId: answer.endToEndId, valor: answer.valor, status: answer.status }))
  )

/** Sends once by `idEnvio`: asked again, it answers the first send. */
export const efiSendPix = (http: PspHttp, request: SendPixRequest): Effect.Effect<PixSent, PixApiError> => {
  const sent = decodeAnswer(http.psp.name, "the Pix sent", SendAnswer)
  const pagador = request.infoPagador === undefined ? { chave: request.pagador } : { chave: request.pagador, infoPagador: request.infoPagador }
  const send = http.send({ method: "PUT", path: ["gn", "pix", request.idEnvio], body: { valor: request.valor, pagador, favorecido: { chave: request.favorecido } } }).pipe(
    Effect.flatMap(sent),
    Effect.map((answer): PixSent => ({ endToEndId: answer.e2eId, valor: answer.valor, status: answer.status }))
  )
  return createOrFind(send, efiSentPix(http, request.idEnvio), (answer) => answer.valor === request.valor)
}

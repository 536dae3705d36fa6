/**
 * The PSP's answers as the adapter reads them, each a Schema of the fields it
 * uses (names and shapes of the BCB API Pix 2.9.0; other fields are left
 * alone, as the standard allows PSPs to add some). Nothing read from a PSP
 * reaches the engine without passing one of these.
 */
import { Schema } from "effect"
import { Violacao } from "./PspErrors.ts"

/** An amount as the standard writes it, `"123.45"`. */
export const Valor = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{1,10}\.\d{2}$/)))

const TxId = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9]{1,35}$/)))
const EndToEndId = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9]{32}$/)))

export const CobStatus = Schema.Literals(["ATIVA", "CONCLUIDA", "REMOVIDA_PELO_USUARIO_RECEBEDOR", "REMOVIDA_PELO_PSP"])

export const DevolucaoStatus = Schema.Literals(["EM_PROCESSAMENTO", "DEVOLVIDO", "NAO_REALIZADO"])

/** A devolução (`Devolucao`): `rtrId` is the return's own end-to-end id in the SPI. */
export const DevolucaoAnswer = Schema.Struct({
  id: Schema.String,
  rtrId: EndToEndId,
  valor: Valor,
  status: DevolucaoStatus,
  motivo: Schema.optional(Schema.String),
  horario: Schema.Struct({
    solicitacao: Schema.optional(Schema.String),
    liquidacao: Schema.optional(Schema.String)
  })
})
export type DevolucaoAnswer = typeof DevolucaoAnswer.Type

/** A Pix received (`Pix`), with its devoluções when it has some. */
export const PixReceived = Schema.Struct({
  endToEndId: EndToEndId,
  txid: Schema.optional(TxId),
  valor: Valor,
  horario: Schema.String,
  devolucoes: Schema.optional(Schema.Array(DevolucaoAnswer))
})
export type PixReceived = typeof PixReceived.Type

/**
 * A `cob` or `cobv` (`CobGerada`, `CobVGerada`, `CobCompleta`): what a
 * charge's registration needs back, and, once `CONCLUIDA`, the Pix that paid
 * it (`pix`), which the expiry of a charge whose callback never came reads.
 */
export const CobAnswer = Schema.Struct({
  txid: TxId,
  status: CobStatus,
  chave: Schema.String,
  valor: Schema.Struct({ original: Valor }),
  location: Schema.optional(Schema.String),
  pixCopiaECola: Schema.optional(Schema.String),
  pix: Schema.optional(Schema.Array(PixReceived))
})
export type CobAnswer = typeof CobAnswer.Type

/** One page of `GET /pix` (`PixConsultados`): pages count from 0. */
export const PixPage = Schema.Struct({
  parametros: Schema.Struct({
    paginacao: Schema.Struct({
      paginaAtual: Schema.Int,
      quantidadeDePaginas: Schema.Int
    })
  }),
  pix: Schema.optional(Schema.Array(PixReceived))
})
export type PixPage = typeof PixPage.Type

/** An RFC 7807 problem as the standard writes it (`Problema`). */
export const Problema = Schema.Struct({
  type: Schema.String,
  title: Schema.String,
  status: Schema.Number,
  detail: Schema.optional(Schema.String),
  correlationId: Schema.optional(Schema.String),
  violacoes: Schema.optional(Schema.Array(Violacao))
})

/** The error body of Efí's own routes (`{ "nome": "id_envio_duplicado", "mensagem": "…" }`), not a problem. */
export const EfiError = Schema.Struct({
  nome: Schema.String,
  mensagem: Schema.String
})
